#include "core/collab/SealLedger.h"

#include <QByteArray>

#include <stdexcept>

namespace sahaj::collab {

namespace {

std::string hexOfBytes(const std::string& bytes) {
    return QByteArray::fromStdString(bytes).toHex().toStdString();
}

} // namespace

std::string SealLedger::record(const wire::SpanSeal& seal) {
    if (seal.span() >= seals_.size())
        throw std::out_of_range("a seal of span " + std::to_string(seal.span()) + " in a group of " +
                                std::to_string(seals_.size()));
    std::optional<wire::SpanSeal>& held = seals_[seal.span()];
    if (!held) {
        held = seal;
        return {};
    }
    if (held->values_sha256() == seal.values_sha256())
        return {};
    return "aggregator " + hexOfBytes(seal.aggregator()) + " signed two different averages of span " +
           std::to_string(seal.span()) + " in group " + hexOfBytes(seal.group_id()) + " at epoch " +
           std::to_string(seal.epoch()) + ": values with sha256 " + hexOfBytes(held->values_sha256()) +
           " and " + hexOfBytes(seal.values_sha256());
}

std::vector<wire::SpanSeal> SealLedger::all() const {
    std::vector<wire::SpanSeal> held;
    for (const std::optional<wire::SpanSeal>& seal : seals_)
        if (seal)
            held.push_back(*seal);
    return held;
}

} // namespace sahaj::collab
