// The event log panel: the engine's events appear as rows, the level and text filters hide and show
// them, Copy (button or Ctrl+C) puts the selected rows shown, or all rows shown, on the clipboard as
// lines, Clear empties it, past kMaxRows the oldest rows go, and the view follows new rows unless the user
// scrolled up.
#include "tests/gui/support/PerTestLedgers.h"
#include "tests/gui/support/RecordingEngine.h"
#include "tests/gui/support/WidgetGrab.h"
#include "ui/StateText.h"
#include "ui/panels/EventLogPanel.h"

#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>
#include <QtTest>

using namespace sahaj::testing;
using Level = sahaj::engine::EngineEvent::Level;
using sahaj::engine::EngineEvent;
using sahaj::engine::PauseCause;
using sahaj::ui::EventLogPanel;
using sahaj::ui::StateText;

namespace {

const QString kUntouched = QStringLiteral("(clipboard untouched)");

void showLevel(EventLogPanel& panel, const QString& levelName) {
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("levelFilter"));
    QVERIFY(combo);
    const int index = combo->findData(levelName);
    QVERIFY2(index >= 0, qPrintable(levelName));
    combo->setCurrentIndex(index);
}

void showText(EventLogPanel& panel, const QString& text) {
    auto* edit = panel.findChild<QLineEdit*>(QStringLiteral("textFilter"));
    QVERIFY(edit);
    edit->setText(text);
}

QStringList textsShown(const EventLogPanel& panel) {
    QStringList texts;
    for (const QString& line : panel.visibleLines())
        texts << line.section(QLatin1Char('\t'), 2);
    return texts;
}

} // namespace

class TestEventLogPanel : public QObject {
    Q_OBJECT

    PerTestLedgers ledgers_;

    static void fill(RecordingEngine& engine) {
        engine.emitEvent(Level::Info, QStringLiteral("Joined run sahajbert-demo"));
        engine.emitEvent(Level::Warning, QStringLiteral("Round 12 fell back: peer b2 timed out"));
        engine.emitEvent(Level::Error, QStringLiteral("Token renewal failed: coordinator unreachable"));
        engine.emitEvent(Level::Milestone, QStringLiteral("100,000 samples contributed"));
        engine.emitEvent(Level::Info, QStringLiteral("A group of 3 peers formed"));
    }

private Q_SLOTS:
    void init() { QGuiApplication::clipboard()->setText(kUntouched); }

    void eventsAppear() {
        RecordingEngine engine(ledgers_.path());
        EventLogPanel panel(engine);
        QCOMPARE(panel.rowCount(), 0);
        fill(engine);
        QCOMPARE(panel.rowCount(), 5);
        const QStringList lines = panel.visibleLines();
        QCOMPARE(lines.size(), 5);
        // time, level, text
        const QStringList fields = lines[1].split(QLatin1Char('\t'));
        QCOMPARE(fields.size(), 3);
        QVERIFY2(QDateTime::fromString(fields[0], QStringLiteral("yyyy-MM-dd HH:mm:ss")).isValid(),
                 qPrintable(fields[0]));
        QCOMPARE(fields[1], EventLogPanel::tr("Warning"));
        QCOMPARE(fields[2], QStringLiteral("Round 12 fell back: peer b2 timed out"));
        QCOMPARE(textsShown(panel).last(), QStringLiteral("A group of 3 peers formed"));
    }

    // The lines are the engine's English: in Bengali their times keep Latin digits (they read "২০২৬-১২-০৫").
    void timesKeepTheLinesDigits() {
        QLocale::setDefault(QLocale(QLocale::Bengali, QLocale::Bangladesh));
        RecordingEngine engine(ledgers_.path());
        EventLogPanel panel(engine);
        fill(engine);
        const QString time = panel.visibleLines().at(0).split(QLatin1Char('\t')).at(0);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QVERIFY2(QDateTime::fromString(time, QStringLiteral("yyyy-MM-dd HH:mm:ss")).isValid(),
                 qPrintable(time));
    }

