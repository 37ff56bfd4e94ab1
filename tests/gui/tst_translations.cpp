// The translations: English is the source language and needs no translator; translations/sahaj_bn.ts is
// complete (every message finished, with its source's placeholders, mnemonic and markup, the mnemonic on the
// English key, "(&F)", which a Latin keyboard types), compiles with lrelease and loads, and a main
// window built after the translator is installed shows Bengali in its tabs and controls with no placeholder
// left unfilled; a font on this system draws Bengali.
//
// The app embeds the compiled translation as :/i18n/sahaj_bn.qm in sahaj-volunteer, not in sahaj_ui, so
// the test compiles the .ts from the source tree itself.
#include "core/engine/EngineSnapshot.h"
#include "support/RecordingEngine.h"
#include "tests/gui/support/WidgetGrab.h"
#include "ui/AppController.h"
#include "ui/ControlBar.h"
#include "ui/JoinWizard.h"
#include "ui/MainWindow.h"
#include "ui/SettingsDialog.h"

#include <QAbstractButton>
#include <QAction>
#include <QDateTime>
#include <QFile>
#include <QFontDatabase>
#include <QLabel>
#include <QLibraryInfo>
#include <QProcess>
#include <QPushButton>
#include <QRawFont>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

#include <algorithm>
#include <memory>

using sahaj::engine::EngineState;
using sahaj::testing::busySnapshot;
using sahaj::testing::RecordingEngine;
using sahaj::testing::WidgetGrab;
using sahaj::ui::AppController;
using sahaj::ui::JoinWizard;
using sahaj::ui::MainWindow;
using sahaj::ui::SettingsDialog;

namespace {

const char* const kWindowContext = "sahaj::ui::MainWindow";
const char* const kControlContext = "sahaj::ui::ControlBar";
const char* const kToggleContext = "sahaj::ui::PauseToggle";

// The tabs in MainWindow::Tab order, as the source names them.
const char* const kTabSources[] = {"Contribution", "Bandwidth", "Peers", "Training", "Log"};

// A %1..%99 or %L1 placeholder (ASCII digits only: a Bengali digit after '%' is text, not a placeholder).
const QRegularExpression kPlaceholder(QStringLiteral("%L?[0-9]+"));
const QRegularExpression kTag(QStringLiteral("</?[A-Za-z][^>]*>"));

struct Message {
    QString context;
    QString source;
    QStringList translations; // one, or one per plural form
    bool numerus = false;
    bool unfinished = false;
};

// The messages of a Qt Linguist .ts file; an unreadable or malformed file fails the calling test.
QList<Message> readTs(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        qWarning("cannot open %s: %s", qPrintable(path), qPrintable(file.errorString()));
        return {};
    }
    QList<Message> messages;
    QString context;
    QXmlStreamReader xml(&file);
    while (xml.readNextStartElement()) {
        if (xml.name() == QLatin1String("TS"))
            continue;
        if (xml.name() != QLatin1String("context")) {
            xml.skipCurrentElement();
            continue;
        }
        while (xml.readNextStartElement()) {
            if (xml.name() == QLatin1String("name")) {
                context = xml.readElementText();
                continue;
            }
            if (xml.name() != QLatin1String("message")) {
                xml.skipCurrentElement();
                continue;
            }
            Message message{context, {}, {}, false, false};
            message.numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
            while (xml.readNextStartElement()) {
                if (xml.name() == QLatin1String("source")) {
                    message.source = xml.readElementText();
                } else if (xml.name() == QLatin1String("translation")) {
                    message.unfinished =
                        xml.attributes().value(QLatin1String("type")) == QLatin1String("unfinished");
                    // A numerus message holds <numerusform> children; a plain one holds its text.
                    QString text;
                    while (!xml.atEnd()) {
                        xml.readNext();
                        if (xml.isCharacters())
                            text += xml.text();
                        else if (xml.isStartElement() && xml.name() == QLatin1String("numerusform"))
                            message.translations << xml.readElementText();
                        else if (xml.isEndElement() && xml.name() == QLatin1String("translation"))
                            break;
                    }
                    if (message.translations.isEmpty())
                        message.translations << text;
                } else {
                    xml.skipCurrentElement();
                }
            }
            messages << message;
        }
    }
    if (xml.hasError()) {
        qWarning("%s is not valid XML: %s", qPrintable(path), qPrintable(xml.errorString()));
        return {};
    }
    return messages;
}

QStringList placeholders(const QString& text) {
    QStringList found;
    for (auto it = kPlaceholder.globalMatch(text); it.hasNext();)
        found << it.next().captured();
    found.removeDuplicates();
    found.sort();
    return found;
}

