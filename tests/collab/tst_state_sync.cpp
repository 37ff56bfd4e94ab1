// State sync pieces: a training state survives serialisation exactly; a snapshot of another run or with
// non-finite values is refused; chunks reassemble into the same bytes, and every inconsistency a donor
// could send (order, splicing, epoch, size, hash) is refused.
#include "core/array/SafeTensorsImage.h"
#include "core/collab/StateAssembler.h"
#include "core/collab/StateChunker.h"
#include "core/collab/StateSnapshot.h"
#include "core/net/ProtocolViolation.h"
#include "tests/common/TestFiles.h"

#include <QtTest>

#include <cstring>
#include <memory>

using namespace sahaj::collab;
namespace wire = sahaj::wire;
using sahaj::test::errorOf;

namespace {

using sahaj::array::HostArray;

HostArray ramp(std::vector<std::int64_t> shape, float scale) {
    std::vector<float> values(400);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = scale * (static_cast<float>(i % 13) - 6.0f) + 0.001f * static_cast<float>(i);
    return HostArray::ofFloats(std::move(shape), values.data());
}

TrainingState sampleState() {
    TrainingState state;
    state.epoch = 17;
    state.step = 16;
    state.parameters = {{"albert.embeddings.word_embeddings.weight", ramp({50, 8}, 0.1f)},
                        {"predictions.bias", ramp({50}, 0.2f)}};
    state.optimizer = {{"exp_avg.0", ramp({50, 8}, 0.3f)}, {"step.0", HostArray::ofInteger(16)}};
    return state;
}

std::string bytesOf(const zmq::message_t& frame) {
    return {static_cast<const char*>(frame.data()), frame.size()};
}

} // namespace

class TestStateSync : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void snapshotRoundTrip() {
        const TrainingState state = sampleState();
        const std::string bytes = StateSnapshot::serialize(state, "schema-A");
        const TrainingState back = StateSnapshot::deserialize(bytes, "schema-A", "from donor");
        QCOMPARE(back.epoch, std::uint64_t(17));
        QCOMPARE(back.step, std::int64_t(16));
        QCOMPARE(back.parameters.size(), std::size_t(2));
        QCOMPARE(back.optimizer.size(), std::size_t(2));
        QVERIFY(back.parameters == state.parameters);
        QVERIFY(back.optimizer == state.optimizer);
        QCOMPARE(back.optimizer.at("step.0").toInteger(), std::int64_t(16));

