import type { Server } from "node:http";
import { err, ok, type Result } from "neverthrow";

/** What a failed listen means, in the words of the setting to change. */
function listenFailure(error: NodeJS.ErrnoException, port: number, host: string): string {
  switch (error.code) {
    case "EADDRINUSE":
      return `port ${port} on ${host} is already in use (set PORT to another, or 0 for any free port)`;
    case "EACCES":
      return `not allowed to listen on port ${port} on ${host} (set PORT to 1024 or more)`;
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return `HOST ${JSON.stringify(host)} is not an address of this machine`;
    default:
      return `could not listen on ${host}:${port}: ${error.message}`;
  }
}

/** Starts `server` listening, or says in one line why it cannot. */
export function listen(server: Server, port: number, host: string): Promise<Result<void, string>> {
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException): void => resolve(err(listenFailure(error, port, host)));
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve(ok(undefined));
    });
  });
}
