// Every TypeScript block of the README and the guides is type-checked against the package as it
// ships (built with the project's tsup configuration, installed into tmp/doc-test), in one
// TypeScript program; blocks tagged `ts run` are also run with Node and must end on their own.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { buildInstalledPackage } from "./built-package.js";
import { blockFileName, checkedInfo, documentationBlocks, unreadInfo, type CodeBlock } from "./code-blocks.js";

const root = resolve(import.meta.dirname, "../..");
const workspace = join(root, "tmp", "doc-test");
const sources = join(workspace, "blocks");
const runnable = join(workspace, "run");
/** Where blocks run: emptied before every test run, so a block that writes `./data` starts afresh. */
const scratch = join(workspace, "cwd");

const blocks = documentationBlocks(root);
const typescriptBlocks = blocks.filter((block) => (checkedInfo as readonly string[]).includes(block.info));
const runBlocks = typescriptBlocks.filter((block) => block.info === "ts run");

/** What a newcomer's project would have: strict, Node's ESM resolution through the package's exports. */
const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: ["node"],
  typeRoots: [join(root, "node_modules", "@types")],
};

function where(block: CodeBlock): string {
  return `${block.file}:${block.line}`;
}

function writeBlocks(): void {
  rmSync(sources, { recursive: true, force: true });
  rmSync(runnable, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  mkdirSync(sources, { recursive: true });
  mkdirSync(runnable, { recursive: true });
  writeFileSync(join(workspace, "package.json"), `${JSON.stringify({ name: "doc-test", private: true, type: "module" })}\n`);
  for (const block of typescriptBlocks) writeFileSync(join(sources, blockFileName(block)), block.code);
}

function typeErrors(): string[] {
  const files = typescriptBlocks.map((block) => join(sources, blockFileName(block)));
  const program = ts.createProgram(files, compilerOptions);
  const byFile = new Map(typescriptBlocks.map((block) => [join(sources, blockFileName(block)), block]));
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const file = diagnostic.file;
    if (file === undefined || diagnostic.start === undefined) return message;
    const block = byFile.get(resolve(file.fileName));
    const { line } = file.getLineAndCharacterOfPosition(diagnostic.start);
    const place = block === undefined ? file.fileName : `${block.file}:${block.line + 1 + line}`;
    return `${place}: ${message}`;
  });
}

interface Run {
  readonly exitCode: number | null;
  readonly output: string;
  readonly timedOut: boolean;
}

function runBlock(block: CodeBlock, timeoutMs: number): Promise<Run> {
  const source = blockFileName(block);
  const javascript = ts.transpileModule(block.code, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false },
  }).outputText;
  const file = join(runnable, source.replace(/\.ts$/, ".mjs"));
  writeFileSync(file, javascript);
  return new Promise((done) => {
    const child = spawn(process.execPath, [file], { cwd: scratch, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("close", (exitCode) => {
      clearTimeout(timer);
      done({ exitCode, output, timedOut });
    });
  });
}

describe("the code blocks of the README and the guides", () => {
  beforeAll(async () => {
    await buildInstalledPackage(root, workspace);
    writeBlocks();
  }, 600_000);

  it("are all TypeScript checked by this test, or shell, JSON, Mermaid or plain text", () => {
    const allowed: readonly string[] = [...checkedInfo, ...unreadInfo];
    expect(blocks.filter((block) => !allowed.includes(block.info)).map((block) => `${where(block)} \`\`\`${block.info}`)).toEqual([]);
    expect(typescriptBlocks.length + blocks.filter((block) => (unreadInfo as readonly string[]).includes(block.info)).length).toBe(blocks.length);
    expect(runBlocks.length).toBeGreaterThan(0);
  });

  it("type-check against the built package, in one program", () => {
    expect(typeErrors()).toEqual([]);
  }, 120_000);

  it.each(runBlocks.map((block) => [where(block), block] as const))("%s runs and ends on its own", async (_where, block) => {
    const run = await runBlock(block, 60_000);
    expect({ exitCode: run.exitCode, timedOut: run.timedOut, output: run.exitCode === 0 ? "" : run.output }).toEqual({
      exitCode: 0,
      timedOut: false,
      output: "",
    });
  }, 90_000);
});
