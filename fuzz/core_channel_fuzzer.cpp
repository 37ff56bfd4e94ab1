// Fuzz target: bytes on the engine-core channel as compute::CoreChannel reads them (frames of a length
// and a CoreMessage; a core receives what an engine sends, an engine what a core sends), and each Compute
// batch through TokenBatchMessage::decode with sahajBERT's limits. An accepted batch must be exactly what
// the limits allow: rows x width values in every array, ids inside the vocabulary.
#include "core/compute/CoreChannel.h"
#include "core/compute/TokenBatchMessage.h"
#include "fuzz/InputVerdict.h"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>

using namespace sahaj::compute;
using sahaj::fuzz::InputVerdict;

namespace {

void check(const TokenBatch& batch, const TokenBatchMessage::Limits& limits) {
    const auto cells = static_cast<std::size_t>(batch.rows * batch.width);
    if (batch.rows < 1 || batch.rows > limits.maxRows || batch.width < 1 || batch.width > limits.maxWidth ||
        batch.inputIds.size() != cells || batch.attentionMask.size() != cells ||
        batch.tokenTypeIds.size() != cells || batch.mlmLabels.size() != cells ||
        batch.sopLabels.size() != static_cast<std::size_t>(batch.rows))
        std::abort();
    for (std::size_t i = 0; i < cells; ++i)
        if (batch.inputIds[i] < 0 || batch.inputIds[i] >= limits.vocabulary ||
            (batch.mlmLabels[i] != TokenBatch::kIgnoreLabel &&
             (batch.mlmLabels[i] < 0 || batch.mlmLabels[i] >= limits.vocabulary)))
            std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 60000) // what one write fits in a socket's buffer: the target needs no second thread
        return 0;
    auto [writer, reader] = CoreChannel::socketPair();
    if (::write(writer.get(), data, size) != static_cast<ssize_t>(size))
        std::abort();
    writer.reset(); // then end-of-file: every input ends in ChannelClosed or a refusal
    CoreChannel channel(std::move(reader));
    TokenBatchMessage::Limits limits;
    limits.vocabulary = 32000;
    limits.maxWidth = 512;
    try {
        for (;;) {
            std::optional<CoreChannel::Received> received = channel.receive(std::chrono::seconds(5));
            if (!received)
                std::abort(); // the data is all there and the writer closed: no wait may time out
            if (received->message.body_case() != sahaj::corechannel::CoreMessage::kCompute)
                continue;
            try {
                check(TokenBatchMessage::decode(received->message.compute().batch(), limits), limits);
                InputVerdict::accepted();
            } catch (const std::invalid_argument& e) {
                InputVerdict::refused(e);
            }
        }
    } catch (const ChannelClosed&) {
    } catch (const std::runtime_error& e) {
        InputVerdict::refused(e);
    }
    return 0;
}
