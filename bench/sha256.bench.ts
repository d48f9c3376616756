// HMAC-SHA256 of a code (6 characters under a 32-byte key, as every issued code is kept) and
// SHA-256 of the same text: node:crypto against the pure-JS fallback (@noble/hashes, what runs
// where the runtime has no node:crypto), in interleaved rounds in the same process. Each op is 100
// digests, so that the loop's own cost stays out of the ratio. Run with `npm run bench -- sha256`.
import { nobleSha256Implementation, sha256Implementation, type Sha256Implementation } from "../src/core/secrets/sha256.js";
import { figuresTable, interleavedRounds } from "./support/rounds.js";

const native = sha256Implementation(globalThis);
if (native.name !== "node:crypto") throw new Error("this runtime has no node:crypto to measure");

const key = crypto.getRandomValues(new Uint8Array(32));
const codes = Array.from({ length: 100 }, (_, index) => `C0DE${String(index).padStart(2, "0")}`);
let sink = 0;

function hmacs(implementation: Sha256Implementation): () => void {
  return () => {
    for (const code of codes) sink ^= implementation.hmacSha256(key, code)[0] ?? 0;
  };
}

function digests(implementation: Sha256Implementation): () => void {
  return () => {
    for (const code of codes) sink ^= implementation.sha256(code)[0] ?? 0;
  };
}

/** One table: the fallback as the baseline, node:crypto against it. */
async function compare(title: string, fallback: string, nativeCase: string, run: (implementation: Sha256Implementation) => () => void): Promise<void> {
  const figures = await interleavedRounds([
    { name: `${fallback} (fallback, baseline)`, run: run(nobleSha256Implementation) },
    { name: nativeCase, run: run(native) },
  ]);
  console.log(`${title} (100 per op):\n\n${figuresTable(figures)}\n`);
}

await compare("HMAC-SHA256 of a code", "@noble/hashes, key state cached", "node:crypto createHmac", hmacs);
await compare("SHA-256 of a code", "@noble/hashes", "node:crypto one-shot hash", digests);
if (sink === -1) console.log(sink);
