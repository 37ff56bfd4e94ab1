#pragma once

#include "core/collab/StateDownloader.h"
#include "core/collab/TrainingState.h"

#include <optional>
#include <string>
#include <vector>

namespace sahaj::engine {

class StateFit;

// The state a download brought, made ready to load: each donor's snapshot decoded (StateSnapshot, which
// checks the format and the schema hash the donor wrote) and checked against this peer's model
// (StateFit: names, shapes, types, values), then the one the donors vouched for, or the median of the
// states of one epoch (StateMedian). Admitted is not trusted: a donor whose snapshot fails is a failure
// of that donor, named, and nothing is loaded, rather than a median that throws on a state of another
// layout, or a state the training thread refuses later without knowing whose it was. The caller marks
// the donors (DonorHistory), so that its next download asks the others first.
struct DownloadedState {
    std::optional<collab::TrainingState> state; // nullopt: refused (failures says why)
    std::vector<collab::DonorFailure> failures; // each donor whose snapshot failed, and why
    std::string donors;                         // the donors' short ids, for the log

    // Frees each snapshot's bytes once decoded. fit: nullptr checks nothing beyond the snapshot.
    static DownloadedState from(collab::StateDownload& download, const std::string& schemaHash,
                                const StateFit* fit);
};

} // namespace sahaj::engine
