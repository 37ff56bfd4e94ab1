#include "core/device/HeartbeatSender.h"

#include "core/compute/CoreProtocol.h"

namespace sahaj::device {

HeartbeatSender::HeartbeatSender(compute::CoreChannel& channel)
    : channel_(channel), thread_([this] { beat(); }) {}

HeartbeatSender::~HeartbeatSender() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void HeartbeatSender::beat() {
    std::uint64_t sequence = 0;
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, compute::CoreProtocol::kHeartbeatInterval, [this] { return stopping_; })) {
        corechannel::CoreMessage message;
        message.mutable_heartbeat()->set_sequence(++sequence);
        try {
            channel_.send(message);
        } catch (const std::exception&) {
            return; // the engine is gone: the work in progress fails on its own reply
        }
    }
}

} // namespace sahaj::device
