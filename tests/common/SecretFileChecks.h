#pragma once

// Checks shared by the tests of files that hold secrets or admission state (the key files, the allowlist,
// the invite list): reading them back, their mode, and refusals that must leave a file as it was. A
// refused file that changed would lose a user's key or list, so every refusal is checked byte for byte.

#include "tests/common/TestFiles.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

namespace sahaj::test {

// RFC 8032 section 7.1, test 1: the Ed25519 secret key 9d61b1...7f60 as PKCS#8 (the 16-byte DER prefix
// 302e020100300506032b657004220420 followed by the 32-byte seed). The identity's test vector, and a valid
// key of the wrong kind wherever another kind of key is expected.
inline const QByteArray kRfc8032Ed25519Pem =
    "-----BEGIN PRIVATE KEY-----\n"
    "MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n"
    "-----END PRIVATE KEY-----\n";

// The bytes of `path`; a failure to read ends the test run.
inline QByteArray readBytes(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

#ifdef Q_OS_UNIX
// The permission bits of `path` (0600 for owner read and write); a failure to inspect ends the test run.
inline unsigned modeOf(const QString& path) {
    struct stat status {};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        qFatal("cannot stat %s", qPrintable(path));
    return static_cast<unsigned>(status.st_mode & 0777);
}
#endif

// Writes `content` to `name` inside `dir` with `permissions` and returns the path. The default, owner read
// and write only, is what a key file must have to be read at all.
inline QString writeFileWithPermissions(const QTemporaryDir& dir, const QString& name,
                                        const QByteArray& content,
                                        QFileDevice::Permissions permissions = QFileDevice::ReadOwner |
                                                                               QFileDevice::WriteOwner) {
    const QString path = writeFile(dir, name, content);
    if (!QFile::setPermissions(path, permissions))
        qFatal("cannot set the permissions of %s", qPrintable(path));
    return path;
}

// Every one of `actions` fails with the same message, which contains each of `expected`, and the file at
// `path` is left byte for byte as it was.
template <typename... Actions>
void checkRefusedUntouched(const QString& path, const QStringList& expected, Actions&&... actions) {
    const QByteArray before = readBytes(path);
    const QStringList messages{errorOf(actions)...}; // in the order given
    for (const QString& part : expected)
        QVERIFY2(messages.first().contains(part), qPrintable(messages.first()));
    for (const QString& message : messages)
        QCOMPARE(message, messages.first());
    QCOMPARE(readBytes(path), before);
}

// `fileName` in `folder` is readable by its owner only (0600) and no temporary file is left beside it.
inline void checkOwnerOnlyAndAlone(const QString& folder, const QString& fileName) {
#ifdef Q_OS_UNIX
    QCOMPARE(modeOf(QDir(folder).filePath(fileName)), 0600u);
#endif
    QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden), QStringList({fileName}));
}

// Writes `content` as the key file `fileName` (mode 0600) in a fresh folder; `load(folder)` must fail
// with a message naming the file and containing `expected`, and leave the file as it was.
template <typename Load>
void checkKeyFileRefused(const QString& fileName, const QByteArray& content, const QString& expected,
                         Load&& load) {
    QTemporaryDir dir;
    const QString path = writeFileWithPermissions(dir, fileName, content);
    checkRefusedUntouched(path, {path, expected}, [&] { load(dir.path()); });
}

// The rules every key file keeps (see PrivateKey::loadOrCreate), for the class whose loadOrCreate is
// `load`: its `fileName` is created once, in a missing folder, as unencrypted PKCS#8 PEM readable by its
// owner only; loading again gives the same key (`keyOf` of both equal) and leaves the file as it was; a
// corrupt file (text, a truncated key, an empty file), one that others can read, or a folder in its place
// is refused with a message that names the file and its kind (`fileKind`), and nothing is changed.
template <typename Load, typename KeyOf>
void checkKeyFileRules(const QString& fileName, const QString& fileKind, Load&& load, KeyOf&& keyOf) {
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("data/sahaj"));
    const auto created = load(folder);
    const QString path = folder + QLatin1Char('/') + fileName;
    const QByteArray pem = readBytes(path);
    QVERIFY(pem.startsWith("-----BEGIN PRIVATE KEY-----\n"));
    checkOwnerOnlyAndAlone(folder, fileName);
    QCOMPARE(keyOf(load(folder)), keyOf(created));
    QCOMPARE(readBytes(path), pem);

    const QString unreadable = QStringLiteral("not a readable unencrypted PEM private key");
    for (const QByteArray& content : {QByteArray("not a key at all\n"), pem.left(40), QByteArray()}) {
        checkKeyFileRefused(fileName, content, unreadable, load);
        if (QTest::currentTestFailed())
            return;
    }

    QTemporaryDir holdsAFolder;
    QVERIFY(QDir(holdsAFolder.path()).mkdir(fileName));
    const QString message = errorOf([&] { load(holdsAFolder.path()); });
    QVERIFY2(message.startsWith(fileKind + ' ' + holdsAFolder.filePath(fileName) + " is not a regular file"),
             qPrintable(message));

#ifdef Q_OS_UNIX
    // The user fixes the mode; nothing here changes it behind the user's back.
    QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                            QFileDevice::ReadGroup | QFileDevice::ReadOther));
    checkRefusedUntouched(
        path, {fileKind + ' ' + path + " is accessible to other users (mode 0644)", "chmod 600 " + path},
        [&] { load(folder); });
    QCOMPARE(modeOf(path), 0644u);
#endif
}

// For a data-driven test with the columns `content` (a malformed list file) and `message`: with `content`
// written as `fileName`, `open(path)` and `update(path)` both fail with the same message, which names
// "`what` <path> " and contains `message`, and the file is left as it was (an update never half-applies).
template <typename Open, typename Update>
void checkMalformedListRefused(const QString& fileName, const QString& what, Open&& open, Update&& update) {
    QFETCH(QByteArray, content);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = writeFile(dir, fileName, content);
    checkRefusedUntouched(
        path, {what + ' ' + path + ' ', message}, [&] { open(path); }, [&] { update(path); });
}

} // namespace sahaj::test
