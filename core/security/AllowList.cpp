#include "core/security/AllowList.h"

#include "core/security/ListFileLines.h"
#include "core/security/RuntimeFailure.h"
#include "core/security/SecretFile.h"
#include "core/security/Username.h"

#include <QList>
#include <QRegularExpression>

#include <argon2.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace sahaj::security {

namespace {

const QString kWhat = QStringLiteral("allowlist");

constexpr std::uint32_t kSaltBytes = 16;
constexpr std::uint32_t kHashBytes = 32;
// Bounds on the cost an entry may name: a hand-edited line must not make one login allocate terabytes.
constexpr std::uint32_t kMaxIterations = 100;
constexpr std::uint32_t kMaxMemoryKiB = 4 * 1024 * 1024;
constexpr std::uint32_t kMaxParallelism = 64;

// Empty when the cost is one Argon2 accepts and within the bounds above, otherwise what is wrong.
QString costProblem(quint64 iterations, quint64 memoryKiB, quint64 parallelism) {
    if (iterations < 1 || iterations > kMaxIterations)
        return QStringLiteral("iterations t=%1 outside [1, %2]").arg(iterations).arg(kMaxIterations);
    if (parallelism < 1 || parallelism > kMaxParallelism)
        return QStringLiteral("parallelism p=%1 outside [1, %2]").arg(parallelism).arg(kMaxParallelism);
    // Argon2 needs 8 KiB per lane at least.
    if (memoryKiB < 8 * parallelism || memoryKiB > kMaxMemoryKiB)
        return QStringLiteral("memory m=%1 KiB outside [%2, %3]")
            .arg(memoryKiB)
            .arg(8 * parallelism)
            .arg(kMaxMemoryKiB);
    return {};
}

// One line of the file: the text as written (kept on rewrite) and, for an entry, its user and hash.
struct Line {
    QByteArray text;
    QString username; // empty for a blank or comment line
    QByteArray hash;
};

// Argon2's encoded form, version 0x13, with the cost captured.
const QRegularExpression& encodedHashPattern() {
    static const QRegularExpression pattern(QStringLiteral(
        R"(^\$argon2id\$v=19\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,10})\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$)"));
    return pattern;
}

// Parses the whole file; throws std::runtime_error naming the file and the line for anything malformed.
QList<Line> parse(const QByteArray& content, const QString& path) {
    ListFileLines texts(content, kWhat, path);
    QList<Line> lines;
    for (qsizetype i = 0; i < texts.size(); ++i) {
        Line line{texts.at(i), {}, {}};
        const QByteArray body = line.text.endsWith('\r') ? line.text.chopped(1) : line.text;
        if (body.trimmed().isEmpty() || body.startsWith('#')) {
            lines.append(line);
            continue;
        }
        const qsizetype colon = body.indexOf(':');
        if (colon < 0)
            texts.fail(i, QStringLiteral("expected 'username:<argon2id encoded hash>'"));
        const QByteArray user = body.left(colon);
        if (const QString problem = Username::problem(user); !problem.isEmpty())
            texts.fail(i, problem);
        line.username = QString::fromLatin1(user);
        line.hash = body.mid(colon + 1);
        const auto match = encodedHashPattern().match(QString::fromLatin1(line.hash));
        if (!match.hasMatch())
            texts.fail(i, QStringLiteral("the hash of user '%1' is not an Argon2id encoded hash "
                                         "($argon2id$v=19$m=...,t=...,p=...$salt$hash)")
                              .arg(line.username));
        const QString problem = costProblem(match.captured(2).toULongLong(), match.captured(1).toULongLong(),
                                            match.captured(3).toULongLong());
        if (!problem.isEmpty())
            texts.fail(i, QStringLiteral("the hash of user '%1' names a cost out of bounds: %2")
                              .arg(line.username, problem));
        texts.claim(user, i, QStringLiteral("user '%1'").arg(line.username));
        lines.append(line);
    }
    return lines;
}

QByteArray hashPassword(QByteArrayView password, const AllowList::Cost& cost) {
    unsigned char salt[kSaltBytes];
    if (RAND_bytes(salt, sizeof salt) != 1)
        failWith(QStringLiteral("cannot draw a random salt from OpenSSL"));
    QByteArray encoded(
        static_cast<qsizetype>(argon2_encodedlen(cost.iterations, cost.memoryKiB, cost.parallelism,
                                                 kSaltBytes, kHashBytes, Argon2_id)),
        '\0');
    const int status =
        argon2id_hash_encoded(cost.iterations, cost.memoryKiB, cost.parallelism, password.data(),
                              static_cast<size_t>(password.size()), salt, sizeof salt, kHashBytes,
                              encoded.data(), static_cast<size_t>(encoded.size()));
    OPENSSL_cleanse(salt, sizeof salt);
    if (status != ARGON2_OK)
        failWith(QStringLiteral("Argon2id hashing failed: %1")
                     .arg(QString::fromLatin1(argon2_error_message(status))));
    encoded.truncate(encoded.indexOf('\0')); // the buffer is sized for the longest form; the text ends at NUL
    return encoded;
}

// The file holds hashes only, and organisers may write it by hand: any mode is accepted on reading.
SecretFile listFile(const QString& path) {
    return SecretFile(path, kWhat, AllowList::kMaxFileBytes, SecretFile::Access::Unchecked);
}

} // namespace

void AllowList::addUser(const QString& path, const QString& username, QByteArrayView password, Cost cost) {
    const QByteArray user = username.toUtf8();
    if (const QString problem = Username::problem(user); !problem.isEmpty())
        throw std::invalid_argument(QStringLiteral("cannot add user: %1").arg(problem).toStdString());
    if (password.isEmpty())
        throw std::invalid_argument(
            QStringLiteral("cannot add user '%1': the password is empty").arg(username).toStdString());
    if (const QString problem = costProblem(cost.iterations, cost.memoryKiB, cost.parallelism);
        !problem.isEmpty())
        throw std::invalid_argument(
            QStringLiteral("cannot add user '%1': Argon2id cost %2").arg(username, problem).toStdString());

    const SecretFile file = listFile(path);
    const auto lock = file.lock();
    const QList<Line> lines = parse(file.read().value_or(QByteArray()), path);
    const QByteArray entry = user + ':' + hashPassword(password, cost);

    QByteArray content;
    bool replaced = false;
    for (const Line& line : lines) {
        if (line.username == username) {
            content += entry + '\n';
            replaced = true;
        } else {
            content += line.text + '\n';
        }
    }
    if (!replaced)
        content += entry + '\n';
    file.replace(content);
}

void AllowList::addUser(const QString& path, const QString& username, QByteArrayView password) {
    addUser(path, username, password, Cost{});
}

AllowList AllowList::load(const QString& path) {
    AllowList list;
    for (const Line& line : parse(listFile(path).readExisting(), path)) {
        if (line.username.isEmpty())
            continue;
        list.hashes_.insert(line.username, line.hash);
        if (list.decoyHash_.isEmpty())
            list.decoyHash_ = line.hash;
    }
    return list;
}

bool AllowList::verify(const QString& username, QByteArrayView password) const {
    // No entry can hold an empty password (addUser refuses one), whoever asks.
    if (password.isEmpty() || hashes_.isEmpty())
        return false;
    const auto entry = hashes_.constFind(username);
    const bool known = entry != hashes_.constEnd();
    const QByteArray& encoded = known ? *entry : decoyHash_;
    const bool matches = argon2id_verify(encoded.constData(), password.data(),
                                         static_cast<size_t>(password.size())) == ARGON2_OK;
    return known && matches;
}

} // namespace sahaj::security
