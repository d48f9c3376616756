// What `npm install human-users` brings: no package built for one platform, except the native
// argon2 the package asks for on purpose (an optional dependency; pure JS runs without it).
// neverthrow 8.1 and 8.2 list @rollup/rollup-linux-x64-gnu as an optional dependency, so a range
// that admits them put a rollup binary into every install.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

interface LockedPackage {
  readonly dev?: boolean;
  readonly os?: readonly string[];
  readonly cpu?: readonly string[];
}

const DELIBERATE = /^node_modules\/@node-rs\/argon2-/;

async function lockedPackages(): Promise<Readonly<Record<string, LockedPackage>>> {
  const lock = JSON.parse(await readFile(new URL("../../package-lock.json", import.meta.url), "utf8")) as { packages: Record<string, LockedPackage> };
  return lock.packages;
}

describe("the installed dependency set", () => {
  it("holds no platform-specific package outside the dev tools, but the optional native argon2", async () => {
    const packages = await lockedPackages();
    const platformSpecific = Object.entries(packages)
      .filter(([path, locked]) => locked.dev !== true && (locked.os !== undefined || locked.cpu !== undefined) && !DELIBERATE.test(path))
      .map(([path]) => path);
    expect(platformSpecific).toEqual([]);
  });
});
