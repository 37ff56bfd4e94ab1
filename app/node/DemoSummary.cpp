#include "app/node/DemoSummary.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <map>
#include <stdexcept>

namespace sahaj::node {

namespace {

QJsonObject readObject(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error(path.toStdString() + ": " + file.errorString().toStdString());
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (!document.isObject())
        throw std::runtime_error(path.toStdString() + ": not a JSON object");
    return document.object();
}

std::vector<QJsonObject> readLines(const QString& path) {
    std::vector<QJsonObject> lines;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return lines; // a peer that never finished an epoch wrote nothing
    while (!file.atEnd()) {
        const QJsonDocument document = QJsonDocument::fromJson(file.readLine());
        if (document.isObject())
            lines.push_back(document.object());
    }
    return lines;
}

struct Round {
    QJsonObject shares;
    int groupSize = 0;
    double seconds = 0.0;
    double bytesSent = 0.0;
    double loss = 0.0;
    bool lossKnown = false;
};

} // namespace

QJsonObject DemoSummary::build(const QStringList& peerDirs) {
    QJsonArray peers;
    std::map<qint64, Round> rounds;
    qint64 globalSteps = 0;
    // Collaboration efficiency (time computing / wall time) of the volunteers that train, from their
    // second epoch on (the first includes joining, the DHT lookup and the initial sync).
    double computeTotal = 0.0;
    double wallTotal = 0.0;
    double averagingTotal = 0.0;
    int measuredEpochs = 0;
    double lowest = 1.0;
    for (const QString& dir : peerDirs) {
        const QJsonObject summary = readObject(QDir(dir).filePath("summary.json"));
        const std::vector<QJsonObject> epochs = readLines(QDir(dir).filePath("epochs.jsonl"));
        double compute = 0.0;
        double wall = 0.0;
        for (std::size_t i = 1; i < epochs.size(); ++i) {
            if (epochs[i]["state_loaded"].toBool() || epochs[i - 1]["state_loaded"].toBool())
                continue;
            compute += epochs[i]["compute_seconds"].toDouble();
            wall += epochs[i]["wall_seconds"].toDouble();
            if (epochs[i]["local_samples"].toInteger() > 0) {
                averagingTotal += epochs[i]["round_seconds"].toDouble();
                ++measuredEpochs;
            }
        }
        QJsonObject peer{{"id", summary["id"]},
                         {"role", summary["role"]},
                         {"epoch", summary["epoch"]},
                         {"final_params_sha256", summary["final_params_sha256"]},
                         {"epochs_joined", summary["epochs_joined"]},
                         {"last_share", summary["last_share"]},
                         {"bandwidth_mbps", summary["bandwidth_mbps"]}};
        if (compute > 0.0 && wall > 0.0) {
            peer.insert("efficiency", compute / wall);
            computeTotal += compute;
            wallTotal += wall;
            lowest = std::min(lowest, compute / wall);
        }
        peers.append(peer);
        globalSteps = std::max<qint64>(globalSteps, summary["epoch"].toInteger());
        for (const QJsonObject& epoch : epochs) {
            if (epoch["state_loaded"].toBool() || epoch["alone"].toBool())
                continue;
            Round& round = rounds[epoch["epoch"].toInteger()];
            const QJsonArray members = epoch["members"].toArray();
            if (round.groupSize < members.size()) {
                round.groupSize = static_cast<int>(members.size());
                round.shares = {};
                for (const QJsonValue& member : members)
                    round.shares.insert(member["id"].toString(), member["share"].toDouble());
            }
            round.seconds = std::max(round.seconds, epoch["round_seconds"].toDouble());
            round.bytesSent += epoch["bytes_sent"].toDouble();
            if (!round.lossKnown && epoch["local_samples"].toInteger() > 0) {
                round.loss = epoch["loss"].toDouble();
                round.lossKnown = true;
            }
        }
    }
    QJsonArray roundArray;
    QJsonArray loss;
    for (const auto& [epoch, round] : rounds) {
        roundArray.append(QJsonObject{{"epoch", epoch},
                                      {"group_size", round.groupSize},
                                      {"shares", round.shares},
                                      {"duration_s", round.seconds},
                                      {"bytes_sent", round.bytesSent}});
        if (round.lossKnown)
            loss.append(QJsonObject{{"epoch", epoch}, {"loss", round.loss}});
    }
    QJsonObject result{
        {"global_steps", globalSteps}, {"loss", loss}, {"peers", peers}, {"rounds", roundArray}};
    if (wallTotal > 0.0 && measuredEpochs > 0)
        result.insert("efficiency", QJsonObject{{"compute_over_wall", computeTotal / wallTotal},
                                                {"lowest_peer", lowest},
                                                {"compute_per_epoch_s", computeTotal / measuredEpochs},
                                                {"averaging_per_epoch_s", averagingTotal / measuredEpochs}});
    return result;
}

bool DemoSummary::parametersEqual(const QJsonObject& summary) {
    const qint64 last = summary["global_steps"].toInteger();
    QString hash;
    for (const QJsonValue& peer : summary["peers"].toArray()) {
        // The volunteers that train; the coordinator is compared when it kept up (it may have missed the
        // last round, and an auxiliary keeps no parameters).
        const QString role = peer["role"].toString();
        if (role == "auxiliary" || (role == "coordinator" && peer["epoch"].toInteger() != last))
            continue;
        if (peer["epoch"].toInteger() != last)
            return false;
        if (hash.isEmpty())
            hash = peer["final_params_sha256"].toString();
        else if (peer["final_params_sha256"].toString() != hash)
            return false;
    }
    return !hash.isEmpty();
}

} // namespace sahaj::node
