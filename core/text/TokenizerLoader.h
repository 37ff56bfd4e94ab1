#pragma once

#include <QByteArray>
#include <QString>

#include <memory>

namespace sahaj::text {

class TokenizerPipeline;

// Reads a Hugging Face tokenizer.json into a TokenizerPipeline. Everything the file asks for must be
// supported; anything else is refused with a TokenizerError that names the file and the component
// ("tokenizer.json: normalizer type 'BertNormalizer' is not supported"), never silently ignored.
class TokenizerLoader {
public:
    static std::shared_ptr<const TokenizerPipeline> load(const QByteArray& json, const QString& origin);
};

} // namespace sahaj::text
