import { constants } from "node:fs";
import { access, realpath, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { ImportCommand } from "./import-command.js";

/**
 * What a path leads to: the file's device and inode when it exists (so links and other spellings
 * of it compare equal), else the real path of its folder with its name.
 */
async function fileIdentity(path: string): Promise<string> {
  const found = await stat(path).catch(() => undefined);
  if (found !== undefined) return `file ${found.dev}:${found.ino}`;
  const folder = await realpath(dirname(path)).catch(() => resolve(dirname(path)));
  return `path ${join(folder, basename(path))}`;
}

/**
 * Refuses output paths that lead to the input or to each other: the report replaces the file at
 * its path and the links file is appended to, so either would destroy the input, and one would
 * destroy the other (links hold codes kept nowhere else). Checked in a dry run too, which writes the report.
 */
export async function refuseSharedPaths(command: Pick<ImportCommand, "file" | "reportPath" | "linksPath">): Promise<void> {
  const [input, report, links] = await Promise.all([command.file, command.reportPath, command.linksPath].map(fileIdentity));
  if (report === input) throw new Error(`the report file ${command.reportPath} is the file to import: give --report another path`);
  if (links === input) throw new Error(`the links file ${command.linksPath} is the file to import: give --links another path`);
  if (report === links) throw new Error(`the report and the links file are one file (${command.reportPath}): give --report and --links different paths`);
}

/**
 * Refuses, before anything is imported, an output path that could not be written: found only when
 * the first line is due, the rows before it would be in and that line lost. Creates nothing.
 * `replaced` (the report: removed, then made again) needs its folder to take a new file; `appended`
 * (the links file) needs the file itself when it exists, else its folder.
 */
export async function refuseUnwritable(path: string, label: string, written: "replaced" | "appended"): Promise<void> {
  const found = await stat(path).catch(() => undefined);
  if (found !== undefined && !found.isFile()) throw new Error(`${label} ${path} is not a file`);
  const writable = found !== undefined && written === "appended" ? await canWrite(path) : await isWritableFolder(dirname(path));
  if (!writable) throw new Error(`${label} ${path} cannot be written`);
}

function canWrite(path: string): Promise<boolean> {
  return access(path, constants.W_OK).then(
    () => true,
    () => false,
  );
}

/** A folder that takes a new file: a writable file in its place is not one. */
async function isWritableFolder(path: string): Promise<boolean> {
  const folder = await stat(path).catch(() => undefined);
  return folder?.isDirectory() === true && (await canWrite(path));
}
