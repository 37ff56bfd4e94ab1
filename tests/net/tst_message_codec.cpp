// MessageCodec and MessageValidator: messages survive encoding exactly, and every kind of malformed or
// hostile frame is rejected with a ProtocolViolation that names the problem.
#include "core/net/ClockSkew.h"
#include "core/net/MessageCodec.h"
#include "core/net/MessageValidator.h"
#include "core/net/ProtocolViolation.h"
#include "tests/common/TestFiles.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <limits>
#include <set>

using namespace sahaj::net;
namespace wire = sahaj::wire;
using sahaj::test::errorOf;

namespace {

const std::string kPeerA(32, 'a');
const std::string kPeerB(32, 'b');
const std::string kGroup(16, 'g');

zmq::message_t frameOf(std::size_t bytes) {
    zmq::message_t frame(bytes);
    std::fill_n(static_cast<char*>(frame.data()), bytes, '\x01');
    return frame;
}

wire::Envelope tensorPart(std::uint32_t count, wire::WireDtype dtype, std::uint32_t block = 0) {
    wire::Envelope envelope;
    wire::TensorPart* part = envelope.mutable_tensor_part();
    part->set_group_id(kGroup);
    part->set_epoch(7);
    part->set_span(1);
    part->set_part(2);
    part->set_offset(1000);
    part->set_count(count);
    part->mutable_encoding()->set_dtype(dtype);
    part->mutable_encoding()->set_block(block);
    part->set_weight(32.0);
    return envelope;
}

wire::MemberInfo member(const std::string& id, wire::Role role, const std::string& endpoint) {
    wire::MemberInfo m;
    m.set_peer_id(id);
    m.set_role(role);
    m.set_endpoint(endpoint);
    m.set_bandwidth(1e6);
    m.set_weight(role == wire::ROLE_AUXILIARY ? 0.0 : 16.0);
    return m;
}

} // namespace

class TestMessageCodec : public QObject {
    Q_OBJECT

    MessageCodec a_{"demo", kPeerA};
    MessageCodec b_{"demo", kPeerB};
    std::vector<zmq::message_t> frames_;

    // Encodes with peer A, decodes with peer B; returns the violation message, empty when accepted.
    QString rejection(wire::Envelope envelope, std::vector<zmq::message_t> data = {}) {
        std::vector<zmq::message_t> frames = a_.encode(std::move(envelope), std::move(data));
        return errorOf([&] { b_.decode(std::move(frames)); });
    }

    // The same, with one 10-byte data frame after the envelope.
    QString rejectionWithAFrame(wire::Envelope envelope) {
        std::vector<zmq::message_t> data;
        data.push_back(frameOf(10));
        return rejection(std::move(envelope), std::move(data));
    }

private Q_SLOTS:
    void roundTrip() {
        std::vector<zmq::message_t> data;
        data.push_back(frameOf(2 * 300));
        std::vector<zmq::message_t> frames = a_.encode(tensorPart(300, wire::WIRE_FLOAT16), std::move(data));
        QCOMPARE(frames.size(), std::size_t(2));
        const WireMessage message = b_.decode(std::move(frames));
        QCOMPARE(message.envelope.version(), 1u);
        QCOMPARE(message.envelope.run_id(), std::string("demo"));
        QCOMPARE(message.envelope.sender(), kPeerA);
        QVERIFY(message.envelope.timestamp_ms() > 0);
        QCOMPARE(message.envelope.tensor_part().count(), 300u);
        QCOMPARE(message.envelope.tensor_part().weight(), 32.0);
        QCOMPARE(message.data.size(), std::size_t(1));
        QCOMPARE(message.data.front().size(), std::size_t(600));
    }

