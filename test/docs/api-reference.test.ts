// `npm run docs` builds the API reference with no warning: every exported name of every entry has
// a doc comment, and no link in one is broken. This runs the same TypeDoc configuration
// (typedoc.json) without writing the pages, and fails on any warning or error it reports.
import { Application, Logger, LogLevel, TSConfigReader, TypeDocReader } from "typedoc";
import { describe, expect, it } from "vitest";

/** Keeps TypeDoc's warnings and errors, to show them in the failure rather than on the console. */
class CollectingLogger extends Logger {
  readonly messages: string[] = [];

  override log(message: string, level: LogLevel): void {
    super.log(message, level);
    if (level === LogLevel.Warn || level === LogLevel.Error) this.messages.push(message);
  }
}

describe("the API reference (npm run docs)", () => {
  it("builds from typedoc.json without a warning", async () => {
    const app = await Application.bootstrapWithPlugins({ emit: "none" }, [new TypeDocReader(), new TSConfigReader()]);
    const logger = new CollectingLogger();
    app.logger = logger;
    const project = await app.convert();
    if (project !== undefined) app.validate(project);
    expect({ converted: project !== undefined, messages: logger.messages }).toEqual({ converted: true, messages: [] });
  }, 180_000);
});
