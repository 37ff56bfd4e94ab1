#include "core/eval/LabelSet.h"

#include "core/eval/BioTag.h"
#include "core/eval/DataFileError.h"

#include <QSet>

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>

namespace sahaj::eval {

namespace {

// Enough names to see what the training data has, few enough for one error line.
constexpr qsizetype kNamesInMessage = 20;

QString knownNames(const QStringList& names) {
    if (names.size() <= kNamesInMessage)
        return names.join(QStringLiteral(", "));
    return names.first(kNamesInMessage).join(QStringLiteral(", ")) +
           QStringLiteral(", ... (%1 in all)").arg(names.size());
}

std::optional<qint64> integerValue(const QString& label) {
    bool ok = false;
    const qint64 value = label.toLongLong(&ok);
    return ok ? std::optional<qint64>(value) : std::nullopt;
}

} // namespace

LabelSet::LabelSet(QStringList names) : names_(std::move(names)) {
    if (names_.isEmpty())
        throw std::invalid_argument("LabelSet: no labels");
    for (int i = 0; i < names_.size(); ++i) {
        if (names_[i].isEmpty())
            throw std::invalid_argument("LabelSet: an empty label name");
        if (ids_.contains(names_[i]))
            throw std::invalid_argument(
                QStringLiteral("LabelSet: label '%1' given twice").arg(names_[i]).toStdString());
        ids_.insert(names_[i], i);
    }
}

LabelSet LabelSet::fromNames(QStringList names) {
    return LabelSet(std::move(names));
}

LabelSet LabelSet::forTags(const std::vector<TaggedSentence>& sentences) {
    std::set<QString> types;
    for (const TaggedSentence& sentence : sentences) {
        for (const QString& tag : sentence.tags) {
            const std::optional<BioTag> parsed = BioTag::parse(tag);
            if (!parsed)
                throw std::invalid_argument(
                    QStringLiteral("LabelSet: tag '%1' is not %2").arg(tag, BioTag::syntax()).toStdString());
            if (parsed->kind != BioTag::Kind::Outside)
                types.insert(parsed->type);
        }
    }
    QStringList names{QStringLiteral("O")};
    for (const QString& type : types)
        names << QStringLiteral("B-") + type << QStringLiteral("I-") + type;
    return LabelSet(std::move(names));
}

LabelSet LabelSet::forClasses(const std::vector<LabelledText>& examples) {
    QStringList names;
    QSet<QString> seen;
    for (const LabelledText& example : examples) {
        if (!seen.contains(example.label)) {
            seen.insert(example.label);
            names.push_back(example.label);
        }
    }
    const bool numeric = std::all_of(names.cbegin(), names.cend(),
                                     [](const QString& name) { return integerValue(name).has_value(); });
    if (numeric) {
        // Ties ("7" and "07") fall back to the text so the order stays independent of the data's order.
        std::sort(names.begin(), names.end(), [](const QString& a, const QString& b) {
            const qint64 x = *integerValue(a);
            const qint64 y = *integerValue(b);
            return x != y ? x < y : QString::compare(a, b) < 0;
        });
    } else {
        std::sort(names.begin(), names.end(),
                  [](const QString& a, const QString& b) { return QString::compare(a, b) < 0; });
    }
    return LabelSet(std::move(names));
}

const QString& LabelSet::name(int id) const {
    if (id < 0 || id >= size())
        throw std::out_of_range(
            QStringLiteral("LabelSet: label id %1 outside [0, %2)").arg(id).arg(size()).toStdString());
    return names_[id];
}

void LabelSet::checkLabel(const QString& label, qint64 line, const QString& path) const {
    if (!ids_.contains(label))
        throw DataFileError(path, line,
                            QStringLiteral("label '%1' does not occur in the training data (known: %2)")
                                .arg(label, knownNames(names_)));
}

void LabelSet::checkCovers(const std::vector<TaggedSentence>& sentences, const QString& path) const {
    for (const TaggedSentence& sentence : sentences) {
        for (qsizetype i = 0; i < sentence.tags.size(); ++i)
            checkLabel(sentence.tags[i], sentence.line + i, path);
    }
}

void LabelSet::checkCovers(const std::vector<LabelledText>& examples, const QString& path) const {
    for (const LabelledText& example : examples)
        checkLabel(example.label, example.line, path);
}

} // namespace sahaj::eval