    void encodedSizes() {
        wire::Encoding e;
        e.set_dtype(wire::WIRE_FLOAT32);
        QCOMPARE(MessageValidator::encodedBytes(e, 10), std::uint64_t(40));
        e.set_dtype(wire::WIRE_FLOAT16);
        QCOMPARE(MessageValidator::encodedBytes(e, 10), std::uint64_t(20));
        e.set_dtype(wire::WIRE_UINT8_BLOCKWISE);
        e.set_block(4); // 10 values in 3 blocks: 10 bytes + 3 × (scale, offset) of 8 bytes
        QCOMPARE(MessageValidator::encodedBytes(e, 10), std::uint64_t(34));
        e.set_block(0);
        QVERIFY(errorOf([&] { MessageValidator::encodedBytes(e, 10); }).contains("block"));
    }

    void authenticatedDecoding() {
        // Under CURVE: a timestamp outside the replay window, or a banned sender, is refused; the same
        // messages pass a codec that does not authenticate (a run that admits anyone).
        MessageCodec secure("demo", kPeerB);
        std::set<std::string> banned;
        secure.authenticateSenders([&banned](const std::string& peer) { return banned.count(peer) > 0; });
        const auto withTimestamp = [&](std::int64_t offsetMs) {
            wire::Envelope ping;
            ping.mutable_ping();
            std::vector<zmq::message_t> frames = a_.encode(ping);
            wire::Envelope envelope;
            QVERIFY(envelope.ParseFromArray(frames[0].data(), static_cast<int>(frames[0].size())));
            envelope.set_timestamp_ms(
                static_cast<std::uint64_t>(static_cast<std::int64_t>(envelope.timestamp_ms()) + offsetMs));
            frames[0] = zmq::message_t(envelope.SerializeAsString());
            frames_ = std::move(frames);
        };
        const auto secureError = [&](std::int64_t offsetMs) {
            withTimestamp(offsetMs);
            return errorOf([&] { secure.decode(std::move(frames_)); });
        };
        QCOMPARE(secureError(0), QString());
        QCOMPARE(secureError(-110000), QString());
        QVERIFY(secureError(-130000).contains("more than 120 s from this peer's clock"));
        QVERIFY(secureError(+130000).contains("more than 120 s from this peer's clock"));
        // A clock that is off is told apart from other violations (it is not held against the sender),
        // with the sender's offset.
        withTimestamp(+130000);
        try {
            secure.decode(std::move(frames_));
            QFAIL("a message from 130 s ahead was accepted");
        } catch (const ClockSkew& skew) {
            QVERIFY(std::abs(skew.skewMs() - 130000) < 5000);
            QVERIFY(QString::fromStdString(skew.what()).contains("s: one of the two clocks is off)"));
        }
        withTimestamp(-600000);
        QCOMPARE(errorOf([&] { b_.decode(std::move(frames_)); }), QString());
        banned.insert(kPeerA);
        QVERIFY(secureError(0).contains("banned"));
    }

    void envelopeViolations() {
        QVERIFY(errorOf([&] { b_.decode({}); }).contains("1 to 2 frames"));
        std::vector<zmq::message_t> garbage;
        garbage.push_back(zmq::message_t(std::string("\xff\xff\xff\xff not protobuf")));
        QVERIFY(errorOf([&] { b_.decode(std::move(garbage)); }).contains("not a valid protobuf"));

        // Another run, another version, a short sender id: each is named.
        MessageCodec other("other-run", kPeerA);
        wire::Envelope ping;
        ping.mutable_ping();
        QVERIFY(errorOf([&] { b_.decode(other.encode(ping)); }).contains("another run"));
        // The run id is the sender's text: what reaches a log line has no line break or terminal escape
        // (a forged second log line before, "\n... banned peer <an honest id>").
        MessageCodec forger("x\nbanned peer 00ff\x1b[2K", kPeerA);
        const QString forged = errorOf([&] { b_.decode(forger.encode(ping)); });
        QVERIFY(forged.contains("another run"));
        QVERIFY2(!forged.contains('\n') && !forged.contains(QChar(0x1b)), qPrintable(forged));
        std::vector<zmq::message_t> frames = a_.encode(ping);
        wire::Envelope edited;
        edited.ParseFromArray(frames[0].data(), int(frames[0].size()));
        edited.set_version(9);
        std::string bytes = edited.SerializeAsString();
        std::vector<zmq::message_t> versioned;
        versioned.emplace_back(bytes.data(), bytes.size());
        QVERIFY(errorOf([&] { b_.decode(std::move(versioned)); }).contains("version 9"));
        edited.set_version(1);
        edited.set_sender("short");
        bytes = edited.SerializeAsString();
        std::vector<zmq::message_t> shortSender;
        shortSender.emplace_back(bytes.data(), bytes.size());
        QVERIFY(
            errorOf([&] { b_.decode(std::move(shortSender)); }).contains("sender must be a 32-byte peer id"));

        wire::Envelope empty;
        QVERIFY(rejection(empty).contains("no known body"));
        // Three frames: more than any body takes.
        std::vector<zmq::message_t> extra;
        extra.push_back(frameOf(4));
        extra.push_back(frameOf(4));
        QVERIFY(rejection(ping, std::move(extra)).contains("1 to 2 frames"));
    }

