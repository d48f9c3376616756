// What an application's bundle gets from each entry: one esbuild run per entry, minified and
// tree-shaken, in one process. Sizes in bytes, and gzipped.
import { bundleFacts, ENTRY_IMPORTS } from "../test/architecture/bundle.js";

console.log("| entry (import) | minified | gzip | packages in the bundle |");
console.log("|---|---:|---:|---|");
for (const [name, code] of Object.entries(ENTRY_IMPORTS)) {
  const facts = await bundleFacts(code);
  const imported = /import \{ ([^}]+) \}/.exec(code)?.[1] ?? "";
  console.log(`| ${name} (\`${imported.trim()}\`) | ${facts.bytes} | ${facts.gzipBytes} | ${facts.packages.join(", ")} |`);
}
