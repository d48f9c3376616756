import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ServedNode {
  readonly baseUrl: string;
  readonly port: number;
  /** Resolves once every request handed to the listener so far has been answered (or given up). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export type Listener = (request: IncomingMessage, response: ServerResponse) => unknown;

/** Serves `listener` on a free loopback port until `close()`, keeping the promises it returns. */
export async function serveNode(listener: Listener, server: Server = createServer()): Promise<ServedNode> {
  const pending: Promise<unknown>[] = [];
  server.on("request", (request: IncomingMessage, response: ServerResponse) => void pending.push(Promise.resolve(listener(request, response))));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    settled: async () => void (await Promise.all(pending)),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
