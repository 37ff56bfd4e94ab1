// Writes the seed corpus of the wire_message fuzz target: one valid message of each kind, encoded by
// MessageCodec::encode exactly as a peer sends it and laid out as WireFuzzInput frames.
// Usage: wire_seed_writer DIR (fuzz/corpus/wire_message); rerun when the protocol changes.
#include "core/net/MessageCodec.h"
#include "core/net/WireLimits.h"
#include "fuzz/WireFuzzInput.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

using sahaj::fuzz::WireFuzzInput;
using sahaj::net::MessageCodec;
namespace wire = sahaj::wire;

namespace {

const std::string kSender(sahaj::net::WireLimits::kPeerIdBytes, '\x11');
const std::string kOther(sahaj::net::WireLimits::kPeerIdBytes, '\x22');
const std::string kClient(sahaj::net::WireLimits::kPeerIdBytes, '\x33');
const std::string kGroupId(sahaj::net::WireLimits::kGroupIdBytes, '\x44');

void setMember(wire::MemberInfo* member, const std::string& peerId, wire::Role role, const char* endpoint,
               double weight) {
    member->set_peer_id(peerId);
    member->set_role(role);
    member->set_endpoint(endpoint);
    member->set_bandwidth(1.5e6);
    member->set_weight(weight);
    member->set_samples(static_cast<std::uint64_t>(weight));
}

zmq::message_t bytes(std::size_t size, char fill) {
    const std::string data(size, fill);
    return zmq::message_t(data.data(), data.size());
}

struct Seed {
    std::string name;
    wire::Envelope envelope;
    std::vector<zmq::message_t> data;
};

std::vector<Seed> seeds() {
    std::vector<Seed> out;
    const auto add = [&](const std::string& name) -> Seed& {
        out.push_back({name, {}, {}});
        out.back().envelope.set_request_id(7);
        return out.back();
    };
    {
        wire::JoinRequest* m = add("join_request").envelope.mutable_join_request();
        m->set_epoch(3);
        m->set_schema_hash(std::string(32, '\x55'));
        setMember(m->mutable_member(), kSender, wire::ROLE_NODE, "tcp://127.0.0.1:4601", 64);
        m->set_expiration_ms(1'700'000'000'000);
    }
    add("join_reply_accepted").envelope.mutable_join_reply()->set_code(wire::JoinReply::ACCEPTED);
    {
        wire::JoinReply* m = add("join_reply_redirect").envelope.mutable_join_reply();
        m->set_code(wire::JoinReply::REDIRECT);
        m->set_suggested_leader(kOther);
        m->set_suggested_endpoint("tcp://[::1]:4602");
    }
    {
        wire::GroupBegin* m = add("group_begin").envelope.mutable_group_begin();
        m->set_group_id(kGroupId);
        m->set_epoch(3);
        setMember(m->add_members(), kSender, wire::ROLE_NODE, "tcp://127.0.0.1:4601", 64);
        setMember(m->add_members(), kOther, wire::ROLE_AUXILIARY, "tcp://peer.example:4602", 0);
        setMember(m->add_members(), kClient, wire::ROLE_CLIENT, "", 32);
        m->add_span_counts(700);
        m->add_span_counts(300);
        m->add_span_counts(0);
        m->mutable_encoding()->set_dtype(wire::WIRE_FLOAT16);
        m->set_vector_size(1000);
        m->set_part_elements(256);
    }
    {
        Seed& seed = add("tensor_part");
        wire::TensorPart* m = seed.envelope.mutable_tensor_part();
        m->set_group_id(kGroupId);
        m->set_epoch(3);
        m->set_span(1);
        m->set_part(2);
        m->set_offset(1212);
        m->set_count(16);
        m->mutable_encoding()->set_dtype(wire::WIRE_FLOAT16);
        m->set_weight(64);
        seed.data.push_back(bytes(2 * 16, '\x3c'));
        // Audited averages: a signed part, shown to an auditor.
        Seed& shown = add("audited_part");
        wire::AuditedPart* audited = shown.envelope.mutable_audited_part();
        audited->set_sender(std::string(32, '\x0b'));
        *audited->mutable_part() = *m;
        audited->mutable_part()->set_signature(std::string(64, '\x52'));
        audited->set_inputs(3);
        shown.data.push_back(bytes(2 * 16, '\x3c'));
        wire::AuditRequest* request = add("audit_request").envelope.mutable_audit_request();
        request->set_group_id(kGroupId);
        request->set_epoch(3);
        request->set_span(1);
        request->set_part(2);
    }
    {
        Seed& seed = add("averaged_part");
        wire::AveragedPart* m = seed.envelope.mutable_averaged_part();
        m->set_group_id(kGroupId);
        m->set_epoch(3);
        m->set_count(20);
        m->mutable_encoding()->set_dtype(wire::WIRE_UINT8_BLOCKWISE);
        m->mutable_encoding()->set_block(8);
        m->set_total_weight(96);
        m->set_contributors(2);
        seed.data.push_back(bytes(20 + 8 * 3, '\x01')); // 20 values, 3 blocks of scale + offset
    }
    {
        wire::PartFailure* m = add("part_failure").envelope.mutable_part_failure();
        m->set_group_id(kGroupId);
        m->set_epoch(3);
        m->set_reason("deadline passed");
    }
    {
        wire::SpanReceived* m = add("span_received").envelope.mutable_span_received();
        m->set_group_id(kGroupId);
        m->set_epoch(3);
        m->set_span(1);
    }
    {
        wire::MemberConnected* m = add("member_connected").envelope.mutable_member_connected();
        m->set_group_id(kGroupId);
        m->set_epoch(3);
    }
    {
        wire::SpanSeal seal;
        seal.set_group_id(kGroupId);
        seal.set_epoch(3);
        seal.set_span(1);
        seal.set_aggregator(std::string(32, '\x0a'));
        seal.set_values_sha256(std::string(32, '\x5e'));
        seal.set_signature(std::string(64, '\x51'));
        seal.add_counted_weights(64.0);
        seal.add_counted_weights(-1.0);
        *add("span_seal").envelope.mutable_span_seal() = seal;
        wire::RoundSeals* passed = add("round_seals").envelope.mutable_round_seals();
        passed->set_group_id(kGroupId);
        passed->set_epoch(3);
        *passed->add_seals() = seal;
    }
    {
        // A leaver's failure: the members stop waiting for its parts too.
        wire::PartFailure* m = add("part_failure_left_group").envelope.mutable_part_failure();
        m->set_group_id(kGroupId);
        m->set_epoch(3);
        m->set_span(2);
        m->set_reason("left the group before its round");
        m->set_left_group(true);
    }
    add("state_request").envelope.mutable_state_request()->set_chunk(1);
    add("state_digest_request").envelope.mutable_state_digest_request()->set_min_epoch(4);
    {
        wire::StateDigest* m = add("state_digest").envelope.mutable_state_digest();
        m->set_epoch(4);
        m->set_sha256(std::string(32, '\x77'));
        m->set_size(1'234'567);
    }
    {
        Seed& seed = add("state_chunk");
        wire::StateChunk* m = seed.envelope.mutable_state_chunk();
        m->set_chunk(1);
        m->set_chunks(2);
        m->set_snapshot_id(std::string(16, '\x66'));
        m->set_sha256(std::string(32, '\x77'));
        seed.data.push_back(bytes(64, '\x08'));
    }
    add("ping").envelope.mutable_ping();
    add("leave").envelope.mutable_leave()->set_reason("shutting down");
    add("error").envelope.mutable_error()->set_message("not a member of this group");
    return out;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: wire_seed_writer DIR\n";
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    const MessageCodec codec(WireFuzzInput::kRunId, kSender);
    std::vector<Seed> all = seeds();
    for (Seed& seed : all) {
        const std::vector<zmq::message_t> frames =
            codec.encode(std::move(seed.envelope), std::move(seed.data));
        // Only messages the receiving side accepts make useful seeds.
        std::vector<zmq::message_t> copy;
        for (const zmq::message_t& frame : frames)
            copy.emplace_back(frame.data(), frame.size());
        codec.decode(std::move(copy));
        std::ofstream(dir / (seed.name + ".bin"), std::ios::binary) << WireFuzzInput::join(frames);
    }
    std::cout << "wrote " << all.size() << " seeds to " << dir.string() << "\n";
    return 0;
}
