#include "core/collab/SpanSeals.h"

#include "core/security/PeerIdentity.h"
#include "core/security/Sha256.h"
#include "core/security/SignedText.h"

#include <bit>

namespace sahaj::collab {

static_assert(std::endian::native == std::endian::little, "seals hash the values' little-endian bytes");

void SpanSeals::addValues(security::Sha256& hash, const float* values, std::size_t count) {
    hash.add(
        QByteArrayView(reinterpret_cast<const char*>(values), static_cast<qsizetype>(count * sizeof(float))));
}

QByteArray SpanSeals::signedText(const std::string& runId, const wire::SpanSeal& seal) {
    using security::SignedText;
    QByteArray text("sahaj span seal 2");
    text.append('\0');
    SignedText::appendBytes(text, runId);
    SignedText::appendBytes(text, seal.group_id());
    SignedText::appendNumber(text, seal.epoch());
    SignedText::appendNumber(text, seal.span());
    SignedText::appendBytes(text, seal.aggregator());
    SignedText::appendBytes(text, seal.values_sha256());
    SignedText::appendNumber(text, static_cast<std::uint64_t>(seal.counted_weights_size()));
    for (const double weight : seal.counted_weights())
        SignedText::appendNumber(text, std::bit_cast<std::uint64_t>(weight));
    return text;
}

wire::SpanSeal SpanSeals::make(const std::string& runId, const GroupSpec& spec, std::uint32_t span,
                               const QByteArray& valuesSha256, const std::vector<double>& countedWeights,
                               const security::PeerIdentity& identity) {
    wire::SpanSeal seal;
    seal.set_group_id(spec.groupId);
    seal.set_epoch(spec.epoch);
    seal.set_span(span);
    seal.set_aggregator(identity.id().bytes().toStdString());
    seal.set_values_sha256(valuesSha256.toStdString());
    for (const double weight : countedWeights)
        seal.add_counted_weights(weight);
    seal.set_signature(identity.sign(signedText(runId, seal)).toStdString());
    return seal;
}

std::string SpanSeals::problemWith(const std::string& runId, const GroupSpec& spec,
                                   const wire::SpanSeal& seal) {
    if (seal.group_id() != spec.groupId || seal.epoch() != spec.epoch)
        return "is for another group or epoch";
    if (seal.span() >= spec.members.size())
        return "names a span the group does not have";
    if (seal.aggregator() != spec.members[seal.span()].peerId)
        return "names another aggregator than the span's";
    if (static_cast<std::size_t>(seal.counted_weights_size()) != spec.members.size())
        return "does not give one counted weight per member";
    if (!security::PeerIdentity::verify(
            security::PeerId::fromBytes(QByteArray::fromStdString(seal.aggregator())),
            signedText(runId, seal), QByteArray::fromStdString(seal.signature())))
        return "does not carry its aggregator's signature";
    return {};
}

} // namespace sahaj::collab
