// A downloaded state is checked donor by donor before anything is loaded (DownloadedState): a donor that
// serves a state of another layout under the run's schema (its snapshot's metadata is its own word) is
// named and nothing is loaded, where the median of the states threw without naming anyone, or the
// training thread refused the state without knowing whose it was. In milliseconds, on the tiny model's
// real state (ModelReplica::exportState, StateSnapshot).
#include "core/collab/StateSnapshot.h"
#include "core/engine/DownloadedState.h"
#include "core/engine/ModelReplica.h"
#include "core/engine/StateFit.h"
#include "core/model/AlbertConfig.h"
#include "core/run/TrainingSettings.h"

#include <QtTest>

#include <algorithm>
#include <limits>

using namespace sahaj;

namespace {

const std::string kSchema(64, 's');

std::string donorId(char c) {
    return std::string(32, c);
}

} // namespace

class TestDownloadedState : public QObject {
    Q_OBJECT

    std::unique_ptr<engine::ModelReplica> replica_;

    collab::TrainingState honest() const { return replica_->exportState(); }

    // The honest state with one parameter renamed, reshaped, missing or non-finite, or its optimiser's
    // state short of an array, with a negative second moment or a negative step.
    collab::TrainingState altered(const QString& change) const {
        collab::TrainingState liar = honest();
        auto first = liar.parameters.begin();
        if (change == "renamed") {
            array::HostArray moved = first->second;
            const std::string renamed = first->first + ".renamed";
            liar.parameters.erase(first);
            liar.parameters.emplace(renamed, std::move(moved));
        } else if (change == "reshaped") {
            first->second.shape = {1, first->second.elements()}; // the same values, another shape
        } else if (change == "extra") {
            liar.parameters["albert.extra.weight"] = first->second;
        } else if (change == "non-finite") {
            const std::vector<float> values(static_cast<std::size_t>(first->second.elements()),
                                            std::numeric_limits<float>::infinity());
            first->second = array::HostArray::ofFloats(first->second.shape, values.data());
        } else if (change == "negative-moments" || change == "negative-step") {
            const bool moments = change == "negative-moments";
            const std::string suffix = moments ? ".exp_avg_sq" : ".step";
            auto it = std::find_if(liar.optimizer.begin(), liar.optimizer.end(), [&](const auto& entry) {
                return entry.first.size() > suffix.size() && entry.first.ends_with(suffix);
            });
            if (moments) {
                std::vector<float> values(static_cast<std::size_t>(it->second.elements()), 0.0f);
                values.back() = -1.0f;
                it->second = array::HostArray::ofFloats(it->second.shape, values.data());
            } else {
                it->second = array::HostArray::ofInteger(-1);
            }
        } else {
            liar.optimizer.erase(liar.optimizer.begin());
        }
        return liar;
    }

    // A download of these states, one donor each ('a', 'b', ...).
    static collab::StateDownload downloadOf(const std::vector<collab::TrainingState>& states) {
        collab::StateDownload download;
        download.epoch = states.front().epoch;
        char id = 'a';
        for (const collab::TrainingState& state : states) {
            download.snapshots.push_back(collab::StateSnapshot::serialize(state, kSchema));
            download.donors.emplace_back(32, id++); // donorId(id)
        }
        return download;
    }

    engine::DownloadedState accept(const std::vector<collab::TrainingState>& states) const {
        collab::StateDownload download = downloadOf(states);
        return engine::DownloadedState::from(download, kSchema, replica_->stateFit().get());
    }

    // The one failure names donor `c` (its whole id, which DonorHistory marks) and says `what`.
    static void verifyOnlyFailure(const engine::DownloadedState& result, char c, const QString& what) {
        QVERIFY(!result.state);
        QCOMPARE(result.failures.size(), std::size_t(1));
        QCOMPARE(result.failures.front().peerId, donorId(c));
        QVERIFY2(QString::fromStdString(result.failures.front().reason).contains(what),
                 result.failures.front().reason.c_str());
    }

private Q_SLOTS:
    void initTestCase() {
        replica_ = std::make_unique<engine::ModelReplica>(model::AlbertConfig::named("tiny"),
                                                          run::TrainingSettings{}, 7);
    }

