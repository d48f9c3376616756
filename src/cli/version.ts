import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * This package's version, from the nearest package.json named `human-users` above this module:
 * `dist/` in the published package, `src/cli/` in a checkout.
 */
export function packageVersion(moduleUrl: string = import.meta.url): string {
  let folder = dirname(fileURLToPath(moduleUrl));
  for (let level = 0; level < 5; level++) {
    try {
      const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (manifest.name === "human-users" && typeof manifest.version === "string") return manifest.version;
    } catch {
      // No package.json here: look one folder up.
    }
    folder = dirname(folder);
  }
  return "unknown";
}
