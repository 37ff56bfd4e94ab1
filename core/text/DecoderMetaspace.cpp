#include "core/text/DecoderMetaspace.h"

#include "core/text/TokenizerUnicode.h"

namespace sahaj::text {

QString DecoderMetaspace::decode(const std::vector<QString>& tokens) const {
    QString text;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const QStringView token(tokens[i]);
        for (qsizetype j = 0; j < token.size();) {
            int units = 1;
            const char32_t c = TokenizerUnicode::codePointAt(token, j, &units);
            if (c != replacement_)
                text.append(token.mid(j, units));
            else if (!(i == 0 && dropInFirstToken_))
                text.append(u' ');
            j += units;
        }
    }
    return text;
}

} // namespace sahaj::text
