// The one check of the ports and the configuration: run once per ports object when the ports are
// resolved (every operation answers its verdict), and exported for a host to call at start-up.
// A setting the library cannot honour is named here, instead of hanging, failing later or being
// quietly replaced by a default.
import { err, ok, type Result } from "neverthrow";
import { isSupportedCountry } from "libphonenumber-js/min";
import type { CodeSpec, DeliverySettings, HumanUsersConfig, PasskeySettings, RequestLimits } from "../ports/config.js";
import type { Ports } from "../ports/index.js";
import { defaultLeaseSeconds, MAX_DELIVERY_SECONDS } from "../shared/default-lease.js";
import { closestName } from "../shared/closest-name.js";
import { firebaseSignerKeyBytes } from "../shared/firebase-signer-key.js";
import type { ErrorBody } from "../shared/error-body.js";
import type { OperationContext } from "./context.js";
import { invalidConfiguration, unauthenticated } from "./errors/user-errors.js";
import { isHttpUrl, LINK_PLACEHOLDERS, PASSKEY_LINK_PLACEHOLDERS, parseUrlTemplate, type TemplateValue } from "./rules/url-template.js";
import { ALPHABET_SIZE, CODE_LENGTH, alphabetCharacters, defaultCodeSpecs, isCodeLength } from "./secrets/codes.js";
import { keysProblems } from "./secrets/key-check.js";
import { canonicalLanguageTag, isIntlLanguageTag } from "./rules/language-tag.js";
import { splitMessageTemplate } from "../shared/message-template.js";

type Fields = Readonly<Record<string, unknown>>;

/** Ten years: a longer code lifetime is a mistake, and would overflow the dates it makes. */
const MAX_CODE_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;
const MAX_APPEND_ATTEMPTS = 100;

function fieldsOf(value: unknown): Fields | undefined {
  return typeof value === "object" && value !== null ? (value as Fields) : undefined;
}

function isFunction(value: unknown): boolean {
  return typeof value === "function";
}

function isWholeAtLeast(value: unknown, minimum: number): boolean {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= minimum;
}

