// Runs every bench/*.bench.ts in its own process, one after another, so that one bench's
// heap and worker threads never disturb the next one's figures.
// `npm run bench -- passwords` runs only the benches whose file name contains "passwords".
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? "";
const files = readdirSync(here)
  .filter((name) => name.endsWith(".bench.ts") && name.includes(filter))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}\n`);
  const run = spawnSync(process.execPath, ["--import", "tsx", join(here, file)], { stdio: "inherit" });
  if (run.status !== 0) failed += 1;
}
if (failed > 0) {
  console.error(`${failed} bench file(s) failed`);
  process.exitCode = 1;
}
