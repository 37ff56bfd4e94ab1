// Times Hugging Face tokenizers (the Node binding of the Rust library) on the lines of a file.
// Usage: node hf_tokenizer_throughput.js TOKENIZER_JSON LINES_FILE ROUNDS
// Prints one JSON object: {"seconds": best round, "lines": n, "tokens": total ids per round}.
// Parallelism is fixed by the caller through TOKENIZERS_PARALLELISM.
"use strict";
const fs = require("fs");
const { Tokenizer } = require("tokenizers");

async function main() {
  const [tokenizerPath, linesPath, roundsArg] = process.argv.slice(2);
  const tokenizer = Tokenizer.fromFile(tokenizerPath);
  const lines = fs.readFileSync(linesPath, "utf8").split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const rounds = Number(roundsArg || 3);
  const chunk = 1024; // encodeBatch amortises the call overhead of the binding
  let best = Infinity;
  let tokens = 0;
  for (let r = 0; r < rounds; ++r) {
    const start = process.hrtime.bigint();
    let count = 0;
    for (let i = 0; i < lines.length; i += chunk) {
      const encodings = await tokenizer.encodeBatch(lines.slice(i, i + chunk));
      for (const e of encodings) count += e.getIds().length;
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    best = Math.min(best, seconds);
    tokens = count;
  }
  process.stdout.write(JSON.stringify({ seconds: best, lines: lines.length, tokens }) + "\n");
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + "\n");
  process.exit(1);
});
