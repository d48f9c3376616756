// Stopping a node:http server without cutting off answers in progress. server.close() alone refuses
// new connections but keeps each busy one alive after its answer (for the keep-alive timeout), and
// waits without end for a client that stalls mid-request.
import type { Server, ServerResponse } from "node:http";

function closeAfterAnswer(outgoing: ServerResponse): void {
  if (!outgoing.headersSent) outgoing.setHeader("connection", "close");
}

/**
 * Prepares `server` for a graceful stop, and returns the stop: no new connections, idle ones closed
 * at once, every answer still to come closes its connection, and whatever is left after `graceMs`
 * (a client stalled half way through its request) is cut off. Resolves once all are closed.
 */
export function gracefulStop(server: Server, graceMs: number): () => Promise<void> {
  const answering = new Set<ServerResponse>();
  let stopping = false;
  server.on("request", (_incoming, outgoing: ServerResponse) => {
    if (stopping) {
      // A request pipelined or kept alive behind one in flight.
      closeAfterAnswer(outgoing);
      return;
    }
    answering.add(outgoing);
    outgoing.once("close", () => answering.delete(outgoing));
  });
  return () =>
    new Promise((resolve) => {
      stopping = true;
      answering.forEach(closeAfterAnswer);
      const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
      server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      server.closeIdleConnections();
    });
}