    void filtersHideAndShow() {
        RecordingEngine engine(ledgers_.path());
        EventLogPanel panel(engine);
        fill(engine);

        showLevel(panel, QStringLiteral("info"));
        QCOMPARE(textsShown(panel), (QStringList{QStringLiteral("Joined run sahajbert-demo"),
                                                 QStringLiteral("A group of 3 peers formed")}));
        showLevel(panel, QStringLiteral("error"));
        QCOMPARE(textsShown(panel),
                 QStringList{QStringLiteral("Token renewal failed: coordinator unreachable")});
        showLevel(panel, QStringLiteral("milestone"));
        QCOMPARE(panel.visibleLines().size(), 1);

        // Text: any case, any part of the text; combined with the level.
        showLevel(panel, QString());
        showText(panel, QStringLiteral("PEER"));
        QCOMPARE(textsShown(panel), (QStringList{QStringLiteral("Round 12 fell back: peer b2 timed out"),
                                                 QStringLiteral("A group of 3 peers formed")}));
        showLevel(panel, QStringLiteral("warning"));
        QCOMPARE(textsShown(panel), QStringList{QStringLiteral("Round 12 fell back: peer b2 timed out")});
        // Characters that mean something in a pattern are plain text here.
        showLevel(panel, QString());
        showText(panel, QStringLiteral("3 peers (formed"));
        QVERIFY(panel.visibleLines().isEmpty());
        showText(panel, QStringLiteral("100,000"));
        QCOMPARE(panel.visibleLines().size(), 1);
        showText(panel, QString());
        QCOMPARE(panel.visibleLines().size(), 5);

        // A new event obeys the filters in force.
        showLevel(panel, QStringLiteral("error"));
        engine.emitEvent(Level::Info, QStringLiteral("Left the run"));
        engine.emitEvent(Level::Error, QStringLiteral("Training failed: out of memory"));
        QCOMPARE(textsShown(panel),
                 (QStringList{QStringLiteral("Token renewal failed: coordinator unreachable"),
                              QStringLiteral("Training failed: out of memory")}));
        QCOMPARE(panel.rowCount(), 7);
    }

    void copyPutsLinesOnTheClipboard() {
        RecordingEngine engine(ledgers_.path());
        EventLogPanel panel(engine);
        fill(engine);
        auto* copyButton = panel.findChild<QPushButton*>(QStringLiteral("copyButton"));
        auto* table = panel.findChild<QTableView*>(QStringLiteral("eventTable"));
        QVERIFY(copyButton && table);
        QClipboard* clipboard = QGuiApplication::clipboard();

        // Nothing selected: every row shown.
        showText(panel, QStringLiteral("peer"));
        const QStringList shown = panel.visibleLines();
        QCOMPARE(shown.size(), 2);
        QTest::mouseClick(copyButton, Qt::LeftButton);
        QCOMPARE(clipboard->text(), shown.join(QLatin1Char('\n')));

        // Selected rows, in the order shown whatever the order of selection.
        showText(panel, QString());
        const QStringList all = panel.visibleLines();
        QItemSelectionModel* selection = table->selectionModel();
        selection->select(table->model()->index(3, 0),
                          QItemSelectionModel::Select | QItemSelectionModel::Rows);
        selection->select(table->model()->index(0, 0),
                          QItemSelectionModel::Select | QItemSelectionModel::Rows);
        clipboard->setText(kUntouched);
        QTest::mouseClick(copyButton, Qt::LeftButton);
        QCOMPARE(clipboard->text(), all[0] + QLatin1Char('\n') + all[3]);

        // Ctrl+C in the table copies the same whole rows, not one cell.
        clipboard->setText(kUntouched);
        table->setFocus();
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(clipboard->text(), all[0] + QLatin1Char('\n') + all[3]);
        QVERIFY(all[3].endsWith(QStringLiteral("\t100,000 samples contributed")));
    }

    void textStaysOnOneLine() {
        RecordingEngine engine(ledgers_.path());
        EventLogPanel panel(engine);
        engine.emitEvent(Level::Error, QStringLiteral("Joining failed:\nline two\r\n\tline three"));
        engine.emitEvent(Level::Warning, QString(EventLogPanel::kMaxTextLength + 500, QLatin1Char('x')));
        const QStringList texts = textsShown(panel);
        QCOMPARE(texts[0], QStringLiteral("Joining failed: line two   line three"));
        QCOMPARE(texts[1].size(), EventLogPanel::kMaxTextLength + 1); // and an ellipsis
        QCOMPARE(panel.visibleLines().join(QLatin1Char('\n')).count(QLatin1Char('\n')), 1);
    }

