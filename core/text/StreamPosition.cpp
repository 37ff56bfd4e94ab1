#include "core/text/StreamPosition.h"

#include <QJsonValue>

#include <cmath>
#include <stdexcept>

namespace sahaj::text {

namespace {

// JSON numbers are doubles: integers are exact up to 2^53, far beyond any real count here.
constexpr double kMaxExact = 9007199254740992.0;

std::uint64_t readCount(const QJsonObject& json, const char* key) {
    const QJsonValue value = json.value(QLatin1String(key));
    const double number = value.toDouble(-1.0);
    if (!value.isDouble() || number < 0.0 || number > kMaxExact || std::floor(number) != number)
        throw std::runtime_error(std::string("stream position: \"") + key +
                                 "\" must be a non-negative integer");
    return static_cast<std::uint64_t>(number);
}

} // namespace

QJsonObject StreamPosition::toJson() const {
    return QJsonObject{{"batch", static_cast<double>(batch)},
                       {"pass", static_cast<double>(pass)},
                       {"document", static_cast<double>(document)},
                       {"example", static_cast<double>(example)}};
}

StreamPosition StreamPosition::fromJson(const QJsonObject& json) {
    StreamPosition position;
    position.batch = readCount(json, "batch");
    position.pass = readCount(json, "pass");
    position.document = readCount(json, "document");
    position.example = readCount(json, "example");
    return position;
}

} // namespace sahaj::text
