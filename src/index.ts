/**
 * The functions (createHumanUser, importHumanUser, getUser, ...), the in-memory store and mailer, the clocks, the error helpers, the notification delivery and the port types. Guides: docs/ in the repository.
 *
 * @module human-users
 */
// The root entry: the operations, the in-memory adapters, the clocks, the error helpers and the
// public types. Other adapters and modules have entries of their own: `human-users/passwords`,
// `human-users/postgres`, `human-users/pglite`, `human-users/smtp`, `human-users/http`,
// `human-users/node`, `human-users/otel` and `human-users/testing`.
export {
  checkPassword,
  createHumanUser,
  createPasskeyRegistrationLink,
  getUser,
  importHumanUser,
  importHumanUsers,
  listUsers,
  passwordReset,
  registerPasskey,
  resendEmailCode,
  resendInitialization,
  resendPhoneCode,
  setPassword,
  unlockUser,
  verifyEmail,
  verifyInitCode,
  verifyPasskeyRegistration,
  verifyPhone,
  type UserOperation,
} from "./operations/index.js";
export {
  defaultBulkImportOptions,
  type BatchAnswer,
  type BulkImportOptions,
  type BulkImportOutcome,
  type BulkImportSource,
  type ImportConflict,
  type ImportHolder,
  type StopSignal,
} from "./core/bulk/import-human-users.js";
export type { OperationContext } from "./core/context.js";
export type * from "./core/requests.js";
export type * from "./core/responses.js";
export * from "./core/errors/index.js";
export { foldUser } from "./core/users/fold-user.js";
export type * from "./core/users/user-state.js";
export type { UserEventType, UserEventPayloads } from "./core/events/user-events.js";
export { claimKey } from "./core/claims.js";
export { checkConfiguration } from "./core/config-check.js";
export { keysFromEnvironment, keyVariables, type Environment } from "./core/secrets/environment-keys.js";
export type * from "./shared/json.js";
export * from "./ports/index.js";
export type { HashBounds, PasswordHasher } from "./passwords/index.js";
export * from "./notifications/index.js";
export { memoryStore, type MemoryStore, type MemoryStoreSeed, type MemoryUserLog } from "./adapters/memory/store.js";
export { memoryMailer, type MemoryMailer, type MemoryMailerOptions } from "./adapters/memory/mailer.js";
export { fixedClock, systemClock } from "./adapters/clocks.js";
