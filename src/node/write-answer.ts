import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { HttpProblem } from "../http/wire-error.js";

/**
 * How long a connection answered before its request's body all arrived goes on being read (and
 * what arrives thrown away) after the answer, unless the client closes first. Closed with bytes
 * unread, a connection is reset, and a client still sending its body loses the answer with it: the
 * refusal of an oversize upload never reaches the one who sent it. Web servers call this a
 * lingering close.
 */
export const LINGER_MS = 2_000;

const lingering = new WeakSet<Socket>();

/**
 * Whether `incoming` came on a connection closing after an earlier answer: node:http still parses
 * what the client pipelined behind that request's body, but nothing on it is served any more.
 */
export function arrivedWhileClosing(incoming: IncomingMessage): boolean {
  return lingering.has(incoming.socket);
}

/**
 * node:http ends a `connection: close` answer with `destroySoon()`: the FIN, then the socket
 * destroyed as soon as it is written, with the rest of the body unread. Here the FIN goes as
 * before, and the socket is destroyed once the client has closed its side, or LINGER_MS later.
 */
function lingerOnClose(socket: Socket | null): void {
  if (socket === null || lingering.has(socket)) return;
  lingering.add(socket);
  socket.destroySoon = () => {
    socket.end();
    const destroy = (): void => {
      socket.destroy();
    };
    const timer = setTimeout(destroy, LINGER_MS);
    timer.unref();
    socket.once("end", destroy);
    socket.once("close", () => clearTimeout(timer));
  };
}

/**
 * Reads what is left of a body nobody will use, and throws it away. A body stopped part way (over
 * the limit) stays paused: node:http then stops reading the connection, a client that sends its
 * whole body before it reads blocks, and the lingering close resets it with the answer unread.
 * By `read()` on 'readable', which works whether the stream was read by 'data' (paused since) or
 * by an async iterator (whose own 'readable' listener makes `resume()` do nothing).
 */
function discardRest(incoming: IncomingMessage): void {
  const drain = (): void => {
    while (incoming.read() !== null);
  };
  incoming.on("readable", drain);
}

/**
 * Writes a whole answer. An answer given before the request's body has all arrived (refused unread,
 * or over the size limit) closes the connection, so that the next request on it never waits behind
 * the rest of that body; one that comes too late for the response (already started) cuts it off.
 */
export function writeAnswer(incoming: IncomingMessage, outgoing: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: string | Uint8Array): void {
  if (outgoing.headersSent) {
    outgoing.destroy();
    return;
  }
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  const head: OutgoingHttpHeaders = { ...headers, "content-length": length };
  if (!incoming.complete) {
    head["connection"] = "close";
    lingerOnClose(incoming.socket);
    discardRest(incoming);
  }
  outgoing.writeHead(status, head);
  outgoing.end(body);
}

/** A refusal as the library's REST error JSON. */
export function writeProblem(incoming: IncomingMessage, outgoing: ServerResponse, refused: HttpProblem): void {
  const headers = { "content-type": "application/json", "cache-control": "no-store", ...refused.headers };
  writeAnswer(incoming, outgoing, refused.status, headers, JSON.stringify(refused.error));
}
