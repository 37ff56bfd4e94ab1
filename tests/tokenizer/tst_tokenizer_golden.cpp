// Golden comparison with Hugging Face tokenizers: every string of tests/tokenizer/data/sahajbert-golden.json
// (written by scripts/tokenizer-golden/generate.js with the tokenizers Node binding) must come out of our
// tokenizer with exactly the same ids, tokens, type ids, normalized text, pre-tokenized pieces and decoded
// text.
#include "core/text/Tokenizer.h"
#include "core/text/TokenizerUnicode.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>

using sahaj::text::Encoding;
using sahaj::text::Tokenizer;
using Json = nlohmann::json;

namespace {

constexpr int kMaxReported = 10;

// The golden file is read with nlohmann::json rather than QJsonDocument, which drops a U+FEFF at the
// start of a string value (and one of the golden strings starts with it).
QString text(const Json& value) {
    const std::string& utf8 = value.get_ref<const std::string&>();
    return sahaj::text::TokenizerUnicode::fromUtf8(QByteArrayView(utf8.data(), qsizetype(utf8.size())));
}

std::vector<int> toIds(const Json& value) {
    return value.get<std::vector<int>>();
}

std::vector<QString> toStrings(const Json& value) {
    std::vector<QString> strings;
    for (const Json& s : value)
        strings.push_back(text(s));
    return strings;
}

// Control, zero-width and other invisible characters spelled as \uXXXX, long strings shortened.
QString visible(const QString& text, int limit = 90) {
    QString out;
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (u < 0x20 || (u >= 0x7F && u < 0xA0) || (u >= 0x200B && u <= 0x200F) || u == 0xFEFF || u == 0xAD ||
            u == 0x2060 || c.isSurrogate())
            out += QStringLiteral("\\u%1").arg(int(u), 4, 16, QLatin1Char('0'));
        else
            out += c;
        if (out.size() > limit)
            return out + QStringLiteral("…(%1 chars)").arg(text.size());
    }
    return out;
}

QString join(const std::vector<int>& ids) {
    QStringList parts;
    for (const int id : ids)
        parts << QString::number(id);
    return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
}

QString join(const std::vector<QString>& tokens) {
    QStringList parts;
    for (const QString& token : tokens)
        parts << QLatin1Char('\'') + visible(token, 30) + QLatin1Char('\'');
    return QLatin1Char('[') + parts.join(QLatin1Char(' ')) + QLatin1Char(']');
}

class TokenizerGoldenTest : public QObject {
    Q_OBJECT

private:
    std::optional<Tokenizer> tokenizer_;
    Json golden_;
    QStringList failures_;

