// "Start at login": the XDG autostart entry is written and removed in the configuration folder the
// environment names, doing it twice changes nothing, a user-edited entry is replaced whole, and a folder
// or file that cannot be changed gives a reason instead of a silent failure.
#include "ui/desktop/AutostartEntry.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

#include <unistd.h>

using sahaj::ui::AutostartEntry;

namespace {

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace

class TestAutostartEntry : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> config_;

    QString autostartDir() const { return QDir(config_->path()).filePath("autostart"); }

private Q_SLOTS:
    // Each test gets an empty configuration folder of its own through XDG_CONFIG_HOME, which
    // QStandardPaths reads on every call.
    void init() {
        config_ = std::make_unique<QTemporaryDir>();
        QVERIFY(config_->isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(config_->path()));
    }

    void cleanup() {
        // A test may have made the folder read-only; the temporary folder must still go away.
        QFile::setPermissions(autostartDir(),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        config_.reset();
        qunsetenv("XDG_CONFIG_HOME");
    }

    void pathFollowsXdgConfigHome() {
        QCOMPARE(AutostartEntry::path(), QDir(autostartDir()).filePath("org.sahaj.Sahaj.desktop"));
        QVERIFY(!AutostartEntry::isEnabled());
    }

    void enablingWritesTheEntry() {
        QString error;
        QVERIFY2(AutostartEntry::apply(true, &error), qPrintable(error));
        QVERIFY(error.isEmpty());
        const QByteArray written = readAll(AutostartEntry::path());
        QCOMPARE(written, AutostartEntry::content());
        QVERIFY(written.startsWith("[Desktop Entry]\n"));
        QVERIFY(written.contains("\nExec=sahaj-volunteer --minimized\n"));
        QVERIFY(written.contains("\nX-GNOME-Autostart-enabled=true\n"));
        QVERIFY(AutostartEntry::isEnabled());
    }

    void enablingTwiceLeavesOneIdenticalEntry() {
        QVERIFY(AutostartEntry::apply(true, nullptr));
        const QByteArray first = readAll(AutostartEntry::path());
        QVERIFY(AutostartEntry::apply(true, nullptr));
        QCOMPARE(readAll(AutostartEntry::path()), first);
        // The atomic write leaves no temporary file behind.
        QCOMPARE(QDir(autostartDir()).entryList(QDir::Files | QDir::Hidden | QDir::System),
                 QStringList{"org.sahaj.Sahaj.desktop"});
    }

    void enablingReplacesAUserEditedEntry() {
        QVERIFY(QDir().mkpath(autostartDir()));
        QVERIFY(writeFile(AutostartEntry::path(),
                          "[Desktop Entry]\nType=Application\nExec=sahaj-volunteer --demo\nHidden=true\n"));
        QVERIFY(!AutostartEntry::isEnabled());
        QString error;
        QVERIFY2(AutostartEntry::apply(true, &error), qPrintable(error));
        QCOMPARE(readAll(AutostartEntry::path()), AutostartEntry::content());
        QVERIFY(AutostartEntry::isEnabled());
    }

    void anEntrySwitchedOffByTheUserIsNotEnabled() {
        QVERIFY(QDir().mkpath(autostartDir()));
        QVERIFY(writeFile(AutostartEntry::path(),
                          AutostartEntry::content().replace("X-GNOME-Autostart-enabled=true",
                                                            "X-GNOME-Autostart-enabled=false")));
        QVERIFY(!AutostartEntry::isEnabled());
        // The same key in another group is not the entry's.
        QVERIFY(writeFile(AutostartEntry::path(),
                          AutostartEntry::content() + "\n[Desktop Action demo]\nHidden=true\n"));
        QVERIFY(AutostartEntry::isEnabled());
    }

    void disablingRemovesTheEntryAndRepeats() {
        QVERIFY(AutostartEntry::apply(true, nullptr));
        QString error;
        QVERIFY2(AutostartEntry::apply(false, &error), qPrintable(error));
        QVERIFY(!QFile::exists(AutostartEntry::path()));
        QVERIFY(!AutostartEntry::isEnabled());
        QVERIFY2(AutostartEntry::apply(false, &error), qPrintable(error));
        QVERIFY(error.isEmpty());
        // Disabling where nothing was ever written creates nothing.
        QVERIFY(QDir(autostartDir()).removeRecursively());
        QVERIFY(AutostartEntry::apply(false, &error));
        QVERIFY(!QFileInfo::exists(autostartDir()));
    }

    void aFolderThatCannotBeMadeGivesAReason() {
        // A file where the folder should be: refused for root too, unlike a permission bit.
        QVERIFY(writeFile(autostartDir(), "not a folder"));
        QString error;
        QVERIFY(!AutostartEntry::apply(true, &error));
        QVERIFY2(error.contains(QDir::toNativeSeparators(autostartDir())), qPrintable(error));
        QCOMPARE(readAll(autostartDir()), QByteArray("not a folder"));
        // Nothing to remove there, so disabling succeeds.
        error.clear();
        QVERIFY2(AutostartEntry::apply(false, &error), qPrintable(error));
    }

    void anEntryThatCannotBeReplacedOrRemovedGivesAReason() {
        // A folder where the entry should be can be neither replaced by a file nor removed as one.
        QVERIFY(QDir().mkpath(AutostartEntry::path()));
        QString error;
        QVERIFY(!AutostartEntry::apply(true, &error));
        QVERIFY2(error.contains(QDir::toNativeSeparators(AutostartEntry::path())), qPrintable(error));
        error.clear();
        QVERIFY(!AutostartEntry::apply(false, &error));
        QVERIFY2(error.contains(QDir::toNativeSeparators(AutostartEntry::path())), qPrintable(error));
        QVERIFY(QFileInfo(AutostartEntry::path()).isDir());
    }

    void aReadOnlyFolderGivesAReason() {
        if (geteuid() == 0)
            QSKIP("root writes into read-only folders; aFolderThatCannotBeMadeGivesAReason covers root");
        QVERIFY(AutostartEntry::apply(true, nullptr));
        QVERIFY(QFile::setPermissions(autostartDir(), QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        QString error;
        QVERIFY(!AutostartEntry::apply(false, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(QFile::exists(AutostartEntry::path()));
        error.clear();
        QVERIFY(!AutostartEntry::apply(true, &error));
        QVERIFY(!error.isEmpty());
    }

    void theEntryIsAValidDesktopFile() {
        const QString validator = QStandardPaths::findExecutable("desktop-file-validate");
        if (validator.isEmpty())
            QSKIP("desktop-file-validate (desktop-file-utils) is not installed");
        QVERIFY(AutostartEntry::apply(true, nullptr));
        QProcess process;
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(validator, {AutostartEntry::path()});
        QVERIFY(process.waitForFinished(30000));
        const QByteArray output = process.readAll();
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, output.constData());
        QVERIFY2(!output.contains("error"), output.constData());
    }
};

QTEST_GUILESS_MAIN(TestAutostartEntry)
#include "tst_autostart_entry.moc"
