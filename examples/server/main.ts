// `npm start`: serves the operations over HTTP (REST and Connect) on node:http through
// `createNodeHandler`. Environment: PORT (8080; 0 for any free port), HOST (127.0.0.1), DEMO_TOKEN
// (demo-token), PUBLIC_ORIGIN (http://HOST:PORT), MAX_BODY_BYTES (1 MiB), STOP_GRACE_MS (10000: how
// long SIGINT/SIGTERM waits for requests in flight before cutting them off), DATABASE_URL or
// PGLITE_DIR for durable storage (see storage.ts), and the keys of the codes it mails:
// HUMAN_USERS_CODE_HMAC_KEY, HUMAN_USERS_ENCRYPTION_KEY, HUMAN_USERS_KEY_ID and
// HUMAN_USERS_PREVIOUS_KEYS (see keysFromEnvironment). Mail is printed instead of sent.
// A setting or a fault that stops it from starting prints one line and exits with 1.
import type { AddressInfo } from "node:net";
import { checkConfiguration, keysFromEnvironment, startNotificationWorker, systemClock, type NotificationWorker, type Ports } from "../../src/index.js";
import { createNodeHandler } from "../../src/node/index.js";
import { consoleMailer } from "./console-mailer.js";
import { DEMO_ORGANIZATION, demoTokenAuthentication } from "./demo-auth.js";
import { createNodeServer } from "./node-server.js";
import { gracefulStop } from "./graceful-stop.js";
import { listen } from "./listen.js";
import { readSettings } from "./settings.js";
import { openStorage, type OpenedStorage } from "./storage.js";

/** How long closing the worker and the storage may take after the server has stopped. */
const CLOSE_MS = 5_000;

function exitWith(message: string): never {
  console.error(`human-users example server: ${message.replaceAll(/\s*\n\s*/g, " ")}`);
  process.exit(1);
}

function demoPorts(opened: OpenedStorage, origin: string, throwawayKeys: boolean): Ports {
  const keys = keysFromEnvironment(process.env);
  return {
    storage: opened.storage,
    mailer: consoleMailer(),
    clock: systemClock,
    ...(keys.isOk() && keys.value !== undefined ? { keys: keys.value } : {}),
    config: { origin, allowThrowawayKeys: throwawayKeys },
  };
}

async function main(): Promise<void> {
  const settings = readSettings(process.env);
  if (settings.isErr()) exitWith(settings.error);
  const { port, host, token, maxBodyBytes, stopGraceMs } = settings.value;

  const keys = keysFromEnvironment(process.env);
  if (keys.isErr()) exitWith(keys.error.message);

  let opened: OpenedStorage;
  try {
    opened = await openStorage(process.env, DEMO_ORGANIZATION);
  } catch (cause) {
    exitWith(`could not open storage: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  // A demo may run on a durable store without keys, but says loudly what that costs.
  const throwawayKeys = keys.value === undefined && opened.storage.durable === true;
  if (throwawayKeys) {
    console.warn(
      `WARNING: ${opened.description} is durable, but no keys are set (HUMAN_USERS_CODE_HMAC_KEY, HUMAN_USERS_ENCRYPTION_KEY): ` +
        "this demo uses keys made for this process only, so codes it mails cannot be checked after a restart. Never run it like this in production.",
    );
  }
  // Fails at start-up, not at the first request, when the configuration cannot work.
  const checked = checkConfiguration(demoPorts(opened, "http://localhost:8080", throwawayKeys));
  if (checked.isErr()) exitWith(checked.error.message);

  const server = createNodeServer();
  const stopServer = gracefulStop(server, stopGraceMs);
  const listening = await listen(server, port, host);
  if (listening.isErr()) {
    await opened.close();
    exitWith(listening.error);
  }
  // Built once bound, so that with PORT=0 the links carry the port actually given.
  const { port: bound } = server.address() as AddressInfo;
  const origin = process.env["PUBLIC_ORIGIN"] ?? `http://${host}:${bound}`;
  const ports = demoPorts(opened, origin, throwawayKeys);
  // Retries failed deliveries, and sends what a stopped process left in a durable outbox.
  const worker: NotificationWorker = startNotificationWorker(ports);
  server.on("request", createNodeHandler(ports, { authenticate: demoTokenAuthentication(token), origin, ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }) }));

  let stopping = false;
  const shutDown = async (signal: NodeJS.Signals): Promise<void> => {
    // Ctrl-C under npm reaches this process twice (from the terminal, and forwarded by npm): stop once.
    if (stopping) return;
    stopping = true;
    // Bounded whatever happens: the grace period for requests, then a little for the worker and storage.
    setTimeout(() => exitWith(`did not stop within ${stopGraceMs + CLOSE_MS} ms of ${signal}`), stopGraceMs + CLOSE_MS).unref();
    await stopServer();
    await worker.stop();
    await opened.close();
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, (received) => void shutDown(received));
  // Printed last: whoever reads it may signal at once, and must find the handlers in place.
  console.log(
    `human-users example server listening on http://${host}:${bound} (pid ${process.pid}; storage ${opened.description}; send "Authorization: Bearer ${token}")`,
  );
}

await main();
