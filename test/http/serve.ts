import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "../../src/node/index.js";
import type { FetchHandler } from "../../src/http/index.js";

export interface Served {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Serves `handler` on a free loopback port until `close()`. */
export async function serveOnLoopback(handler: FetchHandler): Promise<Served> {
  const server: Server = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
