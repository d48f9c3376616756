// Builds the package the way it ships (the project's tsup configuration), into a folder where a
// code block finds it as an installed dependency: `tmp/doc-test/node_modules/human-users`.
// The real `dist/` is left alone, and a build newer than every source file is used again.
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { build, type Options } from "tsup";
import configs from "../../tsup.config.js";

/** The newest modification time under `path` (a file or a folder), in ms. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

/** Folder of the installed copy inside `workspace`. */
export function installedPackage(workspace: string): string {
  return join(workspace, "node_modules", "human-users");
}

/**
 * Makes `workspace/node_modules/human-users` hold package.json and a fresh build of `root`'s
 * sources. Skips the build when the one there is newer than src/, package.json and tsup.config.ts.
 */
export async function buildInstalledPackage(root: string, workspace: string): Promise<void> {
  const target = installedPackage(workspace);
  const stamp = join(target, "dist", "index.d.ts");
  const sources = Math.max(newest(join(root, "src")), newest(join(root, "package.json")), newest(join(root, "tsup.config.ts")));
  if (existsSync(stamp) && statSync(stamp).mtimeMs > sources) return;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  copyFileSync(join(root, "package.json"), join(target, "package.json"));
  const list = (Array.isArray(configs) ? configs : [configs]) as Options[];
  // The blocks are ES modules: the CommonJS build (half the work) is left out.
  for (const options of list.filter((entry) => [entry.format].flat().includes("esm"))) {
    // Without onSuccess: it writes the SQL files into the real dist/, which this copy does not need.
    const { onSuccess: _writesIntoDist, ...rest } = options;
    await build({ ...rest, outDir: join(target, "dist"), silent: true, config: false });
  }
}
