#pragma once

#include "core/compute/CoreChannel.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace sahaj::device {

// While it lives, sends a Heartbeat on the channel every CoreProtocol::kHeartbeatInterval from a thread of
// its own, so that the engine can tell a core that works on a long micro-batch from one that hangs.
class HeartbeatSender {
public:
    explicit HeartbeatSender(compute::CoreChannel& channel);
    ~HeartbeatSender();
    HeartbeatSender(const HeartbeatSender&) = delete;
    HeartbeatSender& operator=(const HeartbeatSender&) = delete;

private:
    void beat();

    compute::CoreChannel& channel_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace sahaj::device
