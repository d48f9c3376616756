// The logger port takes pino's shape and console's: the library calls warn and error with the
// fields first and the message second (pino's order, which console's `(...data)` prints as is),
// and puts an Error under `err`, the key pino serializes.
import { Console } from "node:console";
import { Writable } from "node:stream";
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createHumanUser, type Ports } from "../../src/index.js";
import { patchStorage } from "../support/patch-storage.js";
import { member, minimalCreate, plainError, testPorts } from "./support/ports.js";

/** pino's log method, as its types declare it: an object and then a message, or a message alone. */
interface PinoLogFn {
  <T extends object>(obj: T, msg?: string, ...args: unknown[]): void;
  (obj: unknown, msg?: string, ...args: unknown[]): void;
  (msg: string, ...args: unknown[]): void;
}

interface PinoShapedLogger {
  readonly info: PinoLogFn;
  readonly warn: PinoLogFn;
  readonly error: PinoLogFn;
  readonly lines: Record<string, unknown>[];
}

/** A stand-in for pino with its call signature: each call becomes one line, its fields merged in as pino does. */
function pinoShapedLogger(): PinoShapedLogger {
  const lines: Record<string, unknown>[] = [];
  const at =
    (level: string): PinoLogFn =>
    (first: unknown, message?: unknown) => {
      lines.push(typeof first === "string" ? { level, msg: first } : { level, ...(first as object), msg: message });
    };
  return { info: at("info"), warn: at("warn"), error: at("error"), lines };
}

/** A real console writing into a string. */
function capturedConsole(): { readonly console: Console; text(): string } {
  let text = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { console: new Console({ stdout: sink, stderr: sink, colorMode: false }), text: () => text };
}

async function createWithFailingWrite(logger: NonNullable<Ports["logger"]>, cause: Error) {
  const ports = testPorts({ logger });
  const storage = patchStorage(ports.storage, { userLog: { append: () => Promise.reject(cause) } });
  return createHumanUser({ ...ports, storage }, minimalCreate(), { requester: member });
}

describe("the logger port", () => {
  it("takes a pino-shaped logger: fields first, the message second, the cause under err", async () => {
    const logger = pinoShapedLogger();
    const cause = new Error("disk on fire");

    const result = await createWithFailingWrite(logger, cause);

    expect(result).toEqual(err(plainError(13, "USER-1nt3", "internal error")));
    expect(logger.lines).toEqual([{ level: "error", err: cause, msg: "human-users: storage write failed" }]);
  });

  it("takes a console: it prints the fields and the message, the cause's message included", async () => {
    const captured = capturedConsole();

    const result = await createWithFailingWrite(captured.console, new Error("disk on fire"));

    expect(result).toEqual(err(plainError(13, "USER-1nt3", "internal error")));
    const text = captured.text();
    expect({ startsWithFields: text.startsWith("{"), namesCause: text.includes("Error: disk on fire"), endsWithMessage: text.endsWith(" human-users: storage write failed\n") }).toEqual({
      startsWithFields: true,
      namesCause: true,
      endsWithMessage: true,
    });
  });

  it("accepts the global console as it is", () => {
    const ports: Ports = { ...testPorts(), logger: console };
    expect(ports.logger).toBe(console);
  });
});
