import type { IncomingMessage, ServerResponse } from "node:http";
import type { Result } from "neverthrow";
import { createDispatcher } from "../http/dispatch.js";
import type { HttpRequestParts } from "../http/http-exchange.js";
import type { HttpProblem } from "../http/wire-error.js";
import type { Ports } from "../ports/index.js";
import type { NodeHandler, NodeHandlerOptions } from "./options.js";
import { readNodeBody } from "./read-node-body.js";
import { requestPath } from "./request-url.js";
import { arrivedWhileClosing, writeAnswer, writeProblem } from "./write-answer.js";

/**
 * The headers node:http keeps only the first copy of in `headers` (its documented list), where a
 * Fetch Headers joins every copy with ", ". Repeated Host is refused before this (NODE-h0st).
 */
const FIRST_COPY_ONLY = new Set([
  "age", "authorization", "content-length", "content-type", "etag", "expires", "from", "host", "if-modified-since",
  "if-unmodified-since", "last-modified", "location", "max-forwards", "proxy-authorization", "referer", "retry-after", "server", "user-agent",
]);

/**
 * Whether the request as it came repeats one of FIRST_COPY_ONLY. Read off the raw headers: a count
 * of `incoming.headers` against them is thrown off by a header a middleware before this one adds.
 */
function repeatsFirstCopyOnly(raw: readonly string[]): boolean {
  let seen: Set<string> | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]?.toLowerCase() ?? "";
    if (!FIRST_COPY_ONLY.has(name)) continue;
    if (seen?.has(name) === true) return true;
    (seen ??= new Set()).add(name);
  }
  return false;
}

/**
 * Sets every copy of such a header, joined with ", ", in `incoming.headers`, so that the dispatcher
 * and `authenticate` see what the Fetch front end's Request shows (two Content-Types are refused,
 * two Authorizations are not read as the first).
 */
function joinRepeatedHeaders(incoming: IncomingMessage): void {
  if (!repeatsFirstCopyOnly(incoming.rawHeaders)) return;
  const { headers } = incoming;
  const copies = incoming.headersDistinct;
  for (const name of FIRST_COPY_ONLY) {
    const values = copies[name];
    if (values !== undefined && values.length > 1) headers[name] = values.join(", ");
  }
}

/** An IncomingMessage as the dispatcher reads it; methods on a class, so that a request makes no closures. */
class NodeRequestParts implements HttpRequestParts<IncomingMessage> {
  private joined = false;

  constructor(
    private readonly incoming: IncomingMessage,
    readonly method: string,
    readonly path: string,
  ) {}

  /**
   * For `authenticate`, with repeated headers joined. Joined only here and in `header`, which the
   * dispatcher reaches for routed requests alone: a request passed to `next()` keeps node:http's headers.
   */
  get request(): IncomingMessage {
    this.joinRepeats();
    return this.incoming;
  }

  header(name: string): string | undefined {
    if (FIRST_COPY_ONLY.has(name)) this.joinRepeats();
    const value = this.incoming.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  private joinRepeats(): void {
    if (this.joined) return;
    this.joined = true;
    joinRepeatedHeaders(this.incoming);
  }

  readBody(limit: number): Promise<Result<Uint8Array, HttpProblem>> {
    return readNodeBody(this.incoming, limit);
  }
}

/**
 * Serves the same routes as `createFetchHandler`, with the same options and limits, on node:http's
 * IncomingMessage and ServerResponse directly: no Fetch Request or Response is built. Works as a
 * node:http listener and as Express or Fastify (middie) middleware. Creating it throws a RangeError
 * for a `maxBodyBytes`, `basePath` or `origin` that cannot work.
 */
export function createNodeHandler(ports: Ports, options: NodeHandlerOptions): NodeHandler {
  const dispatch = createDispatcher(ports, options);
  async function serve(incoming: IncomingMessage, outgoing: ServerResponse, next: ((error?: unknown) => void) | undefined): Promise<void> {
    // Pipelined behind a body refused unread: never run, never answered (the connection is closing).
    if (arrivedWhileClosing(incoming)) return;
    const path = requestPath(incoming);
    if (path.isErr()) {
      writeProblem(incoming, outgoing, path.error);
      return;
    }
    const answer = await dispatch(new NodeRequestParts(incoming, incoming.method ?? "GET", path.value));
    if (!answer.routed && next !== undefined) {
      next();
      return;
    }
    writeAnswer(incoming, outgoing, answer.status, answer.headers, answer.body);
  }

  return (incoming, outgoing, next) =>
    // The dispatch never rejects; this guards the writing (a socket node:http has given up on).
    serve(incoming, outgoing, next).catch(() => {
      outgoing.destroy();
    });
}
