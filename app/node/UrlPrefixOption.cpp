#include "app/node/UrlPrefixOption.h"

namespace sahaj::node {

void UrlPrefixOption::add(QCommandLineParser& parser, const QString& what) {
    parser.addOption({"url-prefix",
                      "Where volunteers download " + what +
                          ": each one's place is URL/ + its file name; repeat for mirrors, tried in order "
                          "(https://, or http:// on a loopback or private address).",
                      "URL"});
}

QStringList UrlPrefixOption::places(const QCommandLineParser& parser, const QString& fileName) {
    QStringList urls;
    for (const QString& prefix : parser.values("url-prefix"))
        urls.append(prefix.endsWith('/') ? prefix + fileName : prefix + '/' + fileName);
    return urls;
}

} // namespace sahaj::node
