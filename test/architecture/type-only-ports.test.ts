// src/ports/index.ts re-exports its modules with `export type *`. A value in one of them (a
// constant, a function, a class) is then a type to TypeScript, but the declaration bundler of the
// build emits it as a value export: the published types promised `defaultLeaseSeconds`, which
// the JavaScript did not export. Each value of a port module must be re-exported as a value.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const portsDir = resolve(import.meta.dirname, "../../src/ports");
const index = readFileSync(join(portsDir, "index.ts"), "utf8");

describe("the port modules", () => {
  it("re-export every value they hold as a value, not only through `export type *`", () => {
    const typeOnlyIn = (text: string): string[] => [...text.matchAll(/export type \* from "\.\/([\w-]+)\.js";/g)].map((match) => match[1] ?? "");
    // Through a port module's own `export type *` too (storage.ts re-exports outbox.ts).
    const typeOnly = typeOnlyIn(index);
    for (let at = 0; at < typeOnly.length; at++) {
      for (const module of typeOnlyIn(readFileSync(join(portsDir, `${typeOnly[at] ?? ""}.ts`), "utf8"))) if (!typeOnly.includes(module)) typeOnly.push(module);
    }
    expect(typeOnly).toContain("outbox");
    const missing: string[] = [];
    for (const module of typeOnly) {
      const source = readFileSync(join(portsDir, `${module}.ts`), "utf8");
      for (const [, name] of source.matchAll(/^export (?:const|let|function|class|enum) (\w+)/gm)) {
        const valueExport = new RegExp(`export \\{[^}]*\\b${name}\\b[^}]*\\} from "\\./${module}\\.js"`);
        if (!valueExport.test(index)) missing.push(`${module}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
