#include "app/node/DownloadProgressPrinter.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <unistd.h>

#include <cmath>
#include <iostream>

namespace sahaj::node {

namespace {

QString mib(double bytes) {
    return QString::number(bytes / double(1 << 20), 'f', 1) + QStringLiteral(" MiB");
}

QString clock(double seconds) {
    const auto s = static_cast<long long>(std::llround(seconds));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

} // namespace

DownloadProgressPrinter::DownloadProgressPrinter() : terminal_(::isatty(STDOUT_FILENO) == 1) {}

QString DownloadProgressPrinter::line(const fetch::DownloadProgress& p) {
    const QString name = QFileInfo(QUrl(p.name).path()).fileName();
    const double share = p.total > 0 ? 100.0 * double(p.done) / double(p.total) : 100.0;
    QString text = QStringLiteral("%1  %2% of %3  %4/s")
                       .arg(name.isEmpty() ? p.name : name)
                       .arg(share, 0, 'f', 1)
                       .arg(mib(double(p.total)), mib(p.bytesPerSecond));
    if (p.finished)
        text += QStringLiteral("  done");
    else if (p.etaSeconds() >= 0)
        text += QStringLiteral("  %1 left").arg(clock(p.etaSeconds()));
    return text;
}

void DownloadProgressPrinter::operator()(const fetch::DownloadProgress& p) {
    const std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    const bool first = p.name != lastName_;
    if (!first && !p.finished && now - last_ < std::chrono::seconds(terminal_ ? 0 : 1))
        return;
    last_ = now;
    lastName_ = p.name;
    if (terminal_) {
        constexpr int kWidth = 30;
        const int filled = p.total > 0 ? int(kWidth * double(p.done) / double(p.total)) : kWidth;
        const QString bar = QString(filled, QLatin1Char('#')) + QString(kWidth - filled, QLatin1Char(' '));
        std::cout << "\r[" << bar.toStdString() << "] " << line(p).toStdString() << "\x1b[K"
                  << (p.finished ? "\n" : "") << std::flush;
        return;
    }
    const QJsonObject event{{"event", "download"},
                            {"name", p.name},
                            {"place", p.place},
                            {"bytes", qint64(p.done)},
                            {"total", qint64(p.total)},
                            {"bytes_per_second", std::round(p.bytesPerSecond)},
                            {"eta_seconds", p.finished ? 0.0 : std::round(p.etaSeconds())},
                            {"finished", p.finished}};
    std::cout << QJsonDocument(event).toJson(QJsonDocument::Compact).toStdString() << "\n" << std::flush;
}

} // namespace sahaj::node
