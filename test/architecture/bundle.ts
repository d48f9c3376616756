// Bundles an entry of the package from its sources as an application's bundler would (esbuild,
// minified, tree-shaken), to see what an import really pulls in.
import { build, type Metafile } from "esbuild";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { SRC } from "./layers.js";

export interface BundleFacts {
  readonly bytes: number;
  readonly gzipBytes: number;
  /** The packages whose code ended up in the bundle. */
  readonly packages: readonly string[];
}

const PACKAGE = /node_modules\/((?:@[^/]+\/)?[^/]+)\//;

function packagesOf(metafile: Metafile): string[] {
  const names = new Set<string>();
  for (const [input, facts] of Object.entries(metafile.inputs)) {
    const name = PACKAGE.exec(input)?.[1];
    if (name !== undefined && facts.bytes > 0) names.add(name);
  }
  return [...names].sort();
}

/** `code` (an application's module importing from `src/<entry>`) bundled for the browser-like neutral platform. */
export async function bundleFacts(code: string): Promise<BundleFacts> {
  const result = await build({
    stdin: { contents: code, resolveDir: SRC, loader: "ts", sourcefile: "app.ts" },
    bundle: true,
    minify: true,
    treeShaking: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    // Node's modules and the optional peers are the host's, never bundled.
    external: ["node:*", "pg", "nodemailer", "@electric-sql/pglite", "@node-rs/*", "vitest"],
    logLevel: "silent",
  });
  const output = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { bytes: output.length, gzipBytes: gzipSync(output).length, packages: packagesOf(result.metafile) };
}

/** The import an application writes for each entry, to bundle it. */
export const ENTRY_IMPORTS = {
  root: 'import { createHumanUser, memoryStore } from "./index.ts"; console.log(createHumanUser, memoryStore);',
  passwords: 'import { verifyPassword } from "./passwords/index.ts"; console.log(verifyPassword);',
  http: 'import { createFetchHandler } from "./http/index.ts"; console.log(createFetchHandler);',
  otel: 'import { openTelemetry } from "./adapters/otel/index.ts"; console.log(openTelemetry);',
} as const;

export const srcPath = (path: string): string => join(SRC, path);
