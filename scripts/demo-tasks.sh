#!/usr/bin/env bash
# Builds two small downstream tasks from Bengali text (the demo corpus, or the test sample of it), for
# `sahaj-node finetune` when WikiANN or IndicGLUE are not at hand:
#   ner-{train,dev,test}.conll       tokens of Latin script (product names, placeholders, commands) are
#                                    LAT entities and numbers NUM entities (BIO tags); sentences with
#                                    entities and as many without
#   classify-{train,dev,test}.jsonl  "sentence" (a full sentence, its final । ? ! removed) against
#                                    "label" (a user-interface label of two or more words), balanced
# Usage: scripts/demo-tasks.sh TRAIN.txt HELDOUT.txt OUTDIR
# TRAIN gives the train split; HELDOUT's odd lines give dev and its even lines test. Blank lines are
# skipped. The output is a function of the input alone.
set -euo pipefail

if [[ $# -ne 3 ]]; then
    echo "usage: $0 TRAIN.txt HELDOUT.txt OUTDIR" >&2
    exit 2
fi
train=$1 heldout=$2 out=$3
for f in "$train" "$heldout"; do
    [[ -r $f ]] || { echo "$0: cannot read $f" >&2; exit 1; }
done
mkdir -p "$out"

# select FILE PART: the non-blank lines of FILE; PART all | odd | even (1-based among non-blank lines).
select_lines() {
    awk -v part="$2" 'NF { n++; if (part == "all" || (part == "odd") == (n % 2 == 1)) print }' "$1"
}

ner() {
    awk '
    function kind(word) {
        if (word ~ /[A-Za-z]/) return "LAT"
        if (word ~ /[0-9]|০|১|২|৩|৪|৫|৬|৭|৮|৯/) return "NUM"
        return "O"
    }
    {
        entities = 0; block = ""; previous = "O"
        for (i = 1; i <= NF; i++) {
            k = kind($i)
            if (k == "O") tag = "O"
            else { tag = (k == previous ? "I-" : "B-") k; entities++ }
            previous = k
            block = block $i "\t" tag "\n"
        }
        if (entities) { with[++w] = block } else { without[++o] = block }
    }
    END {
        # As many sentences without entities as with, taken in file order, interleaved.
        for (i = 1; i <= w || (i <= o && i <= w); i++) {
            printf "%s\n", with[i]
            if (i <= o) printf "%s\n", without[i]
        }
    }'
}

classify() {
    awk '
    function json(text) {
        gsub(/\\/, "\\\\", text); gsub(/"/, "\\\"", text); gsub(/\t/, " ", text)
        return "\"" text "\""
    }
    {
        line = $0
        sub(/[ \t\r]+$/, "", line)
        if (line ~ /(।|\?|!)$/) {
            sub(/[ \t]*(।|\?|!)+$/, "", line)
            if (line != "") sentence[++s] = line
        } else if (NF >= 2) {
            label[++l] = line
        }
    }
    END {
        n = s < l ? s : l
        for (i = 1; i <= n; i++) {
            printf "{\"text\": %s, \"label\": \"sentence\"}\n", json(sentence[i])
            printf "{\"text\": %s, \"label\": \"label\"}\n", json(label[i])
        }
    }'
}

select_lines "$train" all | ner >"$out/ner-train.conll"
select_lines "$heldout" odd | ner >"$out/ner-dev.conll"
select_lines "$heldout" even | ner >"$out/ner-test.conll"
select_lines "$train" all | classify >"$out/classify-train.jsonl"
select_lines "$heldout" odd | classify >"$out/classify-dev.jsonl"
select_lines "$heldout" even | classify >"$out/classify-test.jsonl"

for f in "$out"/ner-*.conll; do
    echo "$f: $(grep -c '^$' "$f") sentences, $(grep -c $'\tB-' "$f") entities"
done
for f in "$out"/classify-*.jsonl; do
    echo "$f: $(wc -l <"$f") examples"
done
