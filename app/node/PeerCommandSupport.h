#pragma once

#include "core/engine/PeerOptions.h"

#include <QCommandLineParser>
#include <QString>

namespace sahaj::node {

// What the coordinator and volunteer commands share: the run manifest, the identity, the timings of
// group formation, the stop epoch, and the loop that runs a peer until it is told to stop, printing one
// JSON line per epoch and writing OUT/epochs.jsonl and OUT/summary.json.
class PeerCommandSupport {
public:
    static void addOptions(QCommandLineParser& parser);
    // The manifest, identity (--identity DIR, default `defaultIdentityDir`), timings, stop epoch and threads.
    // signedOnly: refuse a plain manifest (volunteers: only a join file or link carries the organiser's
    // signature).
    // The folder of this peer's keys: --identity DIR, else `defaultIdentityDir`.
    static QString identityDir(const QCommandLineParser& parser, const QString& defaultIdentityDir);
    static engine::PeerOptions options(const QCommandLineParser& parser, const QString& defaultIdentityDir,
                                       bool signedOnly);
    // Runs the peer until SIGINT/SIGTERM or the stop epoch. outDir: where epochs.jsonl and summary.json
    // go (empty: nowhere). metricsFile: the coordinator's per-epoch metrics (empty: none).
    static int run(engine::PeerOptions options, const QString& role, const QString& outDir,
                   const QString& metricsFile);
};

} // namespace sahaj::node