    void partViolations() {
        const auto withData = [](std::size_t bytes) {
            std::vector<zmq::message_t> data;
            data.push_back(frameOf(bytes));
            return data;
        };
        QCOMPARE(rejection(tensorPart(300, wire::WIRE_FLOAT16), withData(600)), QString());
        QVERIFY(rejection(tensorPart(300, wire::WIRE_FLOAT16), withData(599)).contains("600 expected"));
        QVERIFY(rejection(tensorPart(300, wire::WIRE_FLOAT16)).contains("takes 1 data frame"));
        QVERIFY(rejection(tensorPart(0, wire::WIRE_FLOAT16), withData(0)).contains("count must be in"));
        QVERIFY(rejection(tensorPart(300, wire::WIRE_DTYPE_UNSPECIFIED), withData(600)).contains("dtype"));
        QCOMPARE(rejection(tensorPart(300, wire::WIRE_UINT8_BLOCKWISE, 64), withData(300 + 8 * 5)),
                 QString());

        wire::Envelope nan = tensorPart(2, wire::WIRE_FLOAT32);
        nan.mutable_tensor_part()->set_weight(std::nan(""));
        QVERIFY(rejection(nan, withData(8)).contains("weight must be a finite"));
        wire::Envelope negative = tensorPart(2, wire::WIRE_FLOAT32);
        negative.mutable_tensor_part()->set_weight(-1.0);
        QVERIFY(rejection(negative, withData(8)).contains("non-negative"));
        wire::Envelope badGroup = tensorPart(2, wire::WIRE_FLOAT32);
        badGroup.mutable_tensor_part()->set_group_id("xyz");
        QVERIFY(rejection(badGroup, withData(8)).contains("group_id must be 16 bytes"));
    }

