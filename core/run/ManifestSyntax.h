#pragma once

#include <QString>

namespace sahaj::run {

// The spelling rules of a run manifest's strings, shared by the manifest's validation and by the tools
// that write manifests (so that `run-init` can blame its own option rather than a JSON field).
class ManifestSyntax {
public:
    // [a-z0-9][a-z0-9-]{0,63}: safe in file names, DHT keys and URLs alike.
    static bool isRunId(const QString& text);
    static QString runIdRule();
    // 64 lowercase hexadecimal digits (one spelling per hash, so that equal hashes compare equal).
    static bool isSha256Hex(const QString& text);
    // HOST:PORT with a DNS name, an IPv4 address or a bracketed IPv6 address, and a port in [1, 65535].
    static bool isHostPort(const QString& text);
    static QString hostPortRule();
    // A place to download from: https://host/path, or http:// whose host is a loopback or private address
    // (127.0.0.0/8, ::1, localhost, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7: test networks and
    // a LAN's own mirror; the hash in the manifest carries the integrity either way, https keeps what a
    // volunteer fetches over the Internet private). Strictly encoded (spaces as %20), without a fragment.
    static bool isRemoteUrl(const QString& text);
    static QString remoteUrlRule();
    // For what a peer is told to join: the problem with `text` when it begins like a web address (http:,
    // https:) but is not a remote URL; empty otherwise.
    static QString joinUrlProblem(const QString& text);
    // A remote URL, or file:///absolute/path.
    static bool isShardUrl(const QString& text);
    static QString shardUrlRule();
};

} // namespace sahaj::run
