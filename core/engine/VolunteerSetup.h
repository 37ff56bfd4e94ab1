#pragma once

#include "core/engine/DataPreparation.h"
#include "core/engine/JoinRequest.h"
#include "core/engine/PeerOptions.h"

#include <atomic>

namespace sahaj::engine {

// Turns what the app asks for (a JoinRequest) into the options of a training peer: the run read and its
// organiser's signature checked, this peer's identity, the tokenizer and the first data shard found or
// downloaded and verified, the limits, and admission (an access token obtained, which may take up to a minute
// while the coordinator starts).
class VolunteerSetup {
public:
    // Throws std::invalid_argument for what the user can fix (the request's problem, a run that does not
    // verify, a bad credential), std::runtime_error for what failed (a missing data shard, a refused or
    // unanswered token request). `cancel` ends a wait for the token endpoint early.
    // `progress` and `log` follow the downloads of the run's files (engine::DataPreparation).
    static PeerOptions options(const JoinRequest& request, const std::atomic<bool>* cancel = nullptr,
                               const fetch::ProgressCallback& progress = {},
                               const DataPreparation::Log& log = {});
    // Where a volunteer keeps its downloaded shards unless told otherwise: beside its keys, so that each
    // identity (one process at a time) has its own cache.
    static QString defaultCacheDir(const QString& identityDir);
    // "IPV4:PORT" with a port in 1..65535 (0 too when `anyPort`); throws std::invalid_argument naming `what`.
    static void checkAddress(const QString& what, const QString& address, bool anyPort);
};

} // namespace sahaj::engine
