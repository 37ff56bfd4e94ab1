#pragma once

#include <QtGlobal>

namespace sahaj::ui {

// Spans of time in milliseconds, as timers, charts and the snooze count them.
inline constexpr qint64 kMinuteMs = 60'000;
inline constexpr qint64 kHourMs = 60 * kMinuteMs;
inline constexpr qint64 kDayMs = 24 * kHourMs;

} // namespace sahaj::ui