    // Like a terminal: new lines scroll into view while the user reads the end, and leave the view alone
    // once they scrolled up to read something older.
    void followsNewLinesUnlessScrolledUp() {
        RecordingEngine engine(ledgers_.path());
        EventLogPanel panel(engine);
        panel.resize(600, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* view = panel.findChild<QTableView*>();
        QVERIFY(view);
        const QScrollBar* scroll = view->verticalScrollBar();
        for (int i = 0; i < 100; ++i)
            engine.emitEvent(Level::Info, QStringLiteral("line %1").arg(i));
        QTRY_VERIFY(scroll->maximum() > 0);
        QTRY_COMPARE(scroll->value(), scroll->maximum());
        view->verticalScrollBar()->setValue(0);
        for (int i = 0; i < 20; ++i)
            engine.emitEvent(Level::Info, QStringLiteral("later %1").arg(i));
        QCoreApplication::processEvents();
        QCOMPARE(scroll->value(), 0);
        view->scrollToBottom();
        QTRY_COMPARE(scroll->value(), scroll->maximum());
        const int before = scroll->maximum();
        for (int i = 0; i < 20; ++i)
            engine.emitEvent(Level::Info, QStringLiteral("last %1").arg(i));
        QTRY_VERIFY(scroll->maximum() > before);
        QTRY_COMPARE(scroll->value(), scroll->maximum());
    }

    void capDropsTheOldest() {
        RecordingEngine engine(ledgers_.path());
        EventLogPanel panel(engine);
        const int total = EventLogPanel::kMaxRows + 3;
        for (int i = 0; i < total; ++i)
            panel.append(EngineEvent{1'700'000'000'000 + i, Level::Info, QStringLiteral("event %1").arg(i)});
        QCOMPARE(panel.rowCount(), EventLogPanel::kMaxRows);
        const QStringList texts = textsShown(panel);
        QCOMPARE(texts.size(), EventLogPanel::kMaxRows);
        QCOMPARE(texts.first(), QStringLiteral("event 3"));
        QCOMPARE(texts.last(), QStringLiteral("event %1").arg(total - 1));
        // One more through the engine: the oldest goes again.
        engine.emitEvent(Level::Warning, QStringLiteral("newest"));
        QCOMPARE(panel.rowCount(), EventLogPanel::kMaxRows);
        QCOMPARE(textsShown(panel).first(), QStringLiteral("event 4"));
        QCOMPARE(textsShown(panel).last(), QStringLiteral("newest"));
    }

    void clearEmptiesTheLog() {
        RecordingEngine engine(ledgers_.path());
        EventLogPanel panel(engine);
        fill(engine);
        auto* clearButton = panel.findChild<QPushButton*>(QStringLiteral("clearButton"));
        QVERIFY(clearButton);
        QTest::mouseClick(clearButton, Qt::LeftButton);
        QCOMPARE(panel.rowCount(), 0);
        QVERIFY(panel.visibleLines().isEmpty());
        engine.emitEvent(Level::Info, QStringLiteral("after"));
        QCOMPARE(textsShown(panel), QStringList{QStringLiteral("after")});
    }

    // A pause reads as the window says it, never as its code ("paused (quota_reached)"), which the tooltip
    // keeps for a report.
    void aPauseReadsInPlainWords() {
        RecordingEngine engine(ledgers_.path());
        EventLogPanel panel(engine);
        const qint64 snoozeEnd = QDateTime::currentMSecsSinceEpoch() + 3 * 3600 * 1000;
        const QList<PauseCause> causes{
            PauseCause::User,       PauseCause::Snooze,          PauseCause::OnBattery,
            PauseCause::UserActive, PauseCause::OutsideSchedule, PauseCause::QuotaReached};
        for (const PauseCause cause : causes) {
            EngineEvent event;
            event.text = QStringLiteral("paused (%1)").arg(sahaj::engine::pauseCauseName(cause));
            event.cause = cause;
            event.snoozedUntilMs = cause == PauseCause::Snooze ? snoozeEnd : 0;
            panel.append(event);
        }
        const QStringList texts = textsShown(panel);
        QCOMPARE(texts.size(), causes.size());
        for (int i = 0; i < causes.size(); ++i) {
            const qint64 until = causes[i] == PauseCause::Snooze ? snoozeEnd : 0;
            QCOMPARE(texts[i], StateText::cause(causes[i], until));
            QVERIFY2(!texts[i].contains(QLatin1Char('_')) && !texts[i].startsWith(QStringLiteral("paused (")),
                     qPrintable(texts[i]));
        }
        QVERIFY2(texts.last().contains(QStringLiteral("quota")), qPrintable(texts.last()));
        auto* view = panel.findChild<QTableView*>(QStringLiteral("eventTable"));
        QVERIFY(view);
        QCOMPARE(view->model()->index(causes.size() - 1, 2).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("paused (quota_reached)"));
        // Any other event keeps the engine's words.
        engine.emitEvent(Level::Info, QStringLiteral("resumed"));
        QCOMPARE(textsShown(panel).last(), QStringLiteral("resumed"));
    }

    void rendersSomething() {
        RecordingEngine engine(ledgers_.path());
        EventLogPanel panel(engine);
        fill(engine);
        const QImage image = WidgetGrab::ofShown(panel);
        QCOMPARE(image.size(), QSize(1000, 700));
        QVERIFY(WidgetGrab::saveIfRequested(image, QStringLiteral("event-log.png")));
    }
};

QTEST_MAIN(TestEventLogPanel)
#include "tst_event_log_panel.moc"
