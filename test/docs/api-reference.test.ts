// `npm run docs` builds the API reference with no warning: every exported name of every entry has
// a doc comment, and no link in one is broken. This runs the same TypeDoc configuration
// (typedoc.json) without writing the pages, and fails on any warning or error it reports.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Application, Logger, LogLevel, TSConfigReader, TypeDocReader } from "typedoc";
import type { Options } from "tsup";
import { describe, expect, it } from "vitest";
import configs from "../../tsup.config.js";

const root = resolve(import.meta.dirname, "../..");

/** The source of every entry the package ships as a module to import (the `human-users` command is not one). */
function shippedEntries(): string[] {
  const list = (Array.isArray(configs) ? configs : [configs]) as Options[];
  const sources = list.flatMap((options) => (options.entry !== undefined && !Array.isArray(options.entry) ? Object.entries(options.entry) : []));
  return [...new Set(sources.filter(([name]) => name !== "cli").map(([, source]) => source))].sort();
}

function documentedEntries(): string[] {
  const settings = JSON.parse(readFileSync(resolve(root, "typedoc.json"), "utf8")) as { entryPoints: string[] };
  return [...settings.entryPoints].sort();
}

/** Keeps TypeDoc's warnings and errors, to show them in the failure rather than on the console. */
class CollectingLogger extends Logger {
  readonly messages: string[] = [];

  override log(message: string, level: LogLevel): void {
    super.log(message, level);
    if (level === LogLevel.Warn || level === LogLevel.Error) this.messages.push(message);
  }
}

describe("the API reference (npm run docs)", () => {
  it("covers every entry the package ships", () => {
    expect(documentedEntries()).toEqual(shippedEntries());
  });

  it("builds from typedoc.json without a warning", async () => {
    const app = await Application.bootstrapWithPlugins({ emit: "none" }, [new TypeDocReader(), new TSConfigReader()]);
    const logger = new CollectingLogger();
    app.logger = logger;
    const project = await app.convert();
    if (project !== undefined) app.validate(project);
    expect({ converted: project !== undefined, messages: logger.messages }).toEqual({ converted: true, messages: [] });
  }, 180_000);
});
