import { err, ok, type Result } from "neverthrow";
import type { Authorizer, Directory, IdGenerator, Keys, Outbox, PasskeyCeremonies, PasswordHashing, PendingNotification, Ports, RandomSource, Storage, UserLog } from "../ports/index.js";
import type { ErrorBody } from "../shared/error-body.js";
import { checkedRandom } from "../shared/checked-random.js";
import { loggerOf } from "../shared/host-calls.js";
import { checkedDirectory } from "./checked-directory.js";
import { webCryptoRandom } from "../shared/web-crypto-random.js";
import { defaultAuthorizer } from "./authorization/default-authorizer.js";
import { portFailure } from "./commands/port-call.js";
import { checkConfiguration } from "./config-check.js";
import { idnDirectory } from "./idn-directory.js";
import { cachedDirectory, DEFAULT_DIRECTORY_CACHE_MS } from "./directory-cache.js";
import { checkedClock } from "../shared/checked-clock.js";
import { checkedIds } from "./defaults/checked-ids.js";
import { processKeys } from "./defaults/process-keys.js";
import { timeOrderedIds } from "./defaults/time-ordered-ids.js";
import { safeTelemetry } from "../shared/safe-telemetry.js";
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
  readonly passkeys: PasskeyCeremonies;
}

/**
 * What the core is given by the layer that assembles the library (it cannot import those layers
 * itself): delivery right after a write, password hashing built from the ports' settings, and WebAuthn.
 */
export interface CommandRuntime {
  /**
   * Hands the notifications an append just wrote to delivery (`leased`: those it leased to this
   * process, and until when: the append's `leaseNotificationsUntil`); never rejects.
   */
  deliver(ports: ResolvedPorts, notificationIds: readonly string[], leased?: { readonly notifications: readonly PendingNotification[]; readonly until: Date }): Promise<unknown>;
  /** Until when an append leases its notifications to this process, when `deliver` sends them right after it. */
  leaseForWrite(ports: ResolvedPorts, now: Date): Date | undefined;
  /**
   * A command on `storage` begins; the function returned ends it, and gives what the command must
   * wait for before it answers (the deliveries of commands that ended before it, recorded), if
   * anything. Never throws; the returned promise never rejects.
   */
  beginCommand(storage: Storage): () => Promise<void> | undefined;
  passwordHashing(ports: Ports): PasswordHashing;
  /** WebAuthn, for passkey registration. */
  readonly passkeys: PasskeyCeremonies;
}

const defaultIds = timeOrderedIds();
const resolved = new WeakMap<object, Result<ResolvedPorts, ErrorBody>>();

/**
 * The ports with their defaults, once `checkConfiguration` has passed them (code 9 naming the
 * setting otherwise). The verdict and the resolved ports are kept per ports object, so that the
 * check runs once and per-ports caches hold.
 */
export function resolvePorts(ports: Ports, runtime: CommandRuntime): Result<ResolvedPorts, ErrorBody> {
  const cacheable = typeof ports === "object" && ports !== null;
  let result = cacheable ? resolved.get(ports) : undefined;
  if (result === undefined) {
    const checked = checkConfiguration(ports);
    if (checked.isErr()) result = err(checked.error);
    else {
      try {
        result = ok(withDefaults(ports, runtime));
      } catch (cause) {
        // A member the check does not read (a getter, the hashing settings) threw: 13, never a throw.
        return err(portFailure(cause, "resolving the ports", loggerOf(ports)));
      }
    }
    if (cacheable) resolved.set(ports, result);
  }
  return result;
}

function withDefaults(ports: Ports, runtime: CommandRuntime): ResolvedPorts {
  const storage = ports.storage;
  const directory = ports.directory ?? storage.directory;
  const passwords = runtime.passwordHashing(ports);
  // With telemetry, storage calls and hashes are child spans of the operation; without, the ports
  // as given. The host's telemetry is guarded: it can never change an answer.
  const telemetry = ports.telemetry === undefined ? undefined : safeTelemetry(ports.telemetry, ports.logger);
  return {
    ...ports,
    ...(telemetry === undefined ? {} : { telemetry }),
    // Traced inside the cache: a span is a real directory call, never an answer from the cache.
    // Checked inside the cache too: an answer of the wrong shape is never kept.
    directory: idnDirectory(cachedDirectory(checkedDirectory(telemetry === undefined ? directory : tracedDirectory(directory, telemetry)), (ports.config?.directoryCacheSeconds ?? DEFAULT_DIRECTORY_CACHE_MS / 1000) * 1000)),
    userLog: telemetry === undefined ? storage.userLog : tracedUserLog(storage.userLog, telemetry),
    outbox: storage.outbox,
    // The default makes only good ids; the host's are checked as they are drawn, and its times as they are read.
    ids: ports.ids === undefined ? defaultIds : checkedIds(ports.ids),
    clock: checkedClock(ports.clock),
    random: ports.random === undefined ? webCryptoRandom : checkedRandom(ports.random),
    authorizer: ports.authorizer ?? defaultAuthorizer,
    keys: ports.keys ?? processKeys(),
    passwords: telemetry === undefined ? passwords : tracedPasswords(passwords, telemetry),
    passkeys: runtime.passkeys,
  };
}
