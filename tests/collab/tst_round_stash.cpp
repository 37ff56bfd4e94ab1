// RoundStash: the early messages of rounds not begun yet, bounded in bytes overall and per sender, and by
// epoch, so that a flooding member cannot crowd out the honest members' early parts.
#include "core/collab/RoundStash.h"
#include "core/net/protocol.pb.h"

#include <QTest>

#include <set>
#include <string>

using namespace sahaj;
using collab::RoundStash;

namespace {

// A tensor part from `sender` for `group` at `epoch`, with a data frame of `bytes`.
net::WireMessage part(char sender, char group, std::uint64_t epoch, std::size_t bytes) {
    net::WireMessage message;
    message.envelope.set_sender(std::string(32, sender));
    wire::TensorPart* tensor = message.envelope.mutable_tensor_part();
    tensor->set_group_id(std::string(16, group));
    tensor->set_epoch(epoch);
    message.data.emplace_back(bytes);
    return message;
}

} // namespace

class TestRoundStash : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keepsTheEpochsThisPeerCanStillAverageIn() {
        RoundStash stash;
        QVERIFY(stash.add(part('a', 'G', 5, 10), 5));
        QVERIFY(stash.add(part('a', 'H', 6, 10), 5));  // the next epoch: this peer may get there first
        QVERIFY(!stash.add(part('a', 'I', 7, 10), 5)); // further ahead: made up
        QVERIFY(!stash.add(part('a', 'J', 4, 10), 5)); // behind: no round to go to
        QVERIFY(!stash.add(part('a', 'K', ~std::uint64_t{0}, 10), 5));
        net::WireMessage ping;
        ping.envelope.set_sender(std::string(32, 'a'));
        ping.envelope.mutable_ping();
        QVERIFY(!stash.add(std::move(ping), 5)); // not a round message
        QCOMPARE(stash.size(), std::size_t{2});
        QCOMPARE(stash.dropped(), std::uint64_t{4});
        QCOMPARE(stash.added(), std::uint64_t{2});

        QVERIFY(stash.add(part('b', 'G', 5, 10), 5));
        QVERIFY(stash.add(part('b', 'G', 5, 10), 5));
        QVERIFY(stash.add(part('c', 'G', 6, 10), 5));
        // Who began G's round at epoch 5 before this peer: a and b, once each (c's part is of epoch 6).
        QCOMPARE(stash.sendersOf(std::string(16, 'G'), 5),
                 (std::set<std::string>{std::string(32, 'a'), std::string(32, 'b')}));
        QVERIFY(stash.sendersOf(std::string(16, 'H'), 5).empty());
        QVERIFY(stash.take(std::string(16, 'G'), 6).size() == 4);
        QVERIFY(stash.add(part('a', 'G', 5, 10), 5));

        // The round of group G takes its part; H's stays for its round.
        const std::vector<net::WireMessage> taken = stash.take(std::string(16, 'G'), 5);
        QCOMPARE(taken.size(), std::size_t{1});
        QCOMPARE(taken.front().envelope.tensor_part().group_id(), std::string(16, 'G'));
        QCOMPARE(stash.size(), std::size_t{1});
        // A round of epoch 7 drops what is left of earlier epochs, H's included: it can never be used.
        QVERIFY(stash.take(std::string(16, 'X'), 7).empty());
        QCOMPARE(stash.size(), std::size_t{0});
        QCOMPARE(stash.bytes(), std::uint64_t{0});
    }

    // Admitted is not trusted (docs/security.md): one member floods the stash with parts for a group it
    // made up; it fills its own share, and an honest member's early part still finds room. Before the
    // stash was bounded per sender (4096 messages in all, whoever sent them), the flood of 4096 small
    // parts filled it and the honest part was dropped.
    void aFlooderFillsOnlyItsOwnShare() {
        RoundStash stash;
        const std::size_t piece = 1 << 20;
        int kept = 0;
        for (int i = 0; i < 100; ++i)
            kept += stash.add(part('x', 'F', 3, piece), 3) ? 1 : 0;
        QVERIFY(kept > 0);
        QVERIFY(stash.bytes() <= RoundStash::kMaxBytesPerSender);
        QCOMPARE(stash.dropped(), std::uint64_t(100 - kept));
        for (int i = 0; i < 5000; ++i)
            stash.add(part('x', 'F', 3, 0), 3);
        QVERIFY(stash.bytes() <= RoundStash::kMaxBytesPerSender);
        QVERIFY(stash.add(part('h', 'G', 3, piece), 3));
        QCOMPARE(stash.take(std::string(16, 'G'), 3).size(), std::size_t{1});
        // Taking frees the flooder's share for later rounds.
        QVERIFY(!stash.take(std::string(16, 'F'), 3).empty());
        QCOMPARE(stash.bytes(), std::uint64_t{0});
        QVERIFY(stash.add(part('x', 'F', 3, piece), 3));

        // Many senders together stop at the overall bound.
        RoundStash crowded;
        for (char sender = 'a'; sender < 'a' + 8; ++sender)
            for (int i = 0; i < 64; ++i)
                crowded.add(part(sender, 'F', 3, piece), 3);
        QVERIFY(crowded.bytes() <= RoundStash::kMaxBytes);
        QVERIFY(crowded.bytes() > RoundStash::kMaxBytes - RoundStash::kMaxBytesPerSender);
    }
};

QTEST_GUILESS_MAIN(TestRoundStash)
#include "tst_round_stash.moc"