QStringList tags(const QString& text) {
    QStringList found;
    for (auto it = kTag.globalMatch(text); it.hasNext();)
        found << it.next().captured();
    return found;
}

// Mnemonic markers: a single '&' (a doubled one is a literal ampersand).
int mnemonics(const QString& text) {
    int count = 0;
    for (int i = 0; i < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (i + 1 < text.size() && text[i + 1] == QLatin1Char('&'))
            ++i;
        else
            ++count;
    }
    return count;
}

// The key a mnemonic marks (lowercase), or a null QChar when there is none.
QChar mnemonicKey(const QString& text) {
    for (int i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (text[i + 1] == QLatin1Char('&')) {
            ++i;
            continue;
        }
        return text[i + 1].toLower();
    }
    return {};
}

bool hasBengali(const QString& text) {
    return std::any_of(text.begin(), text.end(),
                       [](QChar c) { return c.unicode() >= 0x0980 && c.unicode() <= 0x09FF; });
}

// The buttons of `page` that show Bengali text but got less width than their text needs (Bengali labels
// run longer than the English ones the layout was tried with).
QStringList squeezedButtons(const QWidget& page) {
    QStringList squeezed;
    for (const QAbstractButton* button : page.findChildren<QAbstractButton*>()) {
        if (button->isVisible() && hasBengali(button->text()) && button->width() < button->sizeHint().width())
            squeezed << QStringLiteral("%1 (%2 < %3 px)")
                            .arg(button->text())
                            .arg(button->width())
                            .arg(button->sizeHint().width());
    }
    return squeezed;
}

qint64 now() {
    return QDateTime::currentMSecsSinceEpoch();
}

// An engine training with busy figures, a controller on a settings file of its own and the window on both.
struct Machine {
    QTemporaryDir dir;
    RecordingEngine engine{dir.filePath(QStringLiteral("ledger.sqlite"))};
    std::unique_ptr<AppController> controller;
    std::unique_ptr<MainWindow> window;

    Machine() {
        auto snapshot = busySnapshot(now());
        snapshot.state = EngineState::Training;
        engine.show(snapshot);
        controller =
            std::make_unique<AppController>(engine, dir.filePath(QStringLiteral("settings.ini")), nullptr);
        window = std::make_unique<MainWindow>(engine, *controller);
    }

