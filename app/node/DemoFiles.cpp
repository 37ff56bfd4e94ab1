#include "app/node/DemoFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace sahaj::node {

namespace {

QString firstFile(const QStringList& candidates) {
    for (const QString& candidate : candidates)
        if (!candidate.isEmpty() && QFileInfo(candidate).isFile())
            return QFileInfo(candidate).absoluteFilePath();
    return {};
}

} // namespace

DemoFiles DemoFiles::locate() {
    const QDir here(QCoreApplication::applicationDirPath());
    const QString demoDir = qEnvironmentVariable("SAHAJ_DEMO_DIR");
    DemoFiles files;
    files.nodeProgram = firstFile(
        {here.filePath(QStringLiteral("sahaj-node")), here.filePath(QStringLiteral("../node/sahaj-node"))});
    files.corpus =
        firstFile({demoDir.isEmpty() ? QString() : QDir(demoDir).filePath(QStringLiteral("train.txt")),
                   here.filePath(QStringLiteral("../share/sahaj/demo/train.txt")),
                   here.filePath(QStringLiteral("../../data/demo-corpus/train.txt"))});
    files.tokenizer =
        firstFile({demoDir.isEmpty() ? QString() : QDir(demoDir).filePath(QStringLiteral("tokenizer.json")),
                   here.filePath(QStringLiteral("../share/sahaj/demo/tokenizer.json")),
                   here.filePath(QStringLiteral("../../runs/tokenizer/tokenizer.json"))});
    return files;
}

QString DemoFiles::problem() const {
    if (nodeProgram.isEmpty())
        return QStringLiteral("sahaj-node is not installed beside sahaj-volunteer");
    if (corpus.isEmpty() || tokenizer.isEmpty())
        return QStringLiteral(
            "the demo's training text and tokenizer are missing: install the sahaj package, "
            "run scripts/run.sh once in a source tree, or set SAHAJ_DEMO_DIR to a folder "
            "with train.txt and tokenizer.json");
    return {};
}

} // namespace sahaj::node
