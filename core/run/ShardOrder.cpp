#include "core/run/ShardOrder.h"

#include <QCryptographicHash>

#include <algorithm>
#include <numeric>

namespace sahaj::run {

std::vector<std::size_t> ShardOrder::forPeer(const std::vector<DataShard>& shards, const QString& runId,
                                             const QString& peerId) {
    std::vector<QByteArray> ranks;
    ranks.reserve(shards.size());
    for (const DataShard& shard : shards) {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        // Separators keep ("ab", "c") and ("a", "bc") apart.
        hash.addData(runId.toUtf8() + '\0' + peerId.toUtf8() + '\0' + shard.sha256.toLatin1());
        ranks.push_back(hash.result());
    }
    std::vector<std::size_t> order(shards.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });
    return order;
}

} // namespace sahaj::run
