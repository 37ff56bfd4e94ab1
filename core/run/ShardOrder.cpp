#include "core/run/ShardOrder.h"

#include <QCryptographicHash>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sahaj::run {

std::vector<std::size_t> ShardOrder::forPeer(const std::vector<DataShard>& shards, const QString& runId,
                                             const QString& peerId, std::uint64_t pass) {
    std::vector<double> keys;
    keys.reserve(shards.size());
    for (const DataShard& shard : shards) {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        // Separators keep ("ab", "c") and ("a", "bc") apart.
        hash.addData(runId.toUtf8() + '\0' + peerId.toUtf8() + '\0' + QByteArray::number(pass) + '\0' +
                     shard.sha256.toLatin1());
        const QByteArray digest = hash.result();
        // 53 bits of the hash as u in (0, 1): never 0, so that every shard has a place.
        std::uint64_t bits = 0;
        for (int i = 0; i < 8; ++i)
            bits = (bits << 8) | std::uint8_t(digest[i]);
        const double u = (double(bits >> 11) + 0.5) / double(std::uint64_t{1} << 53);
        // log(u^(1/w)) = log(u)/w, the same order without underflow for small weights.
        keys.push_back(std::log(u) / shard.weight);
    }
    std::vector<std::size_t> order(shards.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // Ties (practically impossible) fall back to the manifest's order, so that every peer sorts alike.
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return keys[a] > keys[b]; });
    return order;
}

} // namespace sahaj::run
