// The layering the README states, checked over the import graph of src/. Each layer names the
// layers it may import; an import of anything else is a violation.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";

export type Layer = "shared" | "ports" | "passwords" | "passkeys" | "core" | "notifications" | "operations" | "adapters" | "http" | "node" | "cli" | "testing" | "root";

interface Rule {
  /** Layers this one may import (itself always). */
  readonly may: readonly Layer[];
  /** Layers it may import types from only (`import type`, `export type`). */
  readonly typesFrom?: readonly Layer[];
  /** Whether it may import `node:` modules. */
  readonly node: boolean;
}

/**
 * shared is a leaf; passwords stands alone on shared (it could be lifted out as a package); passkeys
 * (WebAuthn through @simplewebauthn/server) implements a port and is reached by operations only; the
 * core sees ports and shared only, so delivery and hashing reach it through ports; the outer
 * layers depend on the core (delivery too, for the configuration check), never the reverse.
 */
export const RULES: Readonly<Record<Layer, Rule>> = {
  shared: { may: [], node: false },
  passwords: { may: ["shared"], node: true },
  passkeys: { may: ["ports", "shared"], node: false },
  ports: { may: ["shared"], typesFrom: ["passwords"], node: false },
  core: { may: ["ports", "shared"], node: false },
  notifications: { may: ["core", "ports", "shared"], node: false },
  operations: { may: ["core", "ports", "shared", "notifications", "passwords", "passkeys"], node: false },
  adapters: { may: ["core", "ports", "shared", "passwords"], node: true },
  http: { may: ["core", "ports", "shared", "operations", "passwords"], node: false },
  node: { may: ["http", "ports", "shared"], node: true },
  cli: { may: ["core", "ports", "shared", "operations", "adapters", "passwords", "notifications"], node: true },
  testing: { may: ["core", "ports", "shared"], node: false },
  root: { may: ["core", "ports", "shared", "operations", "notifications", "adapters", "passwords"], node: false },
};

export function layerOf(path: string): Layer {
  const [top] = path.split("/");
  if (top === undefined || !top.length || !path.includes("/")) return "root";
  if (top in RULES) return top as Layer;
  throw new Error(`src/${path} is in no layer: add its folder to the rules`);
}

export interface ImportFound {
  readonly specifier: string;
  readonly typeOnly: boolean;
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/g;
const DYNAMIC = /import\(\s*["']([^"']+)["']\s*\)/g;

/** Every module a source file imports or re-exports, and whether only its types. */
export function importsOf(source: string): ImportFound[] {
  const found: ImportFound[] = [];
  for (const match of source.matchAll(IMPORT)) found.push({ specifier: match[3] ?? "", typeOnly: match[2] !== undefined });
  for (const match of source.matchAll(DYNAMIC)) found.push({ specifier: match[1] ?? "", typeOnly: false });
  return found;
}

/** The violations in `files` (paths relative to src/, with "/"), one line each. */
export function layerViolations(files: ReadonlyMap<string, string>): string[] {
  const violations: string[] = [];
  for (const [path, source] of files) {
    const layer = layerOf(path);
    const rule = RULES[layer];
    for (const { specifier, typeOnly } of importsOf(source)) {
      if (specifier.startsWith("node:")) {
        if (!rule.node) violations.push(`src/${path} (${layer}) imports ${specifier}: ${layer} runs without Node`);
        continue;
      }
      if (!specifier.startsWith(".")) continue;
      const target = posix.normalize(posix.join(posix.dirname(path), specifier));
      if (target.startsWith("..")) {
        violations.push(`src/${path} (${layer}) imports ${specifier}, outside src/`);
        continue;
      }
      const targetLayer = layerOf(target);
      if (targetLayer === layer) continue;
      if (rule.may.includes(targetLayer)) continue;
      if (typeOnly && rule.typesFrom?.includes(targetLayer)) continue;
      violations.push(`src/${path} (${layer}) imports ${specifier} (${targetLayer})`);
    }
  }
  return violations;
}

/** Every .ts file under `root`, by its path relative to it. */
export function sourceFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts")) files.set(relative(root, full).split(sep).join("/"), readFileSync(full, "utf8"));
    }
  };
  walk(root);
  return files;
}

export const SRC = join(dirname(new URL(import.meta.url).pathname), "..", "..", "src");
