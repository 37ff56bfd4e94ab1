#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace sahaj::engine {

// The DHT nodes a coordinator knew, kept in its state folder (dht-nodes.txt, one "host:port" a line) so that
// a coordinator that restarts finds the swarm it left. It is the run's first node: it bootstraps from
// nobody, and the volunteers that stayed know each other and never look for it again, so without its old
// neighbours it would be a network of its own, which newcomers join (seen in the soak: a run split in two,
// each side seeing only its own records). It pings these addresses while it knows no node
// (DhtNode::bootstrapAgainIfAlone), and the two meet again.
class KnownDhtNodes {
public:
    static constexpr int kMaxNodes = 64;

    // The addresses saved in `stateDir`, at most kMaxNodes; none without the file. A line that is not a
    // host:port is skipped, and a file that cannot be read gives none: the coordinator starts alone, as
    // before.
    static QStringList load(const QString& stateDir);
    // Replaces the file with `addresses` (the first kMaxNodes). Returns what went wrong, or "".
    static QString save(const QString& stateDir, const std::vector<QString>& addresses);

    static QString pathIn(const QString& stateDir);
};

} // namespace sahaj::engine
