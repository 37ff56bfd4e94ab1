// IdentityLock: one process per identity folder, for as long as it runs; the lock of a process that is
// gone is taken over.
#include "core/security/IdentityLock.h"

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using sahaj::security::IdentityLock;

class TestIdentityLock : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // A peer that has run for minutes keeps its identity: QLockFile's default staleness (30 s) would hand
    // a second process the lock of every peer that has run longer.
    void aLongHeldLockIsNotTaken() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::unique_ptr<QLockFile> held = IdentityLock::take(dir.path());
        QVERIFY(held);
        QFile file(dir.filePath(QStringLiteral("identity.lock")));
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(
            file.setFileTime(QDateTime::currentDateTime().addSecs(-600), QFileDevice::FileModificationTime));
        file.close();
        QVERIFY(!IdentityLock::take(dir.path()));
    }

    void aReleasedOrDeadLockIsTaken() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        {
            const std::unique_ptr<QLockFile> held = IdentityLock::take(dir.path());
            QVERIFY(held);
        }
        QVERIFY(IdentityLock::take(dir.path()));
        // A lock file whose process is gone (pid 2^22 + 1 is above Linux's pid_max).
        QFile file(dir.filePath(QStringLiteral("identity.lock")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArrayLiteral("4194305\nsahaj\n") + QSysInfo::machineHostName().toUtf8() + "\n");
        file.close();
        QVERIFY(IdentityLock::take(dir.path()));
    }
};

QTEST_GUILESS_MAIN(TestIdentityLock)
#include "tst_identity_lock.moc"
