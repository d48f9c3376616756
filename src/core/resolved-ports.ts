import type { Authorizer, Directory, IdGenerator, Keys, Outbox, PasswordHashing, Ports, RandomSource, UserLog } from "../ports/index.js";
import { webCryptoRandom } from "../shared/web-crypto-random.js";
import { defaultAuthorizer } from "./authorization/default-authorizer.js";
import { cachedDirectory, DEFAULT_DIRECTORY_CACHE_MS } from "./directory-cache.js";
import { processKeys } from "./defaults/process-keys.js";
import { timeOrderedIds } from "./defaults/time-ordered-ids.js";
import { tracedDirectory, tracedPasswords, tracedUserLog } from "./telemetry/traced-ports.js";

/** Ports with every optional one filled by its default, and the store's parts picked out. */
export interface ResolvedPorts extends Ports {
  readonly directory: Directory;
  readonly userLog: UserLog;
  readonly outbox: Outbox;
  readonly ids: IdGenerator;
  readonly random: RandomSource;
  readonly authorizer: Authorizer;
  readonly keys: Keys;
  readonly passwords: PasswordHashing;
}

/**
 * What the core is given by the layer that assembles the library (it cannot import those layers
 * itself): delivery right after a write, and password hashing built from the ports' settings.
 */
export interface CommandRuntime {
  /** Hands the notifications an append just wrote to delivery; never rejects. */
  deliver(ports: ResolvedPorts, notificationIds: readonly string[]): Promise<unknown>;
  passwordHashing(ports: Ports): PasswordHashing;
}

const defaultIds = timeOrderedIds();
const resolved = new WeakMap<Ports, ResolvedPorts>();

/** The ports with their defaults; the same object for the same ports, so per-ports caches hold. */
export function resolvePorts(ports: Ports, runtime: CommandRuntime): ResolvedPorts {
  let result = resolved.get(ports);
  if (result === undefined) {
    const storage = ports.storage;
    const directory = ports.directory ?? storage.directory;
    const passwords = runtime.passwordHashing(ports);
    // With telemetry, storage calls and hashes are child spans of the operation; without, the ports as given.
    const telemetry = ports.telemetry;
    result = {
      ...ports,
      // Traced inside the cache: a span is a real directory call, never an answer from the cache.
      directory: cachedDirectory(telemetry === undefined ? directory : tracedDirectory(directory, telemetry), (ports.config?.directoryCacheSeconds ?? DEFAULT_DIRECTORY_CACHE_MS / 1000) * 1000),
      userLog: telemetry === undefined ? storage.userLog : tracedUserLog(storage.userLog, telemetry),
      outbox: storage.outbox,
      ids: ports.ids ?? defaultIds,
      random: ports.random ?? webCryptoRandom,
      authorizer: ports.authorizer ?? defaultAuthorizer,
      keys: ports.keys ?? processKeys(),
      passwords: telemetry === undefined ? passwords : tracedPasswords(passwords, telemetry),
    };
    resolved.set(ports, result);
  }
  return result;
}