    // Every text the window shows or gives to a screen reader: labels, buttons, tabs, actions, tooltips.
    QStringList texts() const {
        QStringList all{window->windowTitle()};
        for (QWidget* widget : window->findChildren<QWidget*>()) {
            all << widget->toolTip() << widget->accessibleName();
            if (auto* label = qobject_cast<QLabel*>(widget))
                all << label->text();
            if (auto* button = qobject_cast<QAbstractButton*>(widget))
                all << button->text();
            if (auto* tabs = qobject_cast<QTabWidget*>(widget))
                for (int i = 0; i < tabs->count(); ++i)
                    all << tabs->tabText(i);
        }
        for (QAction* action : window->findChildren<QAction*>())
            all << action->text() << action->toolTip();
        all.removeAll(QString());
        return all;
    }
};

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        const QString source = qEnvironmentVariable("SAHAJ_SOURCE_DIR");
        if (source.isEmpty())
            QSKIP("SAHAJ_SOURCE_DIR is not set: run the test through ctest");
        bengaliTs_ = source + QStringLiteral("/translations/sahaj_bn.ts");
        englishTs_ = source + QStringLiteral("/translations/sahaj_en.ts");
        QVERIFY2(QFile::exists(bengaliTs_), qPrintable(bengaliTs_));
        QVERIFY2(QFile::exists(englishTs_), qPrintable(englishTs_));
        // Qt's own tools folder first: a plain "lrelease" on PATH may be Qt 5's.
        lrelease_ = QStandardPaths::findExecutable(QStringLiteral("lrelease"),
                                                   {QLibraryInfo::path(QLibraryInfo::BinariesPath),
                                                    QLibraryInfo::path(QLibraryInfo::LibraryExecutablesPath),
                                                    QStringLiteral("/usr/lib/qt6/bin")});
        if (lrelease_.isEmpty())
            lrelease_ = QStandardPaths::findExecutable(QStringLiteral("lrelease"));
    }

    void everyBengaliMessageIsTranslated() {
        const QList<Message> messages = readTs(bengaliTs_);
        QVERIFY2(messages.size() > 100, "sahaj_bn.ts holds too few messages: is it the app's?");
        QStringList missing;
        for (const Message& m : messages)
            if (m.unfinished || m.translations.contains(QString()))
                missing << m.context + QStringLiteral(": ") + m.source;
        QVERIFY2(missing.isEmpty(),
                 qPrintable(QStringLiteral("untranslated:\n") + missing.join(QLatin1Char('\n'))));
    }

    void translationsKeepPlaceholdersMnemonicsAndMarkup() {
        const QList<Message> messages = readTs(bengaliTs_);
        QVERIFY(!messages.isEmpty());
        QStringList problems;
        for (const Message& m : messages) {
            for (const QString& translation : m.translations) {
                const QString where = m.context + QStringLiteral(": \"") + m.source +
                                      QStringLiteral("\" → \"") + translation + QLatin1Char('"');
                if (placeholders(translation) != placeholders(m.source))
                    problems << QStringLiteral("placeholders differ: ") + where;
                if (mnemonics(translation) != mnemonics(m.source) || mnemonics(translation) > 1)
                    problems << QStringLiteral("mnemonics differ: ") + where;
                // The English key, "(&F)" after the Bengali text: a Latin keyboard cannot type a Bengali
                // letter, and the keys stay those whose uniqueness the settings' test checks.
                if (mnemonicKey(translation) != mnemonicKey(m.source))
                    problems << QStringLiteral("the mnemonic is not the English key: ") + where;
                if (tags(translation) != tags(m.source))
                    problems << QStringLiteral("markup differs: ") + where;
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void englishIsTheSourceAndNeedsNoTranslator() {
        // The source strings are the English text: only plural forms (%n) need an English translation.
        const QList<Message> english = readTs(englishTs_);
        QVERIFY(!english.isEmpty());
        for (const Message& m : english) {
            const bool filled = !m.translations.contains(QString());
            QVERIFY2(m.numerus ? filled : !filled, qPrintable(m.context + QStringLiteral(": ") + m.source));
        }
        Machine machine;
        QTabWidget* tabs = machine.window->tabs();
        QCOMPARE(tabs->count(), 5);
        for (int tab = 0; tab < tabs->count(); ++tab)
            QCOMPARE(tabs->tabText(tab), QString::fromLatin1(kTabSources[tab]));
        QCOMPARE(machine.window->controlBar()->joinLeaveButton()->text(), QStringLiteral("&Leave"));
        QCOMPARE(machine.window->controlBar()->pauseResumeButton()->text(), QStringLiteral("&Pause"));
    }

    void bengaliCompilesAndLoads() {
        if (lrelease_.isEmpty())
            QSKIP("lrelease (Qt linguist tools) is not installed: the translation cannot be compiled");
        QTranslator translator;
        const QString problem = loadBengali(translator);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(!translator.isEmpty());
        QCOMPARE(translator.language(), QStringLiteral("bn_BD"));
        QVERIFY(hasBengali(translator.translate(kWindowContext, "Contribution")));
    }

    void mainWindowShowsBengali() {
        if (lrelease_.isEmpty())
            QSKIP("lrelease (Qt linguist tools) is not installed: the translation cannot be compiled");
        QTranslator translator;
        const QString problem = loadBengali(translator);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(QCoreApplication::installTranslator(&translator));
        const auto removeTranslator =
            qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });

        Machine machine;
        QTabWidget* tabs = machine.window->tabs();
        QCOMPARE(tabs->count(), 5);
        for (int tab = 0; tab < tabs->count(); ++tab) {
            const QString expected = translator.translate(kWindowContext, kTabSources[tab]);
            QVERIFY2(hasBengali(expected), kTabSources[tab]);
            QCOMPARE(tabs->tabText(tab), expected);
        }
        const sahaj::ui::ControlBar* bar = machine.window->controlBar();
        QCOMPARE(bar->joinLeaveButton()->text(), translator.translate(kControlContext, "&Leave"));
        QCOMPARE(bar->pauseResumeButton()->text(), translator.translate(kToggleContext, "&Pause"));
        QCOMPARE(bar->finishStepButton()->text(),
                 translator.translate(kControlContext, "&Finish this step, then pause"));
        QCOMPARE(bar->snoozeButton()->text(), translator.translate(kControlContext, "S&nooze"));
        for (const QAbstractButton* button : {static_cast<const QAbstractButton*>(bar->joinLeaveButton()),
                                              static_cast<const QAbstractButton*>(bar->pauseResumeButton()),
                                              static_cast<const QAbstractButton*>(bar->finishStepButton()),
                                              static_cast<const QAbstractButton*>(bar->snoozeButton())})
            QVERIFY2(hasBengali(button->text()), qPrintable(button->text()));
        QVERIFY2(hasBengali(bar->stateLabel()->text()), qPrintable(bar->stateLabel()->text()));
        QVERIFY2(hasBengali(machine.window->windowTitle()), qPrintable(machine.window->windowTitle()));

        for (const QString& text : machine.texts())
            QVERIFY2(!kPlaceholder.match(text).hasMatch(),
                     qPrintable(QStringLiteral("unfilled placeholder: ") + text));
    }

    void dialogsDrawInBengali() {
        if (lrelease_.isEmpty())
            QSKIP("lrelease (Qt linguist tools) is not installed: the translation cannot be compiled");
        QTranslator translator;
        const QString problem = loadBengali(translator);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(QCoreApplication::installTranslator(&translator));
        const auto removeTranslator =
            qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });
        Machine machine;

        SettingsDialog settings(*machine.controller);
        auto* tabs = settings.findChild<QTabWidget*>();
        QVERIFY(tabs);
        for (int tab = 0; tab < tabs->count(); ++tab) {
            QVERIFY2(hasBengali(tabs->tabText(tab)), qPrintable(tabs->tabText(tab)));
            tabs->setCurrentIndex(tab);
            const QImage image = WidgetGrab::ofShown(settings, settings.sizeHint());
            QVERIFY2(WidgetGrab::pixelsUnlikeCorner(image) > 200, "the settings dialog drew nothing");
            QVERIFY(WidgetGrab::saveIfRequested(image, QStringLiteral("settings-%1-bn.png").arg(tab)));
            const QStringList squeezed = squeezedButtons(*tabs->currentWidget());
            QVERIFY2(squeezed.isEmpty(), qPrintable(squeezed.join(QStringLiteral(", "))));
        }

        JoinWizard wizard(machine.engine, *machine.controller);
        for (int page : {JoinWizard::ConsentPage, JoinWizard::JoinPage, JoinWizard::HardwarePage,
                         JoinWizard::LimitsPage, JoinWizard::PreparingPage}) {
            wizard.setStartId(page);
            wizard.restart();
            const QImage image = WidgetGrab::ofShown(wizard, wizard.sizeHint());
            QVERIFY2(WidgetGrab::pixelsUnlikeCorner(image) > 200, "the wizard drew nothing");
            QVERIFY(WidgetGrab::saveIfRequested(image, QStringLiteral("wizard-%1-bn.png").arg(page)));
            QVERIFY2(hasBengali(wizard.currentPage()->title()), qPrintable(wizard.currentPage()->title()));
            const QStringList squeezed = squeezedButtons(*wizard.currentPage());
            QVERIFY2(squeezed.isEmpty(), qPrintable(squeezed.join(QStringLiteral(", "))));
        }
    }

    void aFontDrawsBengali() {
        const QStringList families = QFontDatabase::families(QFontDatabase::Bengali);
        if (families.isEmpty())
            QSKIP("no font with Bengali glyphs is installed (fonts-lohit-beng-bengali provides one)");
        const bool draws = std::any_of(families.begin(), families.end(), [](const QString& family) {
            return QRawFont::fromFont(QFont(family), QFontDatabase::Bengali).supportsCharacter(QChar(0x0985));
        });
        QVERIFY2(draws, qPrintable(families.join(QStringLiteral(", "))));
    }

private:
    // Compiles sahaj_bn.ts with lrelease into a temporary folder (once) and loads it into `translator`.
    // Returns the problem, empty: loaded.
    QString loadBengali(QTranslator& translator) {
        if (!compiled_.isValid())
            return QStringLiteral("no temporary folder: ") + compiled_.errorString();
        const QString qm = compiled_.filePath(QStringLiteral("sahaj_bn.qm"));
        if (!QFile::exists(qm)) {
            QProcess process;
            process.start(lrelease_, {QStringLiteral("-silent"), bengaliTs_, QStringLiteral("-qm"), qm});
            if (!process.waitForFinished(60000))
                return lrelease_ + QStringLiteral(" did not finish: ") + process.errorString();
            if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
                return lrelease_ + QStringLiteral(" failed: ") +
                       QString::fromLocal8Bit(process.readAllStandardError());
        }
        if (!translator.load(qm))
            return QStringLiteral("QTranslator cannot load ") + qm;
        return {};
    }

    QString lrelease_;
    QString bengaliTs_;
    QString englishTs_;
    QTemporaryDir compiled_;
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
