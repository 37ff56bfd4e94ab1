#pragma once

#include "core/engine/EngineLimits.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace sahaj::engine {

// Everything the engine needs to join a run, as the wizard or the settings describe it.
struct JoinRequest {
    QString run;         // a join link (sahaj:join/...), the https URL of a join file, or its path
    QString organiser;   // the organiser key to insist on (64 hex digits), empty: the one the run names
    QString coordinator; // IPV4:PORT, empty: the manifest's first
    // Credentials the run's policy asks for: a user name and a password or invite code, or a token file
    // the organiser issued. An open run needs none.
    QString user = QStringLiteral("volunteer");
    QString secret;
    QString tokenFile;
    QString authEndpoint; // IPV4:PORT, empty: the manifest's, else the one the coordinator announces
    QString identityDir;  // this peer's keys (created on first use)
    QString dataDir;      // a folder holding the run's shards by file name, empty: none
    QString cacheDir;     // where downloaded shards are kept, empty: VolunteerSetup::defaultCacheDir
    std::int64_t cacheCapBytes = 20ll << 30; // the most the shard cache holds
    // Where this peer accepts connections (and its DHT node binds); empty: the address this computer reaches
    // the coordinator from (net::RouteSource), any free port.
    QString listen;
    bool clientMode = false; // connect out only, whatever the reachability check finds (ReachabilityCheck)
    QString device = QStringLiteral("auto"); // "auto", "cpu", "cuda", "cuda:N"
    // The country this peer shows on the others' peer maps (ISO 3166 alpha-2), empty: not shared.
    QString country;
    EngineLimits limits;
    std::optional<std::uint64_t> seed; // of this peer's data order, none: random
    int threads = 0;                   // torch CPU threads, 0: torch's choice
    std::uint64_t stopAtEpoch = 0;     // leave once the run reaches this epoch, 0: the manifest's end

    // Empty when the request can be tried, else one sentence saying what is missing or wrong.
    QString problem() const;
    // What is wrong with `run` as what a volunteer joins, in one plain sentence (empty file, random bytes,
    // a plain manifest, no such file, a malformed link...: run::JoinFile::problemWithFile), checked before
    // the wizard finishes; empty when it verifies (signed by `organiser` when one is given), or is a URL
    // (downloaded, and checked, when joining).
    static QString runProblem(const QString& run, const QString& organiser = {});
    // "auto" (the GPUs whose cores pass their self-test, else the CPU: engine::CorePlanner), "cpu",
    // "cuda" (the first GPU) or "cuda:N".
    static bool isDeviceName(const QString& text);
};

} // namespace sahaj::engine
