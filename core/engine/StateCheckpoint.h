#pragma once

#include "core/collab/TrainingState.h"
#include "core/model/AlbertConfig.h"

#include <QString>

#include <optional>
#include <string>

namespace sahaj::engine {

// The coordinator's backup of the collaboration, in its state folder:
//   state.snapshot   the full training state (StateSnapshot bytes: parameters, LAMB state, epoch), which a
//                    restarted coordinator resumes from and serves to newcomers;
//   model/           the parameters in Hugging Face layout with the run's tokenizer.json, for eval,
//                    fill-mask and finetune;
//   checkpoint.json  the epoch and the parameters' sha256.
// Each file is replaced atomically, the snapshot last but one and checkpoint.json last, so a crash at
// any point leaves a loadable snapshot.
class StateCheckpoint {
public:
    static constexpr const char* kSnapshotFile = "state.snapshot";
    static constexpr const char* kModelDirectory = "model";
    static constexpr const char* kInfoFile = "checkpoint.json";

    static void save(const QString& directory, const std::string& snapshotBytes,
                     const model::AlbertConfig& config, const array::SafeTensorsImage::Arrays& parameters,
                     const QString& tokenizerPath, std::uint64_t epoch, const std::string& parametersSha256);
    // nullopt when the folder holds no snapshot. Throws std::runtime_error naming the file when it holds
    // one that cannot be read or belongs to another run (schema).
    static std::optional<collab::TrainingState> load(const QString& directory, const std::string& schemaHash);
};

} // namespace sahaj::engine