    void theVouchedStateOrTheMedianIsLoaded() {
        const engine::DownloadedState one = accept({honest()});
        QVERIFY(one.failures.empty());
        QVERIFY(one.state);
        replica_->importState(*one.state, "the state");
        const engine::DownloadedState three = accept({honest(), honest(), honest()});
        QVERIFY(three.state);
        QCOMPARE(three.state->parameters.size(), honest().parameters.size());
        QCOMPARE(QString::fromStdString(three.donors).count(','), 2);
    }

    // The liar's state holds the right schema hash in its metadata, and one parameter renamed, reshaped,
    // missing or non-finite. Without the check against the model, the median threw "the states differ"
    // (naming nobody) or a single vouched state went to the training thread, which refused it.
    void aDonorWithAStateOfAnotherLayoutIsNamed_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("reason");
        QTest::newRow("renamed") << "renamed"
                                 << "lacks parameter";
        QTest::newRow("reshaped") << "reshaped"
                                  << "another shape";
        QTest::newRow("extra") << "extra"
                               << "parameters this model does not";
        QTest::newRow("non-finite") << "non-finite"
                                    << "non-finite";
        QTest::newRow("moments") << "moments"
                                 << "optimizer state";
        QTest::newRow("negative-moments") << "negative-moments"
                                          << "negative second moments";
        QTest::newRow("negative-step") << "negative-step"
                                       << "negative step";
    }
    void aDonorWithAStateOfAnotherLayoutIsNamed() {
        QFETCH(QString, change);
        QFETCH(QString, reason);
        const collab::TrainingState liar = altered(change);
        // Alone (the state the donors vouched for) and among three (their median).
        verifyOnlyFailure(accept({liar}), 'a', reason);
        verifyOnlyFailure(accept({honest(), honest(), liar}), 'c', reason);
    }

    // A state only to be judged (each donor's) is checked without its flat copy (StateFit::validate), one
    // parameter at a time; it must refuse what the check that makes the copy (StateFit::check, the one the
    // training thread loads through) refuses, with the same words, and pass what it passes.
    void judgingAStateRefusesWhatLoadingItRefuses_data() { aDonorWithAStateOfAnotherLayoutIsNamed_data(); }
    void judgingAStateRefusesWhatLoadingItRefuses() {
        QFETCH(QString, change);
        const std::shared_ptr<const engine::StateFit> fit = replica_->stateFit();
        const collab::TrainingState state = altered(change);
        QString loading;
        QString judging;
        try {
            fit->check(state, "the state");
        } catch (const std::runtime_error& e) {
            loading = QString::fromUtf8(e.what());
        }
        try {
            fit->validate(state, "the state");
        } catch (const std::runtime_error& e) {
            judging = QString::fromUtf8(e.what());
        }
        QVERIFY(!loading.isEmpty());
        QCOMPARE(judging, loading);
        fit->validate(honest(), "the state"); // no throw
        const engine::StateFit::Flat flat = fit->check(honest(), "the state");
        QCOMPARE(flat.parameters.size(), flat.optimizer.firstMoments.size());
        QVERIFY(std::all_of(flat.optimizer.steps.begin(), flat.optimizer.steps.end(),
                            [](std::int64_t step) { return step >= 0; }));
    }

    void aSnapshotThatDoesNotDecodeIsItsDonorsFailure() {
        collab::StateDownload download = downloadOf({honest(), honest()});
        download.snapshots[1] = "not a snapshot";
        verifyOnlyFailure(engine::DownloadedState::from(download, kSchema, replica_->stateFit().get()), 'b',
                          "the state from");
        collab::StateDownload otherRun = downloadOf({honest()});
        verifyOnlyFailure(engine::DownloadedState::from(otherRun, std::string(64, 'x'), nullptr), 'a',
                          "the state from");
    }
};

QTEST_GUILESS_MAIN(TestDownloadedState)
#include "tst_downloaded_state.moc"
