#pragma once

#include "core/collab/GroupSpec.h"

#include <cstddef>
#include <random>
#include <string>
#include <vector>

namespace sahaj::collab {

// Which aggregators' spans a member audits in a round (docs/protocol.md, "Audited averages"): `count` of
// the other members that aggregate a span, not among `excluded`, drawn at random by the member itself, so
// that no aggregator knows before it seals whether its span will be checked. By peer id.
class AuditChoice {
public:
    static std::vector<std::string> pick(const GroupSpec& spec, const std::string& self,
                                         const std::vector<std::string>& excluded, std::size_t count,
                                         std::mt19937_64& random);
};

} // namespace sahaj::collab
