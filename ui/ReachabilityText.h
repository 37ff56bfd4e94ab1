#pragma once

#include "core/engine/Reachability.h"

#include <QCoreApplication>
#include <QString>

namespace sahaj::ui {

// Whether the other volunteers can connect to this computer, and what follows for its part in the
// averaging, in the user's language (the Bandwidth tab, under the share of the rounds).
class ReachabilityText {
    Q_DECLARE_TR_FUNCTIONS(sahaj::ui::ReachabilityText)

public:
    // Empty before the first join.
    static QString of(const engine::Reachability& reachability);
};

} // namespace sahaj::ui
