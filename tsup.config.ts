import { mkdir, writeFile } from "node:fs/promises";
import { defineConfig } from "tsup";
import { migrationFileName, migrationFileText, migrations } from "./src/adapters/postgres/migrations.js";

/** Ships the schema as plain SQL files too (dist/sql), for hosts that run their own migration tool. */
async function writeMigrationFiles(): Promise<void> {
  await mkdir("dist/sql", { recursive: true });
  await Promise.all(migrations.map((migration) => writeFile(`dist/sql/${migrationFileName(migration)}`, migrationFileText(migration))));
}

/** The entries both module systems can load: the root, the adapters and the modules behind subpaths. */
const entries = {
  index: "src/index.ts",
  passwords: "src/passwords/index.ts",
  postgres: "src/adapters/postgres/index.ts",
  pglite: "src/adapters/pglite/index.ts",
  smtp: "src/adapters/smtp/index.ts",
  http: "src/http/index.ts",
  node: "src/node/index.ts",
  otel: "src/adapters/otel/index.ts",
};

const common = { dts: true, sourcemap: false, target: "node20", treeshake: true } as const;

export default defineConfig([
  // Shared code in chunks, in both formats, so that an entry brings only what it uses and the
  // tarball holds each module once per format (CJS entries each bundled everything). `testing` is the
  // contract suite for adapter authors (it needs vitest, which is ESM-only); `cli` is the
  // `human-users` command (package.json "bin", Node only).
  { ...common, entry: { ...entries, testing: "src/testing/index.ts", cli: "src/cli/main.ts" }, format: ["esm"], splitting: true, clean: false, onSuccess: writeMigrationFiles },
  { ...common, entry: entries, format: ["cjs"], splitting: true, clean: false },
]);
