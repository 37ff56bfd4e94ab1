#pragma once

#include "core/eval/LabelledText.h"
#include "core/eval/TaggedSentence.h"

#include <QHash>
#include <QStringList>

#include <vector>

namespace sahaj::eval {

// The ordered label vocabulary of a task: label i is the model's output i. The order depends only on
// the set of labels, never on the order of the data, so the same training data gives the same head.
class LabelSet {
public:
    // "O", then B-TYPE and I-TYPE for every entity type seen, types sorted. Both tags of a type are
    // there even when the data has only one of them, since a model may predict the other. Throws
    // std::invalid_argument for a tag that is not O, B-TYPE or I-TYPE.
    static LabelSet forTags(const std::vector<TaggedSentence>& sentences);
    // The distinct labels, in numeric order when all are integers (so "10" follows "9"), else by
    // QString::compare.
    static LabelSet forClasses(const std::vector<LabelledText>& examples);
    // Names in the given order (as a checkpoint stores them). Throws std::invalid_argument for no names,
    // an empty name or a name given twice.
    static LabelSet fromNames(QStringList names);

    int size() const { return static_cast<int>(names_.size()); }
    // The id of a label, -1 when it is not in the set.
    int id(const QString& name) const { return ids_.value(name, -1); }
    // Throws std::out_of_range for an id outside [0, size()).
    const QString& name(int id) const;
    const QStringList& names() const { return names_; }

    // Throws DataFileError (a std::runtime_error) "PATH:LINE: label 'X' does not occur in the training
    // data (known: ...)" for the first label of the data that is not in the set: a model cannot be
    // scored on a label it has no output for.
    void checkCovers(const std::vector<TaggedSentence>& sentences, const QString& path) const;
    void checkCovers(const std::vector<LabelledText>& examples, const QString& path) const;

private:
    explicit LabelSet(QStringList names);
    void checkLabel(const QString& label, qint64 line, const QString& path) const;

    QStringList names_;
    QHash<QString, int> ids_;
};

} // namespace sahaj::eval
