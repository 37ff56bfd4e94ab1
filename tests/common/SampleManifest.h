#pragma once

// A small, valid run manifest for tests that need one to sign or read (the files it names need not exist).

#include "core/run/RunManifest.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace sahaj::test {

inline run::RunManifest sampleManifest(const QString& runId, const QString& coordinator) {
    return run::RunManifest::fromJson(QJsonObject{
        {"format", "sahaj-run/1"},
        {"run_id", runId},
        {"model", "tiny"},
        {"tokenizer", QJsonObject{{"path", "/data/tokenizer.json"}, {"sha256", QString(64, 'a')}}},
        {"training", QJsonObject{{"sequence_length", 64}}},
        {"data", QJsonArray{QJsonObject{{"urls", QJsonArray{"file:///data/shard-0.txt"}},
                                        {"sha256", QString(64, 'b')},
                                        {"bytes", 1000}}}},
        {"coordinators", QJsonArray{coordinator}},
    });
}

} // namespace sahaj::test
