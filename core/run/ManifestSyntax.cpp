#include "core/run/ManifestSyntax.h"

#include <QRegularExpression>
#include <QUrl>

#include <arpa/inet.h>

#include <algorithm>
#include <optional>

namespace sahaj::run {

namespace {

bool matchesWhole(const QString& text, const QString& pattern) {
    const QRegularExpression expression(QRegularExpression::anchoredPattern(pattern));
    return expression.match(text).hasMatch();
}

std::optional<QUrl> strictUrl(const QString& text) {
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.hasFragment())
        return std::nullopt;
    return url;
}

// Loopback and private addresses, where plain http is acceptable (see isRemoteUrl). Numeric addresses
// only, besides "localhost": a name could resolve anywhere.
bool isLocalHost(const QString& host) {
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QByteArray text = host.toLatin1();
    unsigned char v4[4];
    if (inet_pton(AF_INET, text.constData(), v4) == 1)
        return v4[0] == 127 || v4[0] == 10 || (v4[0] == 172 && (v4[1] & 0xf0) == 16) ||
               (v4[0] == 192 && v4[1] == 168);
    unsigned char v6[16];
    const QByteArray bare = text.startsWith('[') && text.endsWith(']') ? text.mid(1, text.size() - 2) : text;
    if (inet_pton(AF_INET6, bare.constData(), v6) != 1)
        return false;
    static constexpr unsigned char kLoopback[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    return std::equal(v6, v6 + 16, kLoopback) || (v6[0] & 0xfe) == 0xfc;
}

} // namespace

bool ManifestSyntax::isRunId(const QString& text) {
    return matchesWhole(text, QStringLiteral("[a-z0-9][a-z0-9-]{0,63}"));
}

QString ManifestSyntax::runIdRule() {
    return QStringLiteral("1 to 64 characters of a-z, 0-9 and '-', starting with a letter or digit");
}

bool ManifestSyntax::isSha256Hex(const QString& text) {
    return matchesWhole(text, QStringLiteral("[0-9a-f]{64}"));
}

bool ManifestSyntax::isHostPort(const QString& text) {
    const qsizetype colon = text.lastIndexOf(':');
    if (colon <= 0)
        return false;
    const QString host = text.left(colon);
    const QString port = text.mid(colon + 1);
    bool ok = false;
    const int number = port.toInt(&ok);
    if (!ok || !matchesWhole(port, QStringLiteral("[0-9]{1,5}")) || number < 1 || number > 65535)
        return false;
    if (host.startsWith('['))
        return matchesWhole(host, QStringLiteral("\\[[0-9A-Fa-f:.]{2,45}\\]"));
    // DNS labels (an IPv4 address spells as one too): letters, digits and inner hyphens.
    const QString label = QStringLiteral("[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?");
    return host.size() <= 253 && matchesWhole(host, label + QStringLiteral("(?:\\.") + label + ')' + '*');
}

QString ManifestSyntax::hostPortRule() {
    return QStringLiteral("HOST:PORT (a host name, an IPv4 address or a bracketed IPv6 address, and a port "
                          "in [1, 65535])");
}

bool ManifestSyntax::isShardUrl(const QString& text) {
    const std::optional<QUrl> url = strictUrl(text);
    if (!url)
        return false;
    if (url->scheme() == QLatin1String("file"))
        return url->host().isEmpty() && !url->hasQuery() && url->path().startsWith('/');
    return isRemoteUrl(text);
}

QString ManifestSyntax::shardUrlRule() {
    return QStringLiteral("file:///absolute/path or ") + remoteUrlRule();
}

bool ManifestSyntax::isRemoteUrl(const QString& text) {
    const std::optional<QUrl> url = strictUrl(text);
    if (!url || url->host().isEmpty() || !url->userInfo().isEmpty())
        return false;
    if (url->scheme() == QLatin1String("https"))
        return true;
    return url->scheme() == QLatin1String("http") && isLocalHost(url->host());
}

QString ManifestSyntax::remoteUrlRule() {
    return QStringLiteral("https://host/path, or http:// on a loopback or private address (percent-encoded)");
}

QString ManifestSyntax::joinUrlProblem(const QString& text) {
    if (isRemoteUrl(text) ||
        !(text.startsWith(QLatin1String("http:")) || text.startsWith(QLatin1String("https:"))))
        return {};
    return QStringLiteral("'%1' is not a URL a run can be joined from: %2").arg(text, remoteUrlRule());
}

} // namespace sahaj::run
