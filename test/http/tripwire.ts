import type { Logger, Mailer, Ports, Storage } from "../../src/index.js";

export interface Tripwire {
  readonly ports: Ports;
  /** Every storage method and mailer call made, by name. */
  readonly touched: string[];
  /** Every `logger.error` message. */
  readonly logged: string[];
}

/** Ports that record any use of storage or mail: a refused request must leave `touched` empty. */
export function tripwirePorts(): Tripwire {
  const touched: string[] = [];
  const logged: string[] = [];
  // Each part of the store answers every method it is asked for, so that the ports pass the
  // configuration check (as a real store's do) and a refusal is the request's, never the ports'.
  const part = (partName: string): object =>
    new Proxy(
      {},
      {
        get: (_target, name) => () => {
          touched.push(`storage.${partName}.${String(name)}`);
          return Promise.reject(new Error("tripwire storage"));
        },
      },
    );
  const storage = { directory: part("directory"), userLog: part("userLog"), outbox: part("outbox") } as unknown as Storage;
  const mailer: Mailer = {
    send: () => {
      touched.push("mailer.send");
      return Promise.reject(new Error("tripwire mailer"));
    },
  };
  const logger: Logger = { warn: () => undefined, error: (_fields, message) => void logged.push(message) };
  const ports: Ports = { storage, mailer, clock: { now: () => new Date("2024-05-01T12:00:00Z") }, logger };
  return { ports, touched, logged };
}