        QVERIFY(errorOf([&] {
                    StateSnapshot::deserialize(bytes, "schema-B", "from donor");
                }).contains("another run or model"));
        TrainingState broken = sampleState();
        const float nan = std::numeric_limits<float>::quiet_NaN();
        std::memcpy(broken.parameters.begin()->second.bytes.data(), &nan, sizeof(nan));
        QVERIFY(errorOf([&] {
                    StateSnapshot::deserialize(StateSnapshot::serialize(broken, "schema-A"), "schema-A", "x");
                }).contains("non-finite"));
        // A double beyond fp32's range would become infinity in the replica: refused as non-finite too.
        TrainingState huge = sampleState();
        HostArray wide;
        wide.type = sahaj::array::ElementType::F64;
        wide.shape = {1};
        const double big = 1e300;
        wide.bytes.assign(reinterpret_cast<const char*>(&big), sizeof(big));
        huge.optimizer["exp_avg_sq.0"] = wide;
        QVERIFY(errorOf([&] {
                    StateSnapshot::deserialize(StateSnapshot::serialize(huge, "schema-A"), "schema-A", "x");
                }).contains("tensor 'exp_avg_sq.0' holds non-finite"));
        // A plain safetensors image (a model file) is not a state snapshot.
        const std::string modelFile =
            sahaj::array::SafeTensorsImage::encode(state.parameters, {{"format", "pt"}});
        QVERIFY(errorOf([&] {
                    StateSnapshot::deserialize(modelFile, "schema-A", "x");
                }).contains("not a sahaj-state/1"));
        QVERIFY(errorOf([&] {
                    StateSnapshot::deserialize("garbage", "schema-A", "from donor");
                }).contains("from donor"));
    }

    void chunksReassemble() {
        const std::string bytes = StateSnapshot::serialize(sampleState(), "s");
        const StateChunker chunker(bytes, 17, 1000); // several chunks, the last one short
        QCOMPARE(chunker.chunks(), std::uint32_t((bytes.size() + 999) / 1000));
        QVERIFY(chunker.chunks() >= 3);
        StateAssembler assembler(/*minEpoch=*/17, /*maxBytes=*/1 << 20);
        for (std::uint32_t i = 0; i < chunker.chunks(); ++i) {
            const wire::StateChunk header = chunker.header(i);
            QCOMPARE(header.sha256().empty(), i + 1 < chunker.chunks()); // only the last carries the hash
            QCOMPARE(assembler.add(header, chunker.data(i)), i + 1 == chunker.chunks());
        }
        QVERIFY(assembler.complete());
        QVERIFY(assembler.take() == bytes);
    }

    // Admitted is not trusted (row 15 of docs/security.md's threats): a requester that never reads its
    // replies makes the donor queue one chunk per 100-byte request. Served chunks point into the shared
    // snapshot (no copy of 4 MiB per request) and keep it alive until ZeroMQ is done with them; before,
    // each reply was a copy.
    void servedChunksShareTheSnapshot() {
        const std::string bytes = StateSnapshot::serialize(sampleState(), "s");
        auto snapshot = std::make_shared<const StateChunker>(bytes, 17, 1000);
        const std::weak_ptr<const StateChunker> watch = snapshot;
        std::vector<zmq::message_t> frames;
        for (int i = 0; i < 3; ++i)
            frames.push_back(StateChunker::sharedData(snapshot, 1));
        for (const zmq::message_t& frame : frames) {
            QCOMPARE(static_cast<const void*>(frame.data()),
                     static_cast<const void*>(snapshot->bytes(1).data()));
            QCOMPARE(bytesOf(frame), std::string(snapshot->bytes(1)));
        }
        snapshot.reset(); // the server offered a newer one
        QVERIFY(!watch.expired());
        QCOMPARE(bytesOf(frames.back()), bytes.substr(1000, 1000));
        frames.clear();
        QVERIFY(watch.expired());
    }

    void inconsistentChunksAreRefused() {
        const std::string bytes = StateSnapshot::serialize(sampleState(), "s");
        const StateChunker chunker(bytes, 17, 1000);
        const StateChunker other(bytes + "x", 17, 1000); // another snapshot of the same epoch
        const auto feed =
            [&](StateAssembler& assembler,
                const std::function<void(std::uint32_t, wire::StateChunk&, std::string&)>& edit) {
                return errorOf([&] {
                    for (std::uint32_t i = 0; i < chunker.chunks(); ++i) {
                        wire::StateChunk header = chunker.header(i);
                        std::string data = bytesOf(chunker.data(i));
                        edit(i, header, data);
                        assembler.add(header, zmq::message_t(data.data(), data.size()));
                    }
                });
            };
        StateAssembler older(18, 1 << 20);
        QVERIFY(feed(older, [](auto, auto&, auto&) {}).contains("older than ours"));
        StateAssembler skipped(17, 1 << 20);
        QVERIFY(feed(skipped, [](auto i, auto& h, auto&) {
                    if (i == 1)
                        h.set_chunk(2);
                }).contains("where 1 was expected"));
        StateAssembler spliced(17, 1 << 20);
        QVERIFY(feed(spliced, [&](auto i, auto& h, auto&) {
                    if (i == 1)
                        h = other.header(1);
                }).contains("another snapshot"));
        StateAssembler flipped(17, 1 << 20);
        QVERIFY(feed(flipped, [](auto i, auto&, auto& d) {
                    if (i == 1)
                        d[10] ^= 1;
                }).contains("sha256 does not match"));
        StateAssembler small(17, 1500);
        QVERIFY(feed(small, [](auto, auto&, auto&) {}).contains("grows past 1500 bytes"));
        StateAssembler recount(17, 1 << 20);
        QVERIFY(feed(recount, [](auto i, auto& h, auto&) {
                    if (i == 1)
                        h.set_chunks(h.chunks() + 1);
                }).contains("another snapshot"));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, recount.take());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, StateChunker("", 1, 10));
    }
};

QTEST_GUILESS_MAIN(TestStateSync)
#include "tst_state_sync.moc"