function isPositive(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

/** Every name each object may hold, kept whole by the compiler: a name the types gain must be added here. */
const PORT_NAMES = {
  storage: true, directory: true, mailer: true, clock: true, ids: true, random: true, authorizer: true, passwordHasher: true,
  hashBounds: true, firebaseSignerKey: true, keys: true, sms: true, logger: true, telemetry: true, config: true,
} as const satisfies Record<keyof Ports, true>;
const CONFIG_NAMES = {
  origin: true, emailVerificationUrlTemplate: true, initializationUrlTemplate: true, passwordResetUrlTemplate: true,
  passkeyRegistrationUrlTemplate: true, passkeys: true, codes: true, defaultPhoneRegion: true, immediateDelivery: true,
  appendAttempts: true, allowThrowawayKeys: true, directoryCacheSeconds: true, messages: true, delivery: true, limits: true,
} as const satisfies Record<keyof HumanUsersConfig, true>;
const DELIVERY_NAMES = {
  maxAttempts: true, initialBackoffSeconds: true, maxBackoffSeconds: true, leaseSeconds: true, sendTimeoutSeconds: true, batchSize: true, concurrency: true,
} as const satisfies Record<keyof DeliverySettings, true>;
const LIMIT_NAMES = { maxMetadataEntries: true, maxIdentityProviderLinks: true, maxFieldViolations: true } as const satisfies Record<keyof RequestLimits, true>;
const PASSKEY_NAMES = { rpId: true, rpName: true, origins: true, timeoutSeconds: true } as const satisfies Record<keyof PasskeySettings, true>;
const CODE_SPEC_NAMES = { length: true, alphabet: true, lifetimeSeconds: true } as const satisfies Record<keyof CodeSpec, true>;
const HASH_BOUND_NAMES = {
  bcryptMinCost: true, bcryptMaxCost: true, argon2MinTime: true, argon2MaxTime: true, argon2MaxMemoryKiB: true, argon2MaxParallelism: true,
  scryptMaxMemoryBytes: true, scryptMaxWork: true, pbkdf2MaxIterations: true, minDerivedKeyBytes: true, maxDerivedKeyBytes: true,
  shaCryptMaxRounds: true, phpassMinLog2: true, phpassMaxLog2: true, maxPasswordBytes: true, maxEstimatedCostMs: true,
} as const satisfies Record<keyof NonNullable<Ports["hashBounds"]>, true>;

/**
 * A member no setting has is a misspelling the library would otherwise ignore (a default link
 * instead of the host's, a logger never called): named, with the setting it is likely meant as.
 * A member left undefined is ignored, as for every setting.
 */
function checkNames(problems: Problems, fields: Fields, known: Readonly<Record<string, true>>, name: string, what: string): void {
  // Only plain objects: a class instance may hold fields of its own (a TypeScript `private db`).
  const prototype: unknown = Object.getPrototypeOf(fields);
  if (prototype !== null && prototype !== Object.prototype && Object.getPrototypeOf(prototype) !== null) return;
  const names = Object.keys(known);
  for (const member of Object.keys(fields)) {
    if (Object.hasOwn(known, member)) continue;
    // Read without calling a getter: the known members are each read in their own section.
    const descriptor = Object.getOwnPropertyDescriptor(fields, member);
    if (descriptor !== undefined && "value" in descriptor && descriptor.value === undefined) continue;
    const meant = closestName(member, names);
    problems.add(`${name}.${member} is not ${what}${meant === undefined ? "" : ` (did you mean ${name}.${meant}?)`}`);
  }
}

/**
 * Collects problems; a getter that throws while a section is read becomes a problem of that
 * section rather than an exception.
 */
class Problems {
  readonly found: string[] = [];

  add(problem: string): void {
    this.found.push(problem);
  }

  section(name: string, check: () => void): void {
    try {
      check();
    } catch {
      this.add(`${name} could not be read`);
    }
  }
}

/** What to pass for each required port, said when it is missing. */
const MISSING_PORT_HINTS: Readonly<Record<string, string>> = {
  "ports.storage": "memoryStore() in tests, postgresStore(pool) from human-users/postgres or pgliteStore(db) from human-users/pglite",
  "ports.mailer": "memoryMailer() in tests, smtpMailer(...) from human-users/smtp, or an object with send(message)",
  "ports.clock": "systemClock (fixedClock(time) in tests)",
};

/** A required port's absence, with what to pass when there is a hint for it. */
function missingPort(name: string): string {
  const hint = MISSING_PORT_HINTS[name];
  return hint === undefined ? `${name} is missing` : `${name} is missing: ${hint}`;
}

/** A required port: present, an object, with the methods the library calls. */
function requirePort(problems: Problems, value: unknown, name: string, methods: readonly string[]): void {
  if (value === undefined || value === null) return problems.add(missingPort(name));
  optionalPort(problems, value, name, methods);
}

/** An optional port: absent, or an object with the methods the library calls. */
function optionalPort(problems: Problems, value: unknown, name: string, methods: readonly string[]): void {
  if (value === undefined) return;
  const port = fieldsOf(value);
  if (port === undefined) return problems.add(`${name} must be an object`);
  for (const method of methods) if (!isFunction(port[method])) problems.add(`${name}.${method} must be a function`);
}

const DIRECTORY_METHODS = ["findOrganization", "findOrganizationByDomain", "findIdentityProvider"] as const;

function checkStorage(problems: Problems, ports: Fields): void {
  const storageValue = ports["storage"];
  if (storageValue === undefined || storageValue === null) return problems.add(missingPort("ports.storage"));
  const storage = fieldsOf(storageValue);
  if (storage === undefined) return problems.add("ports.storage must be an object");
  // `ports.directory` takes the place of the store's own directory.
  if (ports["directory"] === undefined) requirePort(problems, storage["directory"], "ports.storage.directory", DIRECTORY_METHODS);
  requirePort(problems, storage["userLog"], "ports.storage.userLog", ["findHeldClaims", "append", "loadEvents", "findClaimHolder"]);
  requirePort(problems, storage["outbox"], "ports.storage.outbox", ["lease", "markDelivered", "markFailed"]);
}

/**
 * The bounds on imported hashes: each one given a number, 0 or more. A bound that is no number was
 * left at its default without a word, and a negative one refused every hash of its family (13).
 */
function checkHashBounds(problems: Problems, value: unknown): void {
  if (value === undefined) return;
  const bounds = fieldsOf(value);
  if (bounds === undefined || Array.isArray(value)) return problems.add("ports.hashBounds must be an object");
  checkNames(problems, bounds, HASH_BOUND_NAMES, "ports.hashBounds", "a bound");
  for (const [name, bound] of Object.entries(bounds)) {
    // A member left undefined keeps its default, as delivery settings do.
    if (bound === undefined || !Object.hasOwn(HASH_BOUND_NAMES, name)) continue;
    if (!(typeof bound === "number" && Number.isFinite(bound) && bound >= 0)) problems.add(`ports.hashBounds.${name} must be a number, 0 or more`);
  }
}

function checkPorts(problems: Problems, ports: Fields): void {
  problems.section("ports", () => checkNames(problems, ports, PORT_NAMES, "ports", "a port"));
  problems.section("ports.storage", () => checkStorage(problems, ports));
  problems.section("ports.mailer", () => requirePort(problems, ports["mailer"], "ports.mailer", ["send"]));
  problems.section("ports.clock", () => requirePort(problems, ports["clock"], "ports.clock", ["now"]));
  const optional: readonly [string, readonly string[]][] = [
    ["directory", DIRECTORY_METHODS],
    ["ids", ["next"]],
    ["random", ["fill"]],
    ["authorizer", ["hasPermission"]],
    ["passwordHasher", ["hash", "isCurrent"]],
    ["sms", ["send"]],
    ["logger", ["warn", "error"]],
    ["telemetry", ["span", "count"]],
  ];
  for (const [name, methods] of optional) problems.section(`ports.${name}`, () => optionalPort(problems, ports[name], `ports.${name}`, methods));
  problems.section("ports.hashBounds", () => checkHashBounds(problems, ports["hashBounds"]));
  problems.section("ports.firebaseSignerKey", () => {
    const key = ports["firebaseSignerKey"];
    if (key !== undefined && firebaseSignerKeyBytes(key) === undefined) problems.add("ports.firebaseSignerKey must be the Firebase project's base64_signer_key, in base64");
  });
}

/** Durable stores need keys that survive a restart, or the host's explicit opt-in. */
function checkKeys(problems: Problems, ports: Fields, config: Fields | undefined): void {
  const keys = ports["keys"];
  if (keys !== undefined) {
    for (const problem of keysProblems(keys, "ports.keys")) problems.add(problem);
    return;
  }
  const durable = fieldsOf(ports["storage"])?.["durable"] === true;
  if (durable && config?.["allowThrowawayKeys"] !== true) {
    problems.add(
      "ports.keys is missing: the store is durable (storage.durable), so codes must still check after a restart; " +
        "give keys (keysFromEnvironment) or set config.allowThrowawayKeys: true",
    );
  }
}

function checkCodeSpec(problems: Problems, value: unknown, name: string): void {
  const spec = fieldsOf(value);
  if (spec === undefined) return problems.add(`${name} must be an object`);
  checkNames(problems, spec, CODE_SPEC_NAMES, name, "a part of a code's spec");
  const { length, alphabet, lifetimeSeconds } = spec;
  if (length !== undefined && !isCodeLength(length)) problems.add(`${name}.length must be a whole number from ${CODE_LENGTH.min} to ${CODE_LENGTH.max}`);
  if (alphabet !== undefined && (typeof alphabet !== "string" || alphabetCharacters(alphabet) === undefined)) {
    problems.add(`${name}.alphabet must be a string of ${ALPHABET_SIZE.min} to ${ALPHABET_SIZE.max} distinct characters`);
  }
  if (lifetimeSeconds !== undefined && !(isWholeAtLeast(lifetimeSeconds, 1) && (lifetimeSeconds as number) <= MAX_CODE_LIFETIME_SECONDS)) {
    problems.add(`${name}.lifetimeSeconds must be a whole number of seconds from 1 to ${MAX_CODE_LIFETIME_SECONDS}`);
  }
}

function checkCodes(problems: Problems, value: unknown): void {
  if (value === undefined) return;
  const codes = fieldsOf(value);
  if (codes === undefined) return problems.add("config.codes must be an object");
  const kinds = Object.keys(defaultCodeSpecs);
  for (const [kind, spec] of Object.entries(codes)) {
    if (!kinds.includes(kind)) problems.add(`config.codes.${kind} is not a kind of code (${kinds.join(", ")})`);
    else if (spec !== undefined) checkCodeSpec(problems, spec, `config.codes.${kind}`);
  }
}

/** Whether links can start with `origin`: an absolute http(s) URL, nothing after its path. */
function isLinkOrigin(origin: unknown): boolean {
  return typeof origin === "string" && isHttpUrl(origin) && !origin.includes("#") && !origin.includes("?");
}

/** The problem of an origin named `name` (`config.origin`, `context.origin`, a handler's `origin`), or undefined when links can start with it. */
export function originProblem(origin: unknown, name: string): string | undefined {
  if (origin === undefined) return undefined;
  if (!isLinkOrigin(origin)) return `${name} must be an absolute http or https URL without query or fragment`;
  // The default links are templates that start with the origin: a brace in it would be read as one.
  return /[{}]/.test(origin as string) ? `${name} must not hold "{" or "}"` : undefined;
}

function checkOrigin(problems: Problems, origin: unknown): void {
  const problem = originProblem(origin, "config.origin");
  if (problem !== undefined) problems.add(problem);
}

function checkUrlTemplate(problems: Problems, value: unknown, name: string, placeholders: readonly TemplateValue[] = LINK_PLACEHOLDERS): void {
  if (value === undefined) return;
  if (typeof value !== "string") return problems.add(`${name} must be a string`);
  const parsed = parseUrlTemplate(value, placeholders);
  if (parsed.isErr()) problems.add(`${name} ${parsed.error}`);
}

/** An origin exactly as browsers send it in a registration (scheme, lower-case host, port; no slash after): it is compared as it is. */
function isOrigin(value: unknown): boolean {
  if (typeof value !== "string" || !/^https?:\/\//.test(value)) return false;
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

/** The relying party passkeys are registered for: a domain, a name, and the origins registrations come from. */
function checkPasskeys(problems: Problems, value: unknown): void {
  if (value === undefined) return;
  const passkeys = fieldsOf(value);
  if (passkeys === undefined || Array.isArray(value)) return problems.add("config.passkeys must be an object");
  checkNames(problems, passkeys, PASSKEY_NAMES, "config.passkeys", "a passkey setting");
  const { rpId, rpName, origins, timeoutSeconds } = passkeys;
  // A domain name in lower case, as browsers compare it; an IP address is no RP ID (WebAuthn, 5.1.3).
  const isRpId = typeof rpId === "string" && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(rpId) && !/(^|\.)\d+$/.test(rpId);
  if (!isRpId) problems.add("config.passkeys.rpId must be a domain name in lower case (example.com), not an IP address");
  if (typeof rpName !== "string" || rpName.trim() === "") problems.add("config.passkeys.rpName must be a string that is not empty");
  if (!Array.isArray(origins) || origins.length === 0) problems.add("config.passkeys.origins must list at least one origin");
  else {
    origins.forEach((origin: unknown, index) => {
      if (!isOrigin(origin)) problems.add(`config.passkeys.origins[${index}] must be an origin exactly as browsers send it (https://login.example.com: no path or slash after, lower case)`);
      // WebAuthn: the RP ID is the origin's host or a domain it is under; any other fails every ceremony.
      else if (isRpId) {
        const host = new URL(origin as string).hostname;
        if (host !== rpId && !host.endsWith(`.${rpId as string}`)) problems.add(`config.passkeys.origins[${index}] must be on config.passkeys.rpId (${rpId as string}) or a domain under it`);
      }
    });
  }
  if (timeoutSeconds !== undefined && !isWholeAtLeast(timeoutSeconds, 1)) problems.add("config.passkeys.timeoutSeconds must be a whole number of seconds, 1 or more");
}

function checkDelivery(problems: Problems, value: unknown): void {
  if (value === undefined) return;
  const delivery = fieldsOf(value);
  if (delivery === undefined) return problems.add("config.delivery must be an object");
  checkNames(problems, delivery, DELIVERY_NAMES, "config.delivery", "a delivery setting");
  for (const name of ["maxAttempts", "batchSize", "concurrency"]) {
    const setting = delivery[name];
    if (setting !== undefined && !isWholeAtLeast(setting, 1)) problems.add(`config.delivery.${name} must be a whole number, 1 or more`);
  }
  for (const name of ["initialBackoffSeconds", "maxBackoffSeconds", "leaseSeconds", "sendTimeoutSeconds"]) {
    const setting = delivery[name];
    if (setting !== undefined && !(isPositive(setting) && (setting as number) <= MAX_DELIVERY_SECONDS)) {
      problems.add(`config.delivery.${name} must be a number of seconds above 0, at most ${MAX_DELIVERY_SECONDS} (a year)`);
    }
  }
  const { initialBackoffSeconds: initial, maxBackoffSeconds: max } = delivery;
  if (isPositive(initial) && isPositive(max) && max < initial) {
    problems.add("config.delivery.maxBackoffSeconds must not be below config.delivery.initialBackoffSeconds");
  }
  // Without a limit of its own the send gets one below the lease; a given one must be below it too.
  const { sendTimeoutSeconds: limit, leaseSeconds: given } = delivery;
  const lease = given === undefined ? defaultLeaseSeconds : given;
  if (isPositive(limit) && isPositive(lease) && limit >= lease) {
    problems.add(
      `config.delivery.sendTimeoutSeconds must be below config.delivery.leaseSeconds (${lease}): ` +
        "a send still running when its lease ends can be sent again by another process",
    );
  }
}

function checkLimits(problems: Problems, value: unknown): void {
  if (value === undefined) return;
  const limits = fieldsOf(value);
  if (limits === undefined) return problems.add("config.limits must be an object");
  checkNames(problems, limits, LIMIT_NAMES, "config.limits", "a limit");
  for (const [name, setting] of Object.entries(limits)) {
    if (Object.hasOwn(LIMIT_NAMES, name) && setting !== undefined && !isWholeAtLeast(setting, 1)) problems.add(`config.limits.${name} must be a whole number, 1 or more`);
  }
}

function checkConfig(problems: Problems, value: unknown): void {
  if (value === undefined) return;
  const config = fieldsOf(value);
  if (config === undefined) return problems.add("ports.config must be an object");
  problems.section("config", () => checkNames(problems, config, CONFIG_NAMES, "config", "a setting"));
  problems.section("config.origin", () => checkOrigin(problems, config["origin"]));
  for (const name of ["emailVerificationUrlTemplate", "initializationUrlTemplate", "passwordResetUrlTemplate"]) {
    problems.section(`config.${name}`, () => checkUrlTemplate(problems, config[name], `config.${name}`));
  }
  problems.section("config.passkeyRegistrationUrlTemplate", () =>
    checkUrlTemplate(problems, config["passkeyRegistrationUrlTemplate"], "config.passkeyRegistrationUrlTemplate", PASSKEY_LINK_PLACEHOLDERS),
  );
  problems.section("config.passkeys", () => checkPasskeys(problems, config["passkeys"]));
  problems.section("config.codes", () => checkCodes(problems, config["codes"]));
  problems.section("config.defaultPhoneRegion", () => {
    const region = config["defaultPhoneRegion"];
    if (region !== undefined && (typeof region !== "string" || !isSupportedCountry(region))) {
      problems.add("config.defaultPhoneRegion must be an ISO 3166-1 alpha-2 region with phone numbers, such as CH or US");
    }
  });
  problems.section("config.immediateDelivery", () => {
    const mode = config["immediateDelivery"];
    if (mode !== undefined && mode !== "await" && mode !== "background" && mode !== "off") {
      problems.add('config.immediateDelivery must be "await", "background" or "off"');
    }
  });
  problems.section("config.appendAttempts", () => {
    const attempts = config["appendAttempts"];
    if (attempts !== undefined && !(isWholeAtLeast(attempts, 1) && (attempts as number) <= MAX_APPEND_ATTEMPTS)) {
      problems.add(`config.appendAttempts must be a whole number from 1 to ${MAX_APPEND_ATTEMPTS}`);
    }
  });
  problems.section("config.directoryCacheSeconds", () => {
    const seconds = config["directoryCacheSeconds"];
    if (seconds !== undefined && !(typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0)) {
      problems.add("config.directoryCacheSeconds must be a number of seconds, 0 or more");
    }
  });
  problems.section("config.allowThrowawayKeys", () => {
    const allow = config["allowThrowawayKeys"];
    if (allow !== undefined && typeof allow !== "boolean") problems.add("config.allowThrowawayKeys must be true or false");
  });
  problems.section("config.delivery", () => checkDelivery(problems, config["delivery"]));
  problems.section("config.limits", () => checkLimits(problems, config["limits"]));
  problems.section("config.messages", () => checkMessages(problems, config["messages"]));
}

/** The parts of each kind of message a host may give. */
const MESSAGE_PARTS: Readonly<Record<string, readonly string[]>> = {
  "email.verification": ["subject", "text", "html"],
  "email.initialization": ["subject", "text", "html"],
  "email.password_reset": ["subject", "text", "html"],
  "email.passkey_registration": ["subject", "text", "html"],
  "phone.verification": ["text"],
};

/** The host's templates, whole: a template that cannot be filled would make every such message dead. */
function checkMessages(problems: Problems, value: unknown): void {
  if (value === undefined) return;
  const messages = fieldsOf(value);
  if (messages === undefined || Array.isArray(value)) return problems.add("config.messages must be an object of languages");
  // Keys are compared as users' languages are stored: canonical, ignoring case (`iw` is `he`).
  const languages = new Map<string, string>();
  for (const [language, kinds] of Object.entries(messages)) {
    const name = `config.messages[${JSON.stringify(language)}]`;
    // Any tag a user's language can be stored as: Intl's, and RFC 5646's grandfathered ones (`en-GB-oed`).
    if (!isIntlLanguageTag(language) && canonicalLanguageTag(language) === "und") problems.add(`${name}: the key must be a BCP 47 language tag, such as en or de-CH`);
    else {
      const tag = canonicalLanguageTag(language);
      const earlier = languages.get(tag.toLowerCase());
      if (earlier !== undefined) problems.add(`config.messages: ${JSON.stringify(earlier)} and ${JSON.stringify(language)} are one language (${tag}); keep one key for it`);
      else languages.set(tag.toLowerCase(), language);
    }
    const byKind = fieldsOf(kinds);
    if (byKind === undefined || Array.isArray(kinds)) {
      problems.add(`${name} must be an object of message kinds`);
      continue;
    }
    for (const [kind, template] of Object.entries(byKind)) {
      const parts = MESSAGE_PARTS[kind];
      if (parts === undefined || !Object.hasOwn(MESSAGE_PARTS, kind)) {
        problems.add(`${name}.${kind} is no message kind (${Object.keys(MESSAGE_PARTS).join(", ")})`);
        continue;
      }
      const fields = fieldsOf(template);
      if (fields === undefined) {
        problems.add(`${name}["${kind}"] must be an object with ${parts.join(", ")}`);
        continue;
      }
      for (const part of parts) {
        const split = splitMessageTemplate(fields[part], part);
        if ("problem" in split) problems.add(`${name}["${kind}"].${part}: ${split.problem}`);
      }
    }
  }
}

/** What a check looks at beyond the ports' shape and the configuration. */
export interface CheckScope {
  /**
   * Whether codes are made (the operations): a durable store then needs durable keys. Delivery
   * only sends what was written, so a delivery process needs none. Default true.
   */
  readonly makesCodes?: boolean;
}

/** Every problem of `ports`, each naming its setting; empty when the library can run with them. */
export function configurationProblems(ports: unknown, scope: CheckScope = {}): string[] {
  const problems = new Problems();
  const fields = fieldsOf(ports);
  if (fields === undefined) return ["ports must be an object"];
  checkPorts(problems, fields);
  let config: unknown;
  problems.section("ports.config", () => {
    config = fields["config"];
    checkConfig(problems, config);
  });
  if (scope.makesCodes !== false) problems.section("ports.keys", () => checkKeys(problems, fields, fieldsOf(config)));
  return problems.found;
}

/**
 * Checks the ports and their configuration, as every operation does before it runs: Ok, or
 * code 9 (`errorIds.invalidConfiguration`) with a message naming each setting that is wrong
 * ("ports.mailer is missing; config.codes.email.alphabet must be ..."). Call it at start-up to
 * fail early. Never throws.
 */
export function checkConfiguration(ports: Ports): Result<void, ErrorBody> {
  const problems = configurationProblems(ports);
  return problems.length === 0 ? ok(undefined) : err(invalidConfiguration(problems));
}

/**
 * The answer to a call that needs a requester and has none: 16, or 9 saying how to pass it when
 * the context is a requester itself (which compiles: its orgId is a context member too), where 16
 * would send the developer looking at their sign-in.
 */
export function missingRequester(context: OperationContext | undefined): ErrorBody {
  const given = context as (OperationContext & { readonly userId?: unknown }) | undefined;
  return typeof given?.userId === "string"
    ? invalidConfiguration(["the context holds a requester's userId: pass the requester as { requester: { userId, orgId } }"])
    : unauthenticated();
}

/**
 * The call's own setting, checked as the configuration's is and before anything else: a
 * `context.origin` links cannot start with answers 9, as a bad `config.origin` does. Null counts
 * as absent, as it does for the requester.
 */
export function contextRefusal(context: OperationContext | undefined): ErrorBody | undefined {
  const origin: unknown = context?.origin ?? undefined;
  const problem = originProblem(origin, "context.origin");
  return problem === undefined ? undefined : invalidConfiguration([problem]);
}
