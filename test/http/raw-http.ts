// HTTP/1.1 written by hand over a loopback socket, for requests no well-behaved client sends, and a
// reader for the answers that come back.
import { connect } from "node:net";

/** What the client does once the request is written. */
export type Ending = "wait" | "half-close" | "abort";

export interface RawExchange {
  /** Everything the server sent, as Latin-1 text. */
  readonly received: string;
  /** Whether the server closed the connection before `waitMs` passed. */
  readonly closedByServer: boolean;
}

export interface RawConnection {
  /** Writes bytes as given (Latin-1, one byte a character). */
  write(bytes: string): Promise<void>;
  /** Closes the sending side, as a client that has said all it will. */
  halfClose(): void;
  /** Goes away without a word. */
  abort(): void;
  /** Everything the server sends until it closes the connection or `waitMs` (from opening) passes. */
  readonly exchange: Promise<RawExchange>;
}

/** A connection to 127.0.0.1:`port`, written to by hand. */
export function openRaw(port: number, waitMs = 3000): RawConnection {
  const socket = connect(port, "127.0.0.1");
  const exchange = new Promise<RawExchange>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let closedByServer = true;
    const timer = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, waitMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // A reset or a broken pipe after our own abort, or after the server answered and closed, is part of the exchange.
      if (error.code !== "ECONNRESET" && error.code !== "EPIPE") reject(error);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ received: Buffer.concat(chunks).toString("latin1"), closedByServer });
    });
  });
  const write = (bytes: string): Promise<void> => new Promise((resolve) => socket.write(Buffer.from(bytes, "latin1"), () => resolve()));
  return { write, halfClose: () => socket.end(), abort: () => socket.destroy(), exchange };
}

/**
 * Sends `request` byte for byte, then waits (or half-closes, or aborts) and collects what the
 * server sends until it closes the connection or `waitMs` passes.
 */
export async function sendRaw(port: number, request: string, ending: Ending = "wait", waitMs = 3000): Promise<RawExchange> {
  const connection = openRaw(port, waitMs);
  await connection.write(request);
  if (ending === "half-close") connection.halfClose();
  if (ending === "abort") setTimeout(connection.abort, 100);
  return connection.exchange;
}

export interface RawAnswer {
  readonly status: number;
  /** Header names in lower case, `date` left out (it changes every second). */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the answer says it is JSON, else the text. */
  readonly body: unknown;
}

function readBody(rest: string, headers: Readonly<Record<string, string>>): { readonly text: string; readonly used: number } {
  const length = headers["content-length"];
  if (length !== undefined) return { text: rest.slice(0, Number(length)), used: Number(length) };
  if (headers["transfer-encoding"] !== "chunked") return { text: rest, used: rest.length };
  let text = "";
  let at = 0;
  for (;;) {
    const lineEnd = rest.indexOf("\r\n", at);
    const size = Number.parseInt(rest.slice(at, lineEnd), 16);
    at = lineEnd + 2;
    if (size === 0) return { text, used: at + 2 };
    text += rest.slice(at, at + size);
    at += size + 2;
  }
}

/** Every answer in `received`, in order (several when requests were pipelined on one connection). */
export function parseAnswers(received: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = received;
  while (rest.length > 0) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd < 0) throw new Error(`incomplete answer: ${JSON.stringify(rest)}`);
    const [statusLine = "", ...lines] = rest.slice(0, headEnd).split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).toLowerCase();
      if (name !== "date") headers[name] = line.slice(colon + 1).trim();
    }
    const { text, used } = readBody(rest.slice(headEnd + 4), headers);
    const body = Buffer.from(text, "latin1").toString("utf8");
    const isJson = headers["content-type"] === "application/json";
    answers.push({ status: Number(statusLine.split(" ")[1]), headers, body: isJson ? (JSON.parse(body) as unknown) : body });
    rest = rest.slice(headEnd + 4 + used);
  }
  return answers;
}
