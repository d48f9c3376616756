import { mkdir, writeFile } from "node:fs/promises";
import { defineConfig } from "tsup";
import { migrationFileName, migrations } from "./src/adapters/postgres/migrations.js";

/** Ships the schema as plain SQL files too (dist/sql), for hosts that run their own migration tool. */
async function writeMigrationFiles(): Promise<void> {
  await mkdir("dist/sql", { recursive: true });
  await Promise.all(migrations.map((migration) => writeFile(`dist/sql/${migrationFileName(migration)}`, `${migration.sql.trim()}\n`)));
}

export default defineConfig({
  // `testing` is the contract suite for storage adapter authors (`human-users/testing`); it needs vitest.
  // `cli` is the `human-users` command (package.json "bin", Node only).
  entry: { index: "src/index.ts", testing: "src/testing/index.ts", cli: "src/cli/main.ts" },
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
  splitting: false,
  treeshake: true,
  onSuccess: writeMigrationFiles,
});
