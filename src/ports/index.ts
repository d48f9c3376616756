import type { HashBounds } from "../passwords/bounds.js";
import type { PasswordHasher } from "../passwords/hashers/hasher.js";
import type { Authorizer } from "./authorizer.js";
import type { Clock } from "./clock.js";
import type { IdGenerator } from "./id-generator.js";
import type { Keys } from "./keys.js";
import type { Logger } from "./logger.js";
import type { Mailer } from "./mailer.js";
import type { RandomSource } from "./random-source.js";
import type { SmsSender } from "./sms-sender.js";
import type { Directory } from "./directory.js";
import type { Storage } from "./storage.js";
import type { HumanUsersConfig } from "./config.js";
import type { Telemetry } from "./telemetry.js";

export type * from "./authorizer.js";
export type * from "./clock.js";
export type * from "./config.js";
export type * from "./id-generator.js";
export type * from "./keys.js";
export type * from "./logger.js";
export type * from "./mailer.js";
export type * from "./random-source.js";
export type * from "./sms-sender.js";
export type * from "./storage.js";
export type * from "./password-hashing.js";
export type * from "./passkeys.js";
export type { Telemetry, TelemetryAttributes, TelemetryCounter, TelemetrySpan } from "./telemetry.js";
export { StorageUnavailableError } from "./storage.js";
// A value: a store writes it as the lastError of a withdrawn notification.
export { WITHDRAWN_NOTIFICATION_ERROR } from "./outbox.js";
export { MailerSetupError, PermanentDeliveryError } from "./mailer.js";

/**
 * Everything the operations talk to. `storage`, `mailer` and `clock` are required; every other
 * port has a safe default (see the table of ports in docs/configuration-and-keys.md).
 */
export interface Ports {
  /** A store's three parts: directory, user log and outbox (`memoryStore()`, `postgresStore()`, ...). */
  readonly storage: Storage;
  /** Organizations and identity providers from the host's own tables; takes precedence over `storage.directory`. */
  readonly directory?: Directory;
  readonly mailer: Mailer;
  readonly clock: Clock;
  /**
   * Default: 34-digit time-ordered decimal ids; each millisecond's ids count up from a 64-bit random
   * start, so processes sharing a database do not meet (18-digit ids did).
   */
  readonly ids?: IdGenerator;
  /** Default: Web Crypto's `getRandomValues`. */
  readonly random?: RandomSource;
  /** Default: instance admins everywhere, everyone else in their own organization only. */
  readonly authorizer?: Authorizer;
  /** Hashes new plain passwords. Default: `defaultPasswordHasher`. */
  readonly passwordHasher?: PasswordHasher;
  /** Cost bounds for imported hashes, member by member over `defaultHashBounds`. */
  readonly hashBounds?: Partial<HashBounds>;
  /**
   * The Firebase project's `base64_signer_key` (Authentication, Password hash parameters), for
   * imported hashes in SuperTokens' `$f_scrypt$` spelling, which leaves it out. Without it such
   * hashes are refused (3) at import.
   */
  readonly firebaseSignerKey?: string;
  /**
   * Default: random keys made once per process, so codes cannot be checked after a restart: a
   * durable store (`storage.durable`) refuses them (code 9) unless `config.allowThrowawayKeys`.
   * `keysFromEnvironment(process.env)` reads durable ones.
   */
  readonly keys?: Keys;
  /** Without one, phone codes are recorded (as keyed hashes) but no SMS is queued. */
  readonly sms?: SmsSender;
  /**
   * Receives internal causes and delivery failures: pino, console, or anything with `warn` and
   * `error` taking `(fields, message)`. Default: only the failures the host must act on (a mailer
   * that cannot send, a notification gone dead) reach the console, as a warning once per cause.
   */
  readonly logger?: Logger;
  /** Spans and counters (`openTelemetry(api)` from `human-users/otel`); without it nothing is measured. */
  readonly telemetry?: Telemetry;
  readonly config?: HumanUsersConfig;
}
