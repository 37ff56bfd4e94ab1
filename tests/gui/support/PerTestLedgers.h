#pragma once

#include <QString>
#include <QTemporaryDir>

namespace sahaj::testing {

// A temporary folder holding a contribution ledger for each test function (and data row), so that no test
// reads the history another one wrote.
class PerTestLedgers {
public:
    // The ledger file of the test function running now; it does not exist until a ledger opens it. A folder
    // that cannot be made ends the test run.
    QString path() const;

private:
    QTemporaryDir dir_;
};

} // namespace sahaj::testing
