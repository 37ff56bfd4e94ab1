#include "app/volunteer/DemoOutcome.h"

#include "ui/format/Figures.h"

namespace sahaj::volunteer {

namespace {

QString shown(const DemoFillMaskRun::Prediction& prediction) {
    if (!prediction.problem.isEmpty())
        return DemoOutcome::tr("no prediction (%1)").arg(prediction.problem);
    return QStringLiteral("«%1»").arg(prediction.guesses);
}

} // namespace

QStringList DemoOutcome::lines(const engine::EngineSnapshot& snapshot, const QString& sentence,
                               const DemoFillMaskRun::Prediction& before,
                               const DemoFillMaskRun::Prediction& after) {
    const QString steps = ui::Figures::count(static_cast<double>(snapshot.globalEpoch));
    QStringList lines{snapshot.loss.empty()
                          ? tr("The demo finished: %1 steps.").arg(steps)
                          : tr("The demo finished: %1 steps, loss %2 → %3.")
                                .arg(steps, ui::Figures::decimal(snapshot.loss.front().loss, 2),
                                     ui::Figures::decimal(snapshot.loss.back().loss, 2))};
    if (!sentence.isEmpty())
        lines << tr("Fill-mask \"%1\" — before training: %2; after: %3.")
                     .arg(sentence, shown(before), shown(after));
    return lines;
}

} // namespace sahaj::volunteer
