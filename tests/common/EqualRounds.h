#pragma once

#include "tests/common/NodePeers.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QTest>

#include <map>
#include <vector>

namespace sahaj::test {

// Members of one group that entered its round with the same state leave it bit-identical; clients
// never aggregate. Two members enter with the same state when they went through the same complete
// rounds since the start, their last state download or their last complete state averaging (a split
// or a failed round leaves members different, parameters and optimiser moments alike, until the next
// state averaging heals them). Returns how many rounds it checked.
inline int checkEqualRounds(const std::vector<NodePeer*>& peers) {
    std::map<QString, QString> hashOf; // lineage + round -> parameters after it
    int checked = 0;
    for (const NodePeer* peer : peers) {
        QString lineage = QStringLiteral("start");
        for (const QJsonObject& epoch : readJsonLines(peer->dir + "/epochs.jsonl")) {
            const QString hash = epoch["params_sha256"].toString();
            const QString at = QString::number(epoch["epoch"].toInteger());
            if (epoch["state_loaded"].toBool()) {
                lineage = "loaded " + at + " " + hash;
                continue;
            }
            QStringList members;
            for (const QJsonValue& member : epoch["members"].toArray()) {
                members << member["id"].toString();
                if (member["role"] == "client")
                    [&] { QCOMPARE(member["share"].toDouble(), 0.0); }();
            }
            const QString round = at + ":" + members.join(',');
            if (epoch["alone"].toBool() || !epoch["complete"].toBool()) {
                lineage += " | " + round + " apart on " + peer->dir;
                continue;
            }
            const QString key = lineage + " | " + round;
            const auto [it, inserted] = hashOf.emplace(key, hash);
            if (!inserted) {
                [&] {
                    QVERIFY2(it->second == hash, qPrintable("round " + round + " differs on " + peer->dir));
                }();
                ++checked;
            }
            lineage = epoch["parameters_averaged"].toBool() ? "averaged " + round : key;
        }
    }
    return checked;
}

} // namespace sahaj::test
