// Picks varied Bengali sentences from gettext catalogues (.po text written by msgunfmt) and writes
// them as a JSON array. Usage: node pick-bengali.js OUTPUT.json FILE.po...
// The choice is deterministic (sorted by length, then sampled evenly, plus the longest strings), so
// running it again on the same catalogues gives the same file.
"use strict";
const fs = require("fs");

const kEvenlySpaced = 200;
const kLongest = 30;

// Undoes the C escapes msgunfmt writes inside "..." (the catalogue text itself is UTF-8).
function unescapePo(s) {
  return s.replace(/\\(["\\ntrabfv]|[0-7]{1,3})/g, (_, e) => {
    const simple = { '"': '"', "\\": "\\", n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v" };
    return e in simple ? simple[e] : String.fromCharCode(parseInt(e, 8));
  });
}

// Returns every msgstr / msgstr[n] value of one .po text, continuation lines joined.
function msgstrValues(text) {
  const values = [];
  let current = null;
  for (const line of text.split("\n")) {
    const start = line.match(/^msgstr(\[\d+\])? "(.*)"$/);
    if (start) {
      if (current !== null) values.push(current);
      current = unescapePo(start[2]);
    } else if (current !== null && /^".*"$/.test(line)) {
      current += unescapePo(line.slice(1, -1));
    } else if (current !== null) {
      values.push(current);
      current = null;
    }
  }
  if (current !== null) values.push(current);
  return values;
}

const [output, ...inputs] = process.argv.slice(2);
if (!output || inputs.length === 0) {
  console.error("usage: node pick-bengali.js OUTPUT.json FILE.po...");
  process.exit(2);
}
const bengaliLetter = /[\u0985-\u09b9]/;
const unique = new Set();
for (const file of inputs) {
  for (const value of msgstrValues(fs.readFileSync(file, "utf8"))) {
    // The catalogue header is not a translation.
    if (value.startsWith("Project-Id-Version") || !bengaliLetter.test(value)) continue;
    unique.add(value);
  }
}
const sorted = [...unique].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
const chosen = new Set(sorted.slice(-kLongest));
const rest = sorted.slice(0, -kLongest);
for (let i = 0; i < kEvenlySpaced && rest.length > 0; ++i)
  chosen.add(rest[Math.floor((i * rest.length) / kEvenlySpaced)]);
const picked = sorted.filter((s) => chosen.has(s));
fs.writeFileSync(output, JSON.stringify(picked, null, 1) + "\n");
console.log(`${unique.size} Bengali strings, picked ${picked.length} into ${output}`);
