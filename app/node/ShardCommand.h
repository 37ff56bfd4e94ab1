#pragma once

#include "app/node/NodeCommand.h"
#include "core/run/DataShard.h"

#include <vector>

namespace sahaj::node {

// `sahaj-node shard`: splits text or JSONL corpora into shards of about N MB (whole documents, as JSONL,
// optionally compressed) and writes their `data[]` entries to OUT/data.json for run-init --data.
class ShardCommand : public NodeCommand {
public:
    static constexpr const char* kDataFormat = "sahaj-data/1";

    QString name() const override { return QStringLiteral("shard"); }
    QString summary() const override {
        return QStringLiteral("Split corpora into shards and write their entries for run-init --data");
    }
    QString description() const override;
    void addOptions(QCommandLineParser& parser) const override;
    int run(const QCommandLineParser& parser) override;

    // The shards of a data.json this command wrote, checked as the manifest checks them. Throws
    // UsageError naming the file and the field.
    static std::vector<run::DataShard> readData(const QString& path);
};

} // namespace sahaj::node
