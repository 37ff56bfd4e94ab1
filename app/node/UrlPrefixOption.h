#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

namespace sahaj::node {

// `--url-prefix URL` (repeatable): where volunteers download a run's files, each at URL/ + its file name,
// the prefixes tried in order (mirrors). Shared by run-init and shard so that both lay the URLs out alike
// (and a coordinator's --serve-data folder matches them).
class UrlPrefixOption {
public:
    static void add(QCommandLineParser& parser, const QString& what);
    // The places of a file named `fileName` (percent-encoded), one per prefix given.
    static QStringList places(const QCommandLineParser& parser, const QString& fileName);
};

} // namespace sahaj::node
