#pragma once

#include <QString>

namespace sahaj::testing {

// A join link as an organiser gives it: a small run's manifest, signed by a fresh organiser key (the same
// link for the whole test run). The wizard verifies the run before it goes on, so tests that walk through
// it paste this.
QString signedJoinLink();

} // namespace sahaj::testing
