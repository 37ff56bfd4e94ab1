#include "app/node/StopSignalScope.h"

#include <csignal>

namespace sahaj::node {

namespace {

std::atomic<bool> stopRequested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the stop flag is written from a signal handler");

extern "C" void requestStop(int signal) {
    stopRequested.store(true);
    std::signal(signal, SIG_DFL);
}

} // namespace

StopSignalScope::StopSignalScope() {
    stopRequested.store(false);
    previousInt_ = std::signal(SIGINT, requestStop);
    previousTerm_ = std::signal(SIGTERM, requestStop);
}

StopSignalScope::~StopSignalScope() {
    std::signal(SIGINT, previousInt_);
    std::signal(SIGTERM, previousTerm_);
}

const std::atomic<bool>& StopSignalScope::requested() {
    return stopRequested;
}

} // namespace sahaj::node
