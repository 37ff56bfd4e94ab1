#include "core/engine/DownloadedState.h"

#include "core/collab/StateMedian.h"
#include "core/collab/StateSnapshot.h"
#include "core/engine/StateFit.h"

#include <QByteArray>

#include <exception>
#include <utility>

namespace sahaj::engine {

DownloadedState DownloadedState::from(collab::StateDownload& download, const std::string& schemaHash,
                                      const StateFit* fit) {
    DownloadedState result;
    std::vector<collab::TrainingState> states;
    for (std::size_t i = 0; i < download.snapshots.size(); ++i) {
        const std::string& donor = download.donors.at(i);
        const std::string shortId = QByteArray::fromStdString(donor).toHex().left(16).toStdString();
        result.donors += (result.donors.empty() ? "" : ", ") + shortId;
        try {
            states.push_back(collab::StateSnapshot::deserialize(download.snapshots[i], schemaHash,
                                                                "the state from " + shortId));
            std::string().swap(download.snapshots[i]);
            if (fit)
                fit->validate(states.back(), "the state from " + shortId);
        } catch (const std::exception& e) {
            result.failures.push_back({donor, e.what()});
        }
    }
    if (!result.failures.empty() || states.empty())
        return result;
    // No state had a majority behind it: the median of the donors' (StateVote, StateMedian).
    result.state = states.size() == 1 ? std::move(states.front()) : collab::StateMedian::of(states);
    return result;
}

} // namespace sahaj::engine
