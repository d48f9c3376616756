// Public surface of human-users. Every name here is part of the contract (SPEC section 1).
export { createHumanUser } from "./core/commands/create-human-user.js";
export { importHumanUser } from "./core/commands/import-human-user.js";
export { importHumanUsers, defaultBulkImportOptions, type BulkImportOptions, type BulkImportOutcome, type BulkImportSource, type StopSignal } from "./core/bulk/import-human-users.js";
export type { OperationContext } from "./core/context.js";
export type { CreateHumanUserRequest, ImportHumanUserRequest } from "./core/requests.js";
export type { CreateHumanUserResponse, CreationDetails, ImportHumanUserResponse, PasswordlessRegistration } from "./core/responses.js";
export * from "./core/errors/index.js";
export type * from "./shared/json.js";
export * from "./ports/index.js";
export * from "./passwords/index.js";
export * from "./notifications/index.js";
export { memoryStore, type MemoryStore, type MemoryStoreSeed } from "./adapters/memory/store.js";
export { memoryMailer, type MemoryMailer, type MemoryMailerOptions } from "./adapters/memory/mailer.js";
export { fixedClock, systemClock } from "./adapters/clocks.js";
export * from "./adapters/smtp/index.js";
export * from "./adapters/postgres/index.js";
export * from "./adapters/pglite/index.js";
export * from "./http/index.js";
