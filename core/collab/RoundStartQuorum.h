#pragma once

#include "core/collab/GroupSpec.h"

#include <cstddef>
#include <set>
#include <string>

namespace sahaj::collab {

// When a member of a formed group begins the group's round before its own reading of the progress says the
// batch is full: once more than half of the group's other members have begun it. Each member decides the
// batch's end from its own reading of the progress records, and the readings differ by seconds (in the
// 40-volunteer soak a round's members began over 7 to 26 s, and each round waited for its last member);
// members that began say so, by their parts and connection notices and by their progress records. One
// member's word is not enough: a liar that says it began at once would otherwise cut every batch short. It
// takes most of the group (docs/collaboration.md, "When a round begins").
class RoundStartQuorum {
public:
    // How many members of `group` other than `self` are among `begun` (peer ids; others do not count).
    static std::size_t begunOthers(const GroupSpec& group, const std::string& self,
                                   const std::set<std::string>& begun);
    // Whether they are more than half of the group's other members.
    static bool reached(const GroupSpec& group, const std::string& self, const std::set<std::string>& begun);
};

} // namespace sahaj::collab
