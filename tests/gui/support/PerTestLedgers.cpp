#include "PerTestLedgers.h"

#include <QTest>
#include <QUrl>

namespace sahaj::testing {

QString PerTestLedgers::path() const {
    if (!dir_.isValid())
        qFatal("no temporary folder for the ledgers: %s", qPrintable(dir_.errorString()));
    QByteArray name = QTest::currentTestFunction();
    // A data row's tag may hold any character: percent-encoded, it is a file name.
    if (const char* row = QTest::currentDataTag())
        name += '-' + QUrl::toPercentEncoding(QString::fromUtf8(row));
    return dir_.filePath(QStringLiteral("ledger-%1.sqlite").arg(QString::fromLatin1(name)));
}

} // namespace sahaj::testing
