#pragma once

#include <QtGlobal>

namespace sahaj::store {

// Bounds on what the contribution ledger stores.
struct LedgerLimits {
    // 9999-12-31T23:59:59.999Z in ms since 1970: times stay far from overflow when days are added.
    static constexpr qint64 kMaxTimeMs = 253402300799999;
    static constexpr qsizetype kMaxRunIdLength = 128;
    static constexpr qsizetype kMaxRoleLength = 32;
};

} // namespace sahaj::store
