#include "core/engine/EpochReport.h"

#include <QJsonArray>

namespace sahaj::engine {

QJsonObject EpochReport::toJson() const {
    QJsonArray memberArray;
    for (const RoundMember& member : members)
        memberArray.append(QJsonObject{{"id", QString::fromStdString(member.peerId)},
                                       {"role", QString::fromStdString(member.role)},
                                       {"share", member.share},
                                       {"weight", member.weight},
                                       {"bandwidth", member.bandwidth},
                                       {"counted", member.counted}});
    QJsonArray problemArray;
    for (const std::string& problem : problems)
        problemArray.append(QString::fromStdString(problem));
    return QJsonObject{{"epoch", static_cast<qint64>(epoch)},
                       {"loss", loss},
                       {"local_loss", localLoss},
                       {"local_samples", static_cast<qint64>(localSamples)},
                       {"samples_during_round", static_cast<qint64>(samplesDuringRound)},
                       {"weight", weight},
                       {"members", memberArray},
                       {"share", share},
                       {"vector_size", static_cast<qint64>(vectorSize)},
                       {"compute_seconds", computeSeconds},
                       {"wall_seconds", wallSeconds},
                       {"data_wait_seconds", dataWaitSeconds},
                       {"alone", alone},
                       {"led", led},
                       {"complete", complete},
                       {"parameters_averaged", parametersAveraged},
                       {"applied", applied},
                       {"restored", restored},
                       {"state_loaded", stateLoaded},
                       {"round_seconds", roundSeconds},
                       {"bytes_sent", static_cast<qint64>(bytesSent)},
                       {"bytes_received", static_cast<qint64>(bytesReceived)},
                       {"paced_connections", static_cast<qint64>(pacedConnections)},
                       {"learning_rate", learningRate},
                       {"gradient_norm", gradientNorm},
                       {"samples_per_second", samplesPerSecond},
                       {"bandwidth_mbps", bandwidthMbps},
                       {"params_sha256", QString::fromStdString(parametersSha256)},
                       {"problems", problemArray}};
}

} // namespace sahaj::engine