    void report(const QString& what) {
        if (failures_.size() < kMaxReported)
            qWarning().noquote() << what;
        failures_ << what;
    }

private Q_SLOTS:
    void initTestCase() {
        const QByteArray shared = qgetenv("SAHAJ_SHARED_DIR");
        const QString path = QString::fromLocal8Bit(shared) + "/data/sahajbert-tokenizer/tokenizer.json";
        if (shared.isEmpty() || !QFile::exists(path))
            QSKIP(
                "the sahajBERT tokenizer.json is not available (SAHAJ_SHARED_DIR/data/sahajbert-tokenizer)");
        tokenizer_ = Tokenizer::fromFile(path);

        QFile file(QString::fromLocal8Bit(qgetenv("SAHAJ_SOURCE_DIR")) +
                   "/tests/tokenizer/data/sahajbert-golden.json");
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable("cannot read " + file.fileName()));
        const QByteArray bytes = file.readAll();
        try {
            golden_ = Json::parse(bytes.constBegin(), bytes.constEnd());
        } catch (const Json::exception& e) {
            QFAIL(e.what());
        }
        QCOMPARE(golden_.at("tokenizers_version").get<std::string>(), std::string("0.23.2"));
    }

    void init() { failures_.clear(); }

    void sentenceFromTheNotice() {
        const Encoding encoding = tokenizer_->encode(QStringLiteral("আমি বাংলায় গান গাই।"));
        QCOMPARE(encoding.ids, (std::vector<int>{2, 75, 3265, 721, 5641, 6, 3}));
        QCOMPARE(encoding.tokens.at(2), QStringLiteral("▁বাংলায়"));
    }

    void specialTokens() {
        QCOMPARE(tokenizer_->vocabSize(), 32000);
        QCOMPARE(tokenizer_->padId(), 0);
        QCOMPARE(tokenizer_->unkId(), 1);
        QCOMPARE(tokenizer_->clsId(), 2);
        QCOMPARE(tokenizer_->sepId(), 3);
        QCOMPARE(tokenizer_->maskId(), 4);
        QCOMPARE(tokenizer_->specialIds(), (std::vector<int>{0, 1, 2, 3, 4}));
        QCOMPARE(tokenizer_->idToToken(5), QStringLiteral("▁"));
        QCOMPARE(tokenizer_->tokenToId(QStringLiteral("▁করে")), 15);
        QCOMPARE(tokenizer_->tokenToId(QStringLiteral("no such token")), -1);
    }

    void singleTexts() {
        const Json& entries = golden_.at("single");
        QVERIFY2(entries.size() >= 300, "the golden file should hold at least 300 strings");
        for (const Json& entry : entries) {
            const QString input = text(entry.at("text"));
            const QString shown = visible(input);
            const Encoding got = tokenizer_->encode(input);
            const std::vector<int> ids = toIds(entry.at("ids"));
            const std::vector<QString> tokens = toStrings(entry.at("tokens"));
            if (got.ids != ids || got.tokens != tokens)
                report(QStringLiteral("encode \"%1\"\n    expected %2 %3\n    got      %4 %5")
                           .arg(shown, join(ids), join(tokens), join(got.ids), join(got.tokens)));
            if (got.typeIds.size() != ids.size() ||
                std::any_of(got.typeIds.begin(), got.typeIds.end(), [](int type) { return type != 0; }))
                report(QStringLiteral("type ids of \"%1\" are not all 0").arg(shown));
            const std::vector<int> plain = toIds(entry.at("ids_no_special"));
            if (tokenizer_->encodeIds(input) != plain || tokenizer_->encode(input, false).ids != plain)
                report(QStringLiteral("encode without special tokens \"%1\": expected %2, got %3")
                           .arg(shown, join(plain), join(tokenizer_->encodeIds(input))));
            const QString normalized = tokenizer_->normalize(input);
            if (normalized != text(entry.at("normalized")))
                report(QStringLiteral("normalize \"%1\": expected \"%2\", got \"%3\"")
                           .arg(shown, visible(text(entry.at("normalized"))), visible(normalized)));
            const std::vector<QString> pieces = toStrings(entry.at("pieces"));
            const QStringList gotPieces = tokenizer_->preTokenize(text(entry.at("normalized")));
            if (std::vector<QString>(gotPieces.begin(), gotPieces.end()) != pieces)
                report(QStringLiteral("pre-tokenize \"%1\": expected %2, got %3")
                           .arg(shown, join(pieces),
                                join(std::vector<QString>(gotPieces.begin(), gotPieces.end()))));
            const QString decoded = tokenizer_->decode(ids, true);
            if (decoded != text(entry.at("decoded")))
                report(QStringLiteral("decode %1: expected \"%2\", got \"%3\"")
                           .arg(join(ids), visible(text(entry.at("decoded"))), visible(decoded)));
            const QString raw = tokenizer_->decode(ids, false);
            if (raw != text(entry.at("decoded_with_special")))
                report(QStringLiteral("decode with special tokens %1: expected \"%2\", got \"%3\"")
                           .arg(join(ids), visible(text(entry.at("decoded_with_special"))), visible(raw)));
        }
        QVERIFY2(failures_.isEmpty(),
                 qPrintable(QStringLiteral("%1 disagreements with Hugging Face tokenizers "
                                           "over %2 strings (the first are printed above)")
                                .arg(failures_.size())
                                .arg(entries.size())));
    }

    void pairs() {
        const Json& entries = golden_.at("pair");
        QVERIFY(entries.size() >= 20);
        for (const Json& entry : entries) {
            const QString a = text(entry.at("a"));
            const QString b = text(entry.at("b"));
            const Encoding got = tokenizer_->encodePair(a, b);
            if (got.ids != toIds(entry.at("ids")) || got.typeIds != toIds(entry.at("type_ids")) ||
                got.tokens != toStrings(entry.at("tokens")))
                report(
                    QStringLiteral("pair \"%1\" / \"%2\"\n    expected %3 types %4\n    got      %5 types %6")
                        .arg(visible(a, 40), visible(b, 40), join(toIds(entry.at("ids"))),
                             join(toIds(entry.at("type_ids"))), join(got.ids), join(got.typeIds)));
            const Encoding plain = tokenizer_->encodePair(a, b, false);
            if (plain.ids != toIds(entry.at("ids_no_special")) ||
                plain.typeIds != toIds(entry.at("type_ids_no_special")))
                report(QStringLiteral(
                           "pair without special tokens \"%1\" / \"%2\": expected %3 types %4, got %5 "
                           "types %6")
                           .arg(visible(a, 40), visible(b, 40), join(toIds(entry.at("ids_no_special"))),
                                join(toIds(entry.at("type_ids_no_special"))), join(plain.ids),
                                join(plain.typeIds)));
        }
        QVERIFY2(failures_.isEmpty(),
                 qPrintable(QStringLiteral("%1 pair disagreements").arg(failures_.size())));
    }

    // The tokenizer is shared between threads (one per data loader); all must see the same results.
    void concurrentUse() {
        const Json& entries = golden_.at("single");
        std::atomic<int> wrong{0};
        const Tokenizer shared = *tokenizer_;
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&entries, &wrong, shared, t] {
                for (std::size_t i = std::size_t(t); i < entries.size(); i += 2) {
                    const Json& entry = entries[i];
                    if (shared.encode(text(entry.at("text"))).ids != toIds(entry.at("ids")))
                        ++wrong;
                }
            });
        }
        for (std::thread& thread : threads)
            thread.join();
        QCOMPARE(wrong.load(), 0);
    }
};

} // namespace

QTEST_GUILESS_MAIN(TokenizerGoldenTest)
#include "tst_tokenizer_golden.moc"