    void groupBeginViolations() {
        const auto begin = [](const std::function<void(wire::GroupBegin&)>& edit) {
            wire::Envelope envelope;
            wire::GroupBegin* m = envelope.mutable_group_begin();
            m->set_group_id(kGroup);
            m->set_epoch(3);
            *m->add_members() = member(kPeerA, wire::ROLE_NODE, "tcp://127.0.0.1:4000");
            *m->add_members() = member(kPeerB, wire::ROLE_CLIENT, "");
            *m->add_members() = member(std::string(32, 'c'), wire::ROLE_AUXILIARY, "tcp://[::1]:4001");
            m->add_span_counts(70);
            m->add_span_counts(0);
            m->add_span_counts(30);
            m->set_vector_size(100);
            m->set_part_elements(262144);
            m->mutable_encoding()->set_dtype(wire::WIRE_FLOAT16);
            edit(*m);
            return envelope;
        };
        QCOMPARE(rejection(begin([](auto&) {})), QString());
        QVERIFY(rejection(begin([](auto& m) { m.set_vector_size(101); })).contains("do not add up"));
        QVERIFY(rejection(begin([](auto& m) {
                    m.set_span_counts(1, 10);
                    m.set_span_counts(0, 60);
                })).contains("span to a client"));
        QVERIFY(
            rejection(begin([](auto& m) { m.mutable_members(1)->set_peer_id(kPeerA); })).contains("twice"));
        QVERIFY(rejection(begin([](auto& m) {
                    m.mutable_members(0)->set_endpoint("ipc:///tmp/x");
                })).contains("tcp://host:port"));
        QVERIFY(rejection(begin([](auto& m) {
                    m.mutable_members(0)->set_endpoint("tcp://127.0.0.1:70000");
                })).contains("port"));
        QVERIFY(rejection(begin([](auto& m) {
                    m.mutable_members(1)->set_endpoint("tcp://127.0.0.1:5");
                })).contains("a client has no endpoint"));
        QVERIFY(
            rejection(begin([](auto& m) { m.mutable_members(2)->set_weight(5.0); })).contains("auxiliary"));
        QVERIFY(rejection(begin([](auto& m) {
                    m.mutable_members(0)->set_bandwidth(std::numeric_limits<double>::infinity());
                })).contains("bandwidth"));
        // A denormal bandwidth would make every leader's load balancer divide by it; an absurd one would
        // claim the whole round. 0 means unknown.
        QCOMPARE(rejection(begin([](auto& m) { m.mutable_members(0)->set_bandwidth(0.0); })), QString());
        QVERIFY(rejection(begin([](auto& m) {
                    m.mutable_members(0)->set_bandwidth(1e-310);
                })).contains("bandwidth must be 0 (unknown) or between 1 and 1e12"));
        QVERIFY(rejection(begin([](auto& m) {
                    m.mutable_members(0)->set_bandwidth(1e13);
                })).contains("bandwidth must be 0 (unknown) or between 1 and 1e12"));
        QVERIFY(rejection(begin([](auto& m) { m.clear_span_counts(); })).contains("one entry per member"));
        QVERIFY(rejection(begin([](auto& m) { m.set_part_elements(0); })).contains("part_elements"));
    }

