#include "core/security/InviteList.h"

#include "core/security/ListFileLines.h"
#include "core/security/RuntimeFailure.h"
#include "core/security/SecretFile.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QList>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace sahaj::security {

namespace {

const QString kInviteListWhat = QStringLiteral("invite list");

constexpr int kCodeBytes = 16;
constexpr const char* kUnused = "unused";
constexpr const char* kUsed = "used";

bool isLowerHex(QByteArrayView text) {
    for (const char c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

// One line of the file: the text as written (kept on rewrite) and, for an entry, its hash and state.
struct InviteLine {
    QByteArray text;
    QByteArray hash; // empty for a blank or comment line
    bool used = false;
};

QList<InviteLine> parseInvites(const QByteArray& content, const QString& path) {
    ListFileLines texts(content, kInviteListWhat, path);
    QList<InviteLine> lines;
    for (qsizetype i = 0; i < texts.size(); ++i) {
        InviteLine line{texts.at(i), {}, false};
        const QByteArray body = line.text.trimmed();
        if (body.isEmpty() || body.startsWith('#')) {
            lines.append(line);
            continue;
        }
        const QList<QByteArray> fields = body.simplified().split(' ');
        if (fields.size() != 2 ||
            fields[0].size() != 2 * QCryptographicHash::hashLength(QCryptographicHash::Sha256) ||
            !isLowerHex(fields[0]) || (fields[1] != kUnused && fields[1] != kUsed))
            texts.fail(i, QStringLiteral("expected '<SHA-256 as 64 lowercase hex digits> unused|used'"));
        texts.claim(fields[0], i, QStringLiteral("the same code"));
        line.hash = fields[0];
        line.used = fields[1] == kUsed;
        lines.append(line);
    }
    return lines;
}

// The file holds hashes only (a copy admits nobody), and may be written by hand: any mode is accepted.
SecretFile inviteListFile(const QString& path) {
    return SecretFile(path, kInviteListWhat, InviteList::kMaxFileBytes, SecretFile::Access::Unchecked);
}

QList<InviteLine> readLines(const QString& path, bool mustExist) {
    const SecretFile file = inviteListFile(path);
    return parseInvites(mustExist ? file.readExisting() : file.read().value_or(QByteArray()), path);
}

QByteArray serialise(const QList<InviteLine>& lines) {
    QByteArray content;
    for (const InviteLine& line : lines) {
        if (line.hash.isEmpty())
            content += line.text + '\n';
        else
            content += line.hash + ' ' + QByteArray(line.used ? kUsed : kUnused) + '\n';
    }
    return content;
}

QByteArray hashOf(QByteArrayView codeBytes) {
    return QCryptographicHash::hash(codeBytes, QCryptographicHash::Sha256).toHex();
}

// The 16 bytes a code spells, or an empty array when `code` does not spell 16 bytes in hex.
QByteArray codeBytes(const QString& code) {
    QByteArray digits;
    for (const QChar c : code) {
        if (c == u'-' || c.isSpace())
            continue;
        if (c.unicode() > 0x7f || digits.size() >= 2 * kCodeBytes + 1)
            return {};
        digits += static_cast<char>(c.toLower().unicode());
    }
    if (digits.size() != 2 * kCodeBytes || !isLowerHex(digits))
        return {};
    return QByteArray::fromHex(digits);
}

// 32 hex digits in groups of four, easy to read out and type.
QString spell(QByteArrayView bytes) {
    const QByteArray hex = bytes.toByteArray().toHex();
    QString code;
    for (qsizetype i = 0; i < hex.size(); i += 4) {
        if (i > 0)
            code += u'-';
        code += QString::fromLatin1(hex.mid(i, 4));
    }
    return code;
}

} // namespace

QStringList InviteList::addInvites(const QString& path, int count) {
    if (count < 1 || count > kMaxInvitesPerCall)
        throw std::invalid_argument(QStringLiteral("the number of invites must be in [1, %1], got %2")
                                        .arg(kMaxInvitesPerCall)
                                        .arg(count)
                                        .toStdString());
    const auto lock = inviteListFile(path).lock();
    QList<InviteLine> lines = readLines(path, false);
    if (lines.isEmpty())
        lines.append({"# Sahaj invite codes: the SHA-256 of each code and whether it was used", {}, false});
    QStringList codes;
    for (int i = 0; i < count; ++i) {
        unsigned char bytes[kCodeBytes];
        if (RAND_bytes(bytes, sizeof bytes) != 1)
            failWith(QStringLiteral("cannot draw random invite codes from OpenSSL"));
        const QByteArrayView view(bytes, sizeof bytes);
        lines.append({{}, hashOf(view), false});
        codes.append(spell(view));
        OPENSSL_cleanse(bytes, sizeof bytes);
    }
    inviteListFile(path).replace(serialise(lines));
    return codes;
}

InviteList InviteList::open(const QString& path) {
    readLines(path, true);
    return InviteList(path);
}

bool InviteList::redeem(const QString& code) const {
    const QByteArray bytes = codeBytes(code);
    if (bytes.isEmpty())
        return false;
    const QByteArray hash = hashOf(bytes);
    const auto lock = inviteListFile(path_).lock();
    QList<InviteLine> lines = readLines(path_, true);
    for (InviteLine& line : lines) {
        if (line.hash != hash)
            continue;
        if (line.used)
            return false;
        line.used = true;
        // Written before answering: once true is returned, the file already holds "used".
        inviteListFile(path_).replace(serialise(lines));
        return true;
    }
    return false;
}

int InviteList::unusedCount() const {
    int unused = 0;
    for (const InviteLine& line : readLines(path_, true))
        unused += !line.hash.isEmpty() && !line.used;
    return unused;
}

} // namespace sahaj::security
