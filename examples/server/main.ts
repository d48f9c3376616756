// `npm start`: serves operations A and B over HTTP (REST and Connect) on node:http. Environment:
// PORT (8080; 0 for any free port), HOST (127.0.0.1), DEMO_TOKEN (demo-token), PUBLIC_ORIGIN
// (http://HOST:PORT), MAX_BODY_BYTES (1 MiB), STOP_GRACE_MS (10000: how long SIGINT/SIGTERM waits for
// requests in flight), DATABASE_URL or PGLITE_DIR for durable storage (see storage.ts), and the keys
// of the codes it mails: HUMAN_USERS_CODE_HMAC_KEY, HUMAN_USERS_ENCRYPTION_KEY, HUMAN_USERS_KEY_ID and
// HUMAN_USERS_PREVIOUS_KEYS (see keysFromEnvironment). Mail is printed instead of sent.
import type { RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { checkConfiguration, keysFromEnvironment, startNotificationWorker, systemClock, type NotificationWorker, type Ports } from "../../src/index.js";
import { createFetchHandler } from "../../src/http/index.js";
import { consoleMailer } from "./console-mailer.js";
import { DEMO_ORGANIZATION, demoTokenAuthentication } from "./demo-auth.js";
import { nodeListener } from "./node-listener.js";
import { createNodeServer } from "./node-server.js";
import { gracefulStop } from "./graceful-stop.js";
import { openStorage } from "./storage.js";

const env = process.env;
const port = Number(env["PORT"] ?? "8080");
const host = env["HOST"] ?? "127.0.0.1";
const token = env["DEMO_TOKEN"] ?? "demo-token";
const maxBodyBytes = env["MAX_BODY_BYTES"] === undefined ? undefined : Number(env["MAX_BODY_BYTES"]);
const stopGraceMs = Number(env["STOP_GRACE_MS"] ?? "10000");
// NaN would cut off every request in flight at once: refuse the setting at start-up.
if (!Number.isSafeInteger(stopGraceMs) || stopGraceMs < 0) throw new RangeError("STOP_GRACE_MS must be a whole number of milliseconds, 0 or more");

const keys = keysFromEnvironment(env);
if (keys.isErr()) throw new Error(keys.error.message);

const opened = await openStorage(env, DEMO_ORGANIZATION);
// A demo may run on a durable store without keys, but says loudly what that costs.
const throwawayKeys = keys.value === undefined && opened.storage.durable === true;
if (throwawayKeys) {
  console.warn(
    `WARNING: ${opened.description} is durable, but no keys are set (HUMAN_USERS_CODE_HMAC_KEY, HUMAN_USERS_ENCRYPTION_KEY): ` +
      "this demo uses keys made for this process only, so codes it mails cannot be checked after a restart. Never run it like this in production.",
  );
}

function demoPorts(origin: string): Ports {
  return {
    storage: opened.storage,
    mailer: consoleMailer(),
    clock: systemClock,
    ...(keys.isOk() && keys.value !== undefined ? { keys: keys.value } : {}),
    config: { origin, allowThrowawayKeys: throwawayKeys },
  };
}

// Fails at start-up, not at the first request, when the configuration cannot work.
const checked = checkConfiguration(demoPorts("http://localhost:8080"));
if (checked.isErr()) throw new Error(checked.error.message);

let worker: NotificationWorker | undefined;

function serveOperations(origin: string): RequestListener {
  const ports = demoPorts(origin);
  // Retries failed deliveries, and sends what a stopped process left in a durable outbox.
  worker = startNotificationWorker(ports);
  const authenticate = demoTokenAuthentication(token);
  return nodeListener(createFetchHandler(ports, { authenticate, origin, ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }) }));
}

const server = createNodeServer();
const stopServer = gracefulStop(server, stopGraceMs);
server.listen(port, host, () => {
  // Built once bound, so that with PORT=0 the links carry the port actually given.
  const { port: bound } = server.address() as AddressInfo;
  const origin = env["PUBLIC_ORIGIN"] ?? `http://${host}:${bound}`;
  server.on("request", serveOperations(origin));
  console.log(`human-users example server listening on http://${host}:${bound} (storage ${opened.description}; send "Authorization: Bearer ${token}")`);
});

async function shutDown(): Promise<void> {
  await stopServer();
  await worker?.stop();
  await opened.close();
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void shutDown());
}