    void otherBodies() {
        wire::Envelope join;
        join.mutable_join_request()->set_epoch(4);
        join.mutable_join_request()->set_schema_hash(std::string(32, 's'));
        *join.mutable_join_request()->mutable_member() =
            member(kPeerA, wire::ROLE_NODE, "tcp://10.0.0.1:4000");
        QCOMPARE(rejection(join), QString());
        // The member a request describes must be its sender: no joining on someone else's behalf.
        *join.mutable_join_request()->mutable_member() =
            member(kPeerB, wire::ROLE_NODE, "tcp://10.0.0.1:4000");
        QVERIFY(rejection(join).contains("not the sender"));
        // A denormal bandwidth in a request would reach the leader's load balancer (1/1e-310 = inf): no
        // group would ever form around that leader.
        *join.mutable_join_request()->mutable_member() =
            member(kPeerA, wire::ROLE_NODE, "tcp://10.0.0.1:4000");
        join.mutable_join_request()->mutable_member()->set_bandwidth(1e-310);
        QVERIFY(rejection(join).contains(
            "join_request.member.bandwidth must be 0 (unknown) or between 1 and 1e12"));

        wire::Envelope reply;
        reply.mutable_join_reply()->set_code(wire::JoinReply::REDIRECT);
        QVERIFY(rejection(reply).contains("suggested_leader"));
        reply.mutable_join_reply()->set_suggested_leader(kPeerB);
        reply.mutable_join_reply()->set_suggested_endpoint("tcp://host.example:4000");
        QCOMPARE(rejection(reply), QString());

        wire::Envelope chunk;
        chunk.mutable_state_chunk()->set_chunk(2);
        chunk.mutable_state_chunk()->set_chunks(3);
        chunk.mutable_state_chunk()->set_snapshot_id(std::string(16, 'n'));
        QVERIFY(rejectionWithAFrame(chunk).contains("sha256"));
        chunk.mutable_state_chunk()->set_sha256(std::string(32, 'h'));
        QCOMPARE(rejectionWithAFrame(chunk), QString());

        wire::Envelope digest;
        digest.mutable_state_digest()->set_epoch(4);
        digest.mutable_state_digest()->set_size(100);
        digest.mutable_state_digest()->set_sha256(std::string(16, 'h')); // half a hash
        QVERIFY(rejection(digest).contains("state_digest.sha256"));
        digest.mutable_state_digest()->set_sha256(std::string(32, 'h'));
        QCOMPARE(rejection(digest), QString());
        digest.mutable_state_digest()->set_size(0);
        QVERIFY(rejection(digest).contains("state_digest.size"));
        digest.mutable_state_digest()->set_size(100);
        QVERIFY(!rejectionWithAFrame(digest).isEmpty()); // a digest carries no data
        wire::Envelope askDigest;
        askDigest.mutable_state_digest_request()->set_min_epoch(3);
        QCOMPARE(rejection(askDigest), QString());
        // A state request names the snapshot it reads by its id (16 bytes here), or none.
        wire::Envelope askChunk;
        askChunk.mutable_state_request()->set_chunk(1);
        QCOMPARE(rejection(askChunk), QString());
        askChunk.mutable_state_request()->set_snapshot_id(std::string(16, 'n'));
        QCOMPARE(rejection(askChunk), QString());
        askChunk.mutable_state_request()->set_snapshot_id(std::string(3, 'n'));
        QVERIFY(rejection(askChunk).contains("state_request.snapshot_id"));
        askChunk.mutable_state_request()->set_snapshot_id(std::string(65, 'n'));
        QVERIFY(rejection(askChunk).contains("state_request.snapshot_id"));

        wire::Envelope leave;
        leave.mutable_leave()->set_reason(std::string(5000, 'x'));
        QVERIFY(rejection(leave).contains("longer than"));

        wire::Envelope received;
        received.mutable_span_received()->set_group_id(std::string(16, 'g'));
        received.mutable_span_received()->set_span(1024); // no group has that many members
        QVERIFY(rejection(received).contains("span_received.span"));
        received.mutable_span_received()->set_span(3);
        QCOMPARE(rejection(received), QString());
        received.mutable_span_received()->set_group_id("short");
        QVERIFY(rejection(received).contains("group_id"));
        received.mutable_span_received()->set_group_id(std::string(16, 'g'));
        QVERIFY(!rejectionWithAFrame(received).isEmpty()); // a confirmation carries no data

        wire::Envelope connected;
        connected.mutable_member_connected()->set_group_id(std::string(16, 'g'));
        connected.mutable_member_connected()->set_epoch(7);
        QCOMPARE(rejection(connected), QString());
        connected.mutable_member_connected()->set_group_id("short");
        QVERIFY(rejection(connected).contains("member_connected.group_id"));
        connected.mutable_member_connected()->set_group_id(std::string(16, 'g'));
        QVERIFY(!rejectionWithAFrame(connected).isEmpty()); // a notice carries no data

        // Seals: every field of its size (their signatures and meaning are the round's to check).
        wire::SpanSeal seal;
        seal.set_group_id(std::string(16, 'g'));
        seal.set_epoch(7);
        seal.set_span(2);
        seal.set_aggregator(std::string(32, 'a'));
        seal.set_values_sha256(std::string(32, 'h'));
        seal.set_signature(std::string(64, 's'));
        wire::Envelope sealed;
        *sealed.mutable_span_seal() = seal;
        QCOMPARE(rejection(sealed), QString());
        QVERIFY(!rejectionWithAFrame(sealed).isEmpty());
        sealed.mutable_span_seal()->set_signature(std::string(63, 's'));
        QVERIFY(rejection(sealed).contains("span_seal.signature"));
        *sealed.mutable_span_seal() = seal;
        sealed.mutable_span_seal()->set_values_sha256(std::string(31, 'h'));
        QVERIFY(rejection(sealed).contains("span_seal.values_sha256"));
        *sealed.mutable_span_seal() = seal;
        sealed.mutable_span_seal()->set_aggregator(std::string(33, 'a'));
        QVERIFY(rejection(sealed).contains("span_seal.aggregator"));
        *sealed.mutable_span_seal() = seal;
        sealed.mutable_span_seal()->set_span(1024);
        QVERIFY(rejection(sealed).contains("span_seal.span"));

        wire::Envelope passed;
        passed.mutable_round_seals()->set_group_id(std::string(16, 'g'));
        *passed.mutable_round_seals()->add_seals() = seal;
        QCOMPARE(rejection(passed), QString());
        passed.mutable_round_seals()->mutable_seals(0)->set_group_id("short");
        QVERIFY(rejection(passed).contains("round_seals.seals[].group_id"));
        passed.mutable_round_seals()->mutable_seals(0)->set_group_id(std::string(16, 'g'));
        for (int i = 0; i < 1024; ++i)
            *passed.mutable_round_seals()->add_seals() = seal;
        QVERIFY(rejection(passed).contains("more seals than a group has spans"));

        // Counted weights: finite, -1 for none, one per member at most.
        *sealed.mutable_span_seal() = seal;
        sealed.mutable_span_seal()->add_counted_weights(-1.0);
        sealed.mutable_span_seal()->add_counted_weights(12.5);
        QCOMPARE(rejection(sealed), QString());
        sealed.mutable_span_seal()->add_counted_weights(-2.0);
        QVERIFY(rejection(sealed).contains("span_seal.counted_weights"));
        sealed.mutable_span_seal()->set_counted_weights(2, std::nan(""));
        QVERIFY(rejection(sealed).contains("span_seal.counted_weights"));
    }

