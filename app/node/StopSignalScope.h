#pragma once

#include <atomic>

namespace sahaj::node {

// For the lifetime of a long run: SIGINT/SIGTERM set a flag that the run polls (to save its work and
// stop); a second signal ends the process at once, as users expect when saving takes too long. The
// previous handlers are restored afterwards.
class StopSignalScope {
public:
    StopSignalScope();
    ~StopSignalScope();
    StopSignalScope(const StopSignalScope&) = delete;
    StopSignalScope& operator=(const StopSignalScope&) = delete;

    // Set once a stop was requested; safe to read from any thread.
    static const std::atomic<bool>& requested();

private:
    void (*previousInt_)(int);
    void (*previousTerm_)(int);
};

} // namespace sahaj::node
