// The node:http server `createNodeHandler` runs in. What node:http refuses by itself (a request it
// cannot parse, headers too large, CONNECT, a missing Host) gets JSON errors too, instead of a bare
// status line or a dropped connection.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { rawRefusal, refusals, type BridgeRefusal } from "./bridge-refusals.js";

function refusalFor(error: NodeJS.ErrnoException): BridgeRefusal {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return refusals.headersTooLarge();
    case "HPE_INVALID_EOF_STATE":
      return refusals.endedEarly();
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return refusals.tooSlow();
    default:
      return refusals.notHttp();
  }
}

/** Whether node:http has started an answer on this socket, which bytes of ours would corrupt. */
function answerStarted(socket: Duplex): boolean {
  // node:http keeps the response in progress on the socket; there is no public way to ask.
  const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  return current?.headersSent === true;
}

function endWith(socket: Duplex, refused: BridgeRefusal): void {
  // A client that resets now must not turn into an unhandled 'error' event.
  socket.on("error", () => undefined);
  // Destroyed, not only ended: the socket is freed even if the client never closes its side.
  socket.end(rawRefusal(refused), () => socket.destroy());
}

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable || answerStarted(socket)) {
    socket.destroy();
    return;
  }
  endWith(socket, refusalFor(error));
}

/** node:http hands CONNECT over as a raw socket, and drops it when no one listens. */
function answerConnect(_incoming: IncomingMessage, socket: Duplex): void {
  endWith(socket, refusals.connect());
}

/** A node:http server to attach `createNodeHandler`'s handler to as its "request" listener. */
export function createNodeServer(): Server {
  // The handler answers a missing Host itself, in JSON; node:http would send a bare 400.
  const server = createServer({ requireHostHeader: false });
  server.on("clientError", answerClientError);
  server.on("connect", answerConnect);
  return server;
}