    // Audited averages (docs/protocol.md): a part's signature is empty or 64 bytes; an audit request
    // carries no data; an audited part names its sender, carries a signed part and its values, and a count
    // of inputs a group can have.
    void auditMessagesAreChecked() {
        wire::TensorPart part;
        part.set_group_id(std::string(16, 'g'));
        part.set_epoch(7);
        part.set_span(1);
        part.set_count(4);
        *part.mutable_encoding() = wire::Encoding();
        part.mutable_encoding()->set_dtype(wire::WIRE_FLOAT32);
        part.set_weight(3.0);
        const auto values = [] {
            std::vector<zmq::message_t> data;
            data.push_back(frameOf(16));
            return data;
        };
        wire::Envelope sent;
        *sent.mutable_tensor_part() = part;
        QCOMPARE(rejection(sent, values()), QString());
        sent.mutable_tensor_part()->set_signature(std::string(64, 's'));
        QCOMPARE(rejection(sent, values()), QString());
        sent.mutable_tensor_part()->set_signature(std::string(65, 's'));
        QVERIFY(rejection(sent, values()).contains("tensor_part.signature"));

        wire::Envelope request;
        request.mutable_audit_request()->set_group_id(std::string(16, 'g'));
        request.mutable_audit_request()->set_span(3);
        QCOMPARE(rejection(request), QString());
        QVERIFY(!rejectionWithAFrame(request).isEmpty());
        request.mutable_audit_request()->set_span(1024);
        QVERIFY(rejection(request).contains("audit_request.span"));

        wire::Envelope shown;
        wire::AuditedPart* audited = shown.mutable_audited_part();
        audited->set_sender(std::string(32, 'b'));
        *audited->mutable_part() = part;
        audited->mutable_part()->set_signature(std::string(64, 's'));
        audited->set_inputs(4);
        QCOMPARE(rejection(shown, values()), QString());
        QVERIFY(!rejection(shown).isEmpty()); // no values
        audited->mutable_part()->clear_signature();
        QVERIFY(rejection(shown, values()).contains("audited_part.part.signature"));
        audited->mutable_part()->set_signature(std::string(64, 's'));
        audited->set_inputs(0);
        QVERIFY(rejection(shown, values()).contains("audited_part.inputs"));
        audited->set_inputs(4);
        audited->set_sender(std::string(31, 'b'));
        QVERIFY(rejection(shown, values()).contains("audited_part.sender"));
    }
};

QTEST_GUILESS_MAIN(TestMessageCodec)
#include "tst_message_codec.moc"
