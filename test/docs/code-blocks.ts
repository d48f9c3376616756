// Finds the fenced code blocks of the README and the guides, so that the doc test can check
// every TypeScript block and show that no block escaped it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One fenced block: where it is, its info string (`ts run`, `sh`, ...) and its text. */
export interface CodeBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly info: string;
  readonly code: string;
}

/** The info strings a block may have: TypeScript that is type-checked (and run with `run`), or text no test reads. */
export const checkedInfo = ["ts", "ts run"] as const;
export const unreadInfo = ["sh", "json", "mermaid", "text"] as const;

const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

/** Every fenced block of one Markdown text, in order. An unclosed fence is a block to the end. */
export function codeBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  let open: { line: number; fence: string; info: string; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const match = FENCE.exec(text);
    if (open === undefined) {
      if (match !== null) open = { line: index + 1, fence: match[2] ?? "```", info: (match[3] ?? "").trim(), body: [] };
      return;
    }
    if (match !== null && (match[2] ?? "").startsWith(open.fence) && (match[3] ?? "").trim() === "") {
      blocks.push({ file, line: open.line, info: open.info, code: `${open.body.join("\n")}\n` });
      open = undefined;
      return;
    }
    open.body.push(text);
  });
  if (open !== undefined) blocks.push({ file, line: open.line, info: open.info, code: `${open.body.join("\n")}\n` });
  return blocks;
}

/** README.md and every docs/*.md of the repository at `root`, as paths relative to it. */
export function documentationFiles(root: string): string[] {
  const guides = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...guides];
}

/** Every block of the README and the guides. */
export function documentationBlocks(root: string): CodeBlock[] {
  return documentationFiles(root).flatMap((file) => codeBlocks(file, readFileSync(join(root, file), "utf8")));
}

/** A file name for a block that says where it came from: `docs/storage.md` line 40 → `docs-storage-40.ts`. */
export function blockFileName(block: CodeBlock): string {
  return `${block.file.replace(/\.md$/, "").replace(/[^A-Za-z0-9]+/g, "-")}-${block.line}.ts`;
}
