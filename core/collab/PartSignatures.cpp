#include "core/collab/PartSignatures.h"

#include "core/security/PeerIdentity.h"
#include "core/security/Sha256.h"
#include "core/security/SignedText.h"

#include <zmq.hpp>

#include <bit>

namespace sahaj::collab {

QByteArray PartSignatures::signedText(const std::string& runId, const std::string& senderId,
                                      const wire::TensorPart& part, const zmq::message_t& data) {
    using security::SignedText;
    QByteArray text("sahaj signed part 1");
    text.append('\0');
    SignedText::appendBytes(text, runId);
    SignedText::appendBytes(text, senderId);
    SignedText::appendBytes(text, part.group_id());
    SignedText::appendNumber(text, part.epoch());
    SignedText::appendNumber(text, part.span());
    SignedText::appendNumber(text, part.part());
    SignedText::appendNumber(text, part.offset());
    SignedText::appendNumber(text, part.count());
    // Deterministic: the same encoding serialises to the same bytes (the round compares them so too).
    SignedText::appendBytes(text, part.encoding().SerializeAsString());
    SignedText::appendNumber(text, std::bit_cast<std::uint64_t>(part.weight()));
    security::Sha256 hash;
    hash.add(QByteArrayView(static_cast<const char*>(data.data()), static_cast<qsizetype>(data.size())));
    SignedText::appendField(text, hash.result());
    return text;
}

void PartSignatures::sign(const std::string& runId, const security::PeerIdentity& identity,
                          wire::TensorPart& part, const zmq::message_t& data) {
    part.clear_signature();
    part.set_signature(
        identity.sign(signedText(runId, identity.id().bytes().toStdString(), part, data)).toStdString());
}

std::string PartSignatures::problemWith(const std::string& runId, const std::string& senderId,
                                        const wire::TensorPart& part, const zmq::message_t& data) {
    if (part.signature().empty())
        return "is not signed";
    if (senderId.size() != static_cast<std::size_t>(security::PeerId::kSize))
        return "names a sender that is no key";
    if (!security::PeerIdentity::verify(security::PeerId::fromBytes(QByteArray::fromStdString(senderId)),
                                        signedText(runId, senderId, part, data),
                                        QByteArray::fromStdString(part.signature())))
        return "does not carry its sender's signature";
    return {};
}

} // namespace sahaj::collab
