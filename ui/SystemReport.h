#pragma once

#include "core/engine/EngineSnapshot.h"

#include <QString>

namespace sahaj::ui {

// What a bug report needs to know about this installation, as plain English lines (Help ▸ Copy system
// information): the version, Qt, the system, and the engine's state, run, role, compute and peers. No
// settings, paths, user names or secrets.
class SystemReport {
public:
    static QString of(const engine::EngineSnapshot& snapshot);
};

} // namespace sahaj::ui
