// Fake PostgreSQL servers that accept TCP connections and then go quiet, to test the store's timeouts
// without waiting on a real outage. `greets` makes the server finish the startup handshake (trust
// authentication, then "ready for query") before it stops answering.
import { createServer, type Socket } from "node:net";

export interface SilentServer {
  readonly port: number;
  /** Connections accepted so far. */
  readonly accepted: () => number;
  /** Connections the client has closed so far. */
  readonly closedByClient: () => number;
  /** The SQL of every statement received (simple queries and Parse messages), in order. */
  readonly statements: string[];
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

const authenticationOk = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]);
const readyForQuery = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);

/** The first NUL-terminated string of `bytes` from `start`. */
function cString(bytes: Buffer, start: number): string {
  const end = bytes.indexOf(0, start);
  return bytes.toString("utf8", start, end < 0 ? bytes.length : end);
}

/** Splits the client's bytes into messages: the startup message has no type byte, the others do. */
function messageReader(onStartup: () => void, onMessage: (type: string, body: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const header = started ? 5 : 4;
      if (pending.length < header) return;
      const length = pending.readInt32BE(started ? 1 : 0);
      const total = started ? length + 1 : length;
      if (pending.length < total) return;
      const message = pending.subarray(0, total);
      pending = pending.subarray(total);
      if (!started) {
        started = true;
        onStartup();
      } else {
        onMessage(String.fromCharCode(message[0] ?? 0), message.subarray(5));
      }
    }
  };
}

export async function silentServer(options: { readonly greets: boolean }): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const statements: string[] = [];
  let accepted = 0;
  let closedByClient = 0;
  let closing = false;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => {
      sockets.delete(socket);
      if (!closing) closedByClient += 1;
    });
    socket.on(
      "data",
      messageReader(
        () => {
          if (options.greets) socket.write(Buffer.concat([authenticationOk, readyForQuery]));
        },
        (type, body) => {
          // Parse: statement name, then the SQL. Query: the SQL.
          if (type === "Q") statements.push(cString(body, 0));
          if (type === "P") statements.push(cString(body, body.indexOf(0) + 1));
        },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the fake server has no port");
  return {
    port: address.port,
    accepted: () => accepted,
    closedByClient: () => closedByClient,
    statements,
    async close() {
      closing = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
