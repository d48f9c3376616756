import type { IncomingMessage } from "node:http";
import { err, ok, type Result } from "neverthrow";
import { limitedBody, type LimitedBody } from "../http/read-json-body.js";
import { problems, type HttpProblem } from "../http/wire-error.js";

type BodyResult = Result<Uint8Array, HttpProblem>;

/** One body being read. A class, so that a request makes no named closures beside its listeners. */
class NodeBodyRead {
  private readonly body: LimitedBody;
  private settled = false;
  /** The 'data' listener, bound once so that it can be taken off again. */
  private readonly onData: (chunk: Buffer) => void = this.data.bind(this);

  constructor(
    private readonly incoming: IncomingMessage,
    private readonly limit: number,
    private readonly resolve: (result: BodyResult) => void,
  ) {
    this.body = limitedBody(limit);
  }

  start(): void {
    this.incoming.on("data", this.onData);
    this.incoming.once("end", () => this.end());
    // Kept after settling: an error with no listener would be thrown. The refusal is built only
    // when it answers: every request closes after its end.
    this.incoming.on("error", () => {
      if (!this.settled) this.settle(err(problems.unreadableBody()));
    });
    // Closed before its end: the client went away.
    this.incoming.once("close", () => {
      if (!this.settled) this.settle(err(problems.unreadableBody()));
    });
  }

  private data(chunk: Buffer): void {
    if (this.body.add(chunk)) return;
    this.incoming.pause();
    this.settle(err(problems.bodyTooLarge(this.limit)));
  }

  /** A throw here would be thrown from the stream's event, past every handler: it becomes a refusal. */
  private end(): void {
    let bytes: Uint8Array;
    try {
      bytes = this.body.bytes();
    } catch {
      this.settle(err(problems.unreadableBody()));
      return;
    }
    this.settle(ok(bytes));
  }

  private settle(result: BodyResult): void {
    if (this.settled) return;
    this.settled = true;
    this.incoming.off("data", this.onData);
    this.resolve(result);
  }
}

/**
 * An IncomingMessage's body, read while counting bytes. Over the limit it stops reading (the answer
 * then closes the connection); a client that goes away mid-body ends the read with a refusal, and
 * nothing after it runs.
 */
export function readNodeBody(incoming: IncomingMessage, limit: number): Promise<BodyResult> {
  // A body parser mounted before this handler has taken the body; waiting for it would never end.
  if (incoming.readableDidRead || incoming.readableEnded) return Promise.resolve(err(problems.bodyAlreadyRead()));
  // The client went away before reading began (while an asynchronous authenticate ran, say): a
  // destroyed request emits nothing more, so waiting for its events would never end.
  if (incoming.destroyed) return Promise.resolve(err(problems.unreadableBody()));
  return new Promise((resolve) => new NodeBodyRead(incoming, limit, resolve).start());
}
