// The engine-core channel on a real socket pair: frames and descriptors arrive whole and in order, waits
// end at their deadline, a closed side is told from a slow one, and malformed frames, unsealed or mis-sized
// shared memory and batches outside the model's ranges are refused with a reason.
#include "core/compute/CoreChannel.h"
#include "core/compute/SharedFloats.h"
#include "core/compute/TokenBatchMessage.h"

#include <QTest>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

using namespace sahaj::compute;
namespace corechannel = sahaj::corechannel;
using namespace std::chrono_literals;

namespace {

struct Pair {
    Pair() {
        auto [a, b] = CoreChannel::socketPair();
        engine.emplace(std::move(a));
        rawCore = b.get();
        core.emplace(std::move(b));
    }
    std::optional<CoreChannel> engine;
    std::optional<CoreChannel> core;
    int rawCore = -1;
};

TokenBatch smallBatch() {
    TokenBatch batch = TokenBatch::padded(2, 3, 0);
    batch.inputIds = {5, 6, 7, 8, 9, 0};
    batch.attentionMask = {1, 1, 1, 1, 1, 0};
    batch.tokenTypeIds = {0, 0, 1, 0, 1, 0};
    batch.mlmLabels = {-100, 11, -100, -100, -100, -100};
    batch.sopLabels = {0, 1};
    return batch;
}

TokenBatchMessage::Limits limits() {
    TokenBatchMessage::Limits limits;
    limits.vocabulary = 100;
    limits.maxWidth = 16;
    return limits;
}

void writeRaw(int fd, const std::string& bytes) {
    QCOMPARE(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
}

} // namespace

class TestCoreChannel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void framesAndDescriptorsArriveInOrder() {
        Pair pair;
        SharedFloats shared = SharedFloats::create("test", 1000);
        shared.values()[999] = 2.5f;
        corechannel::CoreMessage hello;
        hello.mutable_hello()->set_protocol(1);
        hello.mutable_hello()->set_model_config_json(std::string(300000, 'x')); // larger than one read
        // A frame larger than the socket's buffers: sent from a thread while this one reads.
        std::thread sender([&] {
            const int descriptors[] = {shared.fd()};
            pair.engine->send(hello, descriptors);
            corechannel::CoreMessage heartbeat;
            heartbeat.mutable_heartbeat()->set_sequence(7);
            pair.engine->send(heartbeat);
        });

        std::optional<CoreChannel::Received> first = pair.core->receive(5s);
        std::optional<CoreChannel::Received> second = pair.core->receive(5s);
        sender.join();
        QVERIFY(first);
        QCOMPARE(first->message.hello().model_config_json().size(), std::size_t{300000});
        QCOMPARE(first->descriptors.size(), std::size_t{1});
        SharedFloats adopted = SharedFloats::adopt(std::move(first->descriptors[0]), 1000);
        QCOMPARE(adopted.values()[999], 2.5f);
        adopted.values()[0] = -1.0f; // shared both ways
        QCOMPARE(shared.values()[0], -1.0f);
        QVERIFY(second);
        QCOMPARE(second->message.heartbeat().sequence(), std::uint64_t{7});
        QVERIFY(second->descriptors.empty());
    }

    void waitsEndAtTheirDeadline() {
        Pair pair;
        const auto began = std::chrono::steady_clock::now();
        QVERIFY(!pair.core->receive(200ms));
        QVERIFY(std::chrono::steady_clock::now() - began >= 200ms);
        // Half a frame is still nothing.
        writeRaw(pair.engine->fd(), std::string("\x10\x00\x00\x00\x0a", 5));
        QVERIFY(!pair.core->receive(100ms));
    }

    void aClosedSideIsToldFromASlowOne() {
        Pair pair;
        pair.engine.reset();
        QVERIFY_THROWS_EXCEPTION(ChannelClosed, pair.core->receive(1s));
        corechannel::CoreMessage message;
        message.mutable_heartbeat()->set_sequence(1);
        QVERIFY_THROWS_EXCEPTION(ChannelClosed, pair.core->send(message));
    }

    void aSenderThatStopsReadingMissesTheSendDeadline() {
        Pair pair;
        corechannel::CoreMessage big;
        big.mutable_hello()->set_model_config_json(std::string(8u << 20, 'y')); // beyond the socket's buffers
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, pair.engine->send(big, {}, 300ms));
    }

    void malformedFramesAreRefused() {
        {
            Pair pair; // a length beyond the limit: refused before anything is allocated
            writeRaw(pair.engine->fd(), std::string("\xff\xff\xff\x7f", 4));
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, pair.core->receive(1s));
        }
        {
            Pair pair; // bytes that are no CoreMessage
            writeRaw(pair.engine->fd(), std::string("\x03\x00\x00\x00\xff\xff\xff", 7));
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, pair.core->receive(1s));
        }
    }

    void sharedMemoryMustBeSealedAndSized() {
        SharedFloats shared = SharedFloats::create("sized", 10);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, SharedFloats::adopt(UniqueFd(::dup(shared.fd())), 11));
        QCOMPARE(SharedFloats::adopt(UniqueFd(::dup(shared.fd())), 10).size(), std::size_t{10});
        // Sealed: the other side cannot shrink it under the creator.
        QVERIFY(::ftruncate(shared.fd(), 4) != 0);
        UniqueFd unsealed(::memfd_create("unsealed", MFD_CLOEXEC));
        QVERIFY(::ftruncate(unsealed.get(), 40) == 0);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, SharedFloats::adopt(std::move(unsealed), 10));
    }

    void batchesRoundTripAndAreChecked() {
        corechannel::TokenBatch message;
        TokenBatchMessage::encode(smallBatch(), message);
        QVERIFY(TokenBatchMessage::decode(message, limits()) == smallBatch());

        const auto refused = [&](auto change) {
            corechannel::TokenBatch bad = message;
            change(bad);
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TokenBatchMessage::decode(bad, limits()));
        };
        refused([](auto& m) { m.set_rows(0); });
        refused([](auto& m) { m.set_width(17); });
        refused([](auto& m) { m.set_rows(3); });           // sizes no longer rows x width
        refused([](auto& m) { m.set_input_ids(0, 100); }); // outside the vocabulary
        refused([](auto& m) { m.set_input_ids(0, -1); });
        refused([](auto& m) { m.set_attention_mask(1, 2); });
        refused([](auto& m) { m.set_token_type_ids(1, 2); });
        refused([](auto& m) { m.set_mlm_labels(0, -5); });
        refused([](auto& m) { m.set_sop_labels(1, 2); });
        refused([](auto& m) { m.add_sop_labels(0); });
    }
};

QTEST_GUILESS_MAIN(TestCoreChannel)
#include "tst_core_channel.moc"
