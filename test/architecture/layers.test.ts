import { describe, expect, it } from "vitest";
import { importsOf, layerViolations, sourceFiles, SRC } from "./layers.js";

describe("the layers of src/", () => {
  const files = sourceFiles(SRC);

  it("holds: every import goes where its layer may go", () => {
    expect(layerViolations(files)).toEqual([]);
  });

  it("reads imports of every form", () => {
    const source = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      'export * from "./c.js";',
      'export type { D } from "./d.js";',
      'import "./side-effect.js";',
      "const lazy = await import(\"./lazy.js\");",
      "import {\n  multi,\n  line,\n} from \"./multi.js\";",
    ].join("\n");
    expect(importsOf(source)).toEqual([
      { specifier: "./a.js", typeOnly: false },
      { specifier: "../b.js", typeOnly: true },
      { specifier: "./c.js", typeOnly: false },
      { specifier: "./d.js", typeOnly: true },
      { specifier: "./side-effect.js", typeOnly: false },
      { specifier: "./multi.js", typeOnly: false },
      { specifier: "./lazy.js", typeOnly: false },
    ]);
  });

  it.each([
    ["core/commands/runner.ts", 'import { deliverPendingNotifications } from "../../notifications/deliver.js";', "src/core/commands/runner.ts (core) imports ../../notifications/deliver.js (notifications)"],
    ["core/commands/runner.ts", 'import { postgresStore } from "../../adapters/postgres/index.js";', "src/core/commands/runner.ts (core) imports ../../adapters/postgres/index.js (adapters)"],
    ["core/users/fold-user.ts", 'import { readFileSync } from "node:fs";', "src/core/users/fold-user.ts (core) imports node:fs: core runs without Node"],
    ["core/claims.ts", 'import type { HashBounds } from "../passwords/bounds.js";', "src/core/claims.ts (core) imports ../passwords/bounds.js (passwords)"],
    ["passwords/verify.ts", 'import { errorIds } from "../core/errors/user-errors.js";', "src/passwords/verify.ts (passwords) imports ../core/errors/user-errors.js (core)"],
    ["ports/storage.ts", 'import { bcryptHasher } from "../passwords/hashers/bcrypt.js";', "src/ports/storage.ts (ports) imports ../passwords/hashers/bcrypt.js (passwords)"],
    ["shared/bytes.ts", 'import type { Ports } from "../ports/index.js";', "src/shared/bytes.ts (shared) imports ../ports/index.js (ports)"],
    ["node/node-handler.ts", 'import { postgresStore } from "../adapters/postgres/index.js";', "src/node/node-handler.ts (node) imports ../adapters/postgres/index.js (adapters)"],
    ["http/routes.ts", 'import { encodeBase64 } from "../passwords/../cli/main.js";', "src/http/routes.ts (http) imports ../passwords/../cli/main.js (cli)"],
  ])("fails on a planted bad import in %s", (path, line, violation) => {
    const planted = new Map(files);
    planted.set(path, `${line}\n${files.get(path) ?? ""}`);
    expect(layerViolations(planted)).toEqual([violation]);
  });
});
