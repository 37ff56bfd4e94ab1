#pragma once

#include "core/fetch/ShardMirror.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <memory>
#include <string>

namespace sahaj::security {
class CurveKeyPair;
class PeerIdentity;
} // namespace sahaj::security

namespace sahaj::admission {

// A volunteer's side of the coordinator's data mirror: the run's files fetched by SHA-256 from the
// coordinator's token endpoint, over a CURVE connection that authenticates the endpoint by its key, with
// the volunteer's access token in each request. A window of pieces is in flight at a time; each reply is
// checked against what was asked (file, offset, size, the manifest's total) before its bytes reach the
// sink, and the downloader checks the whole file's SHA-256 as for any place: the coordinator is an
// organiser's machine, not a trusted one.
class CoordinatorMirror : public fetch::ShardMirror {
public:
    struct Access {
        std::string endpoint;       // "tcp://host:port" of the token endpoint
        std::string serverCurveKey; // its CURVE public key, 32 raw bytes (the manifest's auth_curve_key)
        std::shared_ptr<const security::PeerIdentity> identity;
        std::shared_ptr<const security::CurveKeyPair> curve; // the keys the token names
        QByteArray token;                                    // this peer's access token
        QString runId;
    };

    // Pieces asked for at once: enough to cover a round trip on a fast link, few enough that the
    // coordinator's queue for one volunteer stays a few MiB.
    static constexpr int kWindow = 4;
    // The longest pause a mirror at its cap may ask for before the next try.
    static constexpr std::chrono::milliseconds kMaxPause{5000};

    explicit CoordinatorMirror(Access access);

    QString name() const override;
    fetch::FetchResult fetch(const run::DataShard& shard, std::int64_t offset,
                             const fetch::TransferSettings& settings, const fetch::HttpFetch::Sink& sink,
                             const fetch::HttpFetch::Progress& progress,
                             const std::atomic<bool>* cancel) override;

private:
    Access access_;
};

} // namespace sahaj::admission
