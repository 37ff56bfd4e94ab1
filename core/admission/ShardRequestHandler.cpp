#include "core/admission/ShardRequestHandler.h"

#include "core/admission/AdmittedToken.h"

#include "core/net/WireLimits.h"
#include "core/net/WireText.h"

#include <QByteArray>
#include <QFile>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace sahaj::admission {

namespace {

// The burst a requester may take at once: a few pieces, so that a full window of requests is served
// back to back before the cap spaces them out.
constexpr double kBurstPieces = 4;

} // namespace

ShardRequestHandler::ShardRequestHandler(ShardLibrary library, security::PeerId organiser, QString runId,
                                         double bytesPerSecond)
    : library_(std::move(library)), organiser_(std::move(organiser)), runId_(std::move(runId)),
      bucket_(bytesPerSecond, kBurstPieces * net::WireLimits::kMaxShardPieceBytes) {}

QString ShardRequestHandler::tokenProblem(const wire::Envelope& request, const std::string& connectionUser,
                                          qint64 nowSeconds) const {
    return AdmittedToken::problem(request.shard_request().token(), request.sender(), connectionUser,
                                  organiser_, runId_, nowSeconds);
}

ShardRequestHandler::Answer ShardRequestHandler::answer(const wire::Envelope& request,
                                                        const std::string& connectionUser, qint64 nowSeconds,
                                                        net::TokenBucket::Clock::time_point now) {
    const wire::ShardRequest& body = request.shard_request();
    Answer answer;
    answer.reply.set_sha256(body.sha256());
    answer.reply.set_offset(body.offset());
    const auto refuse = [&](const QString& why) {
        answer.reply.set_total(std::max<std::uint64_t>(1, answer.reply.total()));
        answer.reply.set_refusal(net::WireText::bounded(why));
        return answer;
    };
    if (const QString problem = tokenProblem(request, connectionUser, nowSeconds); !problem.isEmpty())
        return refuse(QStringLiteral("not admitted: ") + problem);
    const QString sha256 = QString::fromLatin1(QByteArray::fromStdString(body.sha256()).toHex());
    const std::optional<ShardLibrary::Entry> entry = library_.find(sha256);
    if (!entry)
        return refuse(QStringLiteral("this mirror does not serve the file with SHA-256 %1").arg(sha256));
    answer.reply.set_total(std::uint64_t(entry->bytes));
    if (body.offset() >= std::uint64_t(entry->bytes))
        return refuse(
            QStringLiteral("offset %1 is past the file's %2 bytes").arg(body.offset()).arg(entry->bytes));

    if (const auto wait = bucket_.reserve(0, now); wait.count() > 0) {
        const auto ms = std::chrono::ceil<std::chrono::milliseconds>(wait).count();
        answer.reply.set_retry_after_ms(
            std::uint32_t(std::clamp<std::int64_t>(ms, 1, net::WireLimits::kMaxRetryAfterMs)));
        return answer;
    }
    const std::int64_t length =
        std::min<std::int64_t>(body.length(), entry->bytes - std::int64_t(body.offset()));
    QFile file(entry->path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(qint64(body.offset())))
        return refuse(QStringLiteral("the mirror cannot read the file: %1").arg(file.errorString()));
    answer.bytes = file.read(length);
    if (answer.bytes.size() != length)
        // The file changed under the mirror (truncated): never serve fewer bytes than the piece asks.
        return answer.bytes.clear(), refuse(QStringLiteral("the mirror's copy of the file changed"));
    bucket_.reserve(std::uint64_t(length), now);
    return answer;
}

} // namespace sahaj::admission
