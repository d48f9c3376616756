import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { configurationProblems } from "../../src/core/config-check.js";
import { checkConfiguration, memoryStore, type HumanUsersConfig, type Ports } from "../../src/index.js";
import { testKeys, testPorts } from "../operations/support/ports.js";

const ERROR_DETAIL = "type.googleapis.com/zitadel.v1.ErrorDetail";

function configurationError(message: string) {
  return { code: 9, message, details: [{ "@type": ERROR_DETAIL, id: "USER-c0nf", message }] };
}

function withConfig(config: unknown): Ports {
  return testPorts({ config: config as HumanUsersConfig });
}

describe("checkConfiguration", () => {
  it("checks the host's message templates whole: languages, kinds, parts and placeholders", () => {
    const messages = {
      en: {
        "email.verification": { subject: "S only" },
        "email.initialization": { subject: 42, text: "{{code}}", html: "{{ .Code }}" },
        "email.verifcation": { subject: "", text: "", html: "" },
        "phone.verification": { text: "{{code}} {{ kode }}" },
      },
      "not a tag": {},
      de: "Hallo",
      fr: { "email.password_reset": { subject: "{{displayName}}", text: "{{link}}", html: "<a href=\"{{link}}\">{{code}}</a>" }, "phone.verification": { text: "{{code}}" } },
    };
    expect(configurationProblems(withConfig({ messages }))).toEqual([
      'config.messages["en"]["email.verification"].text: the message template\'s text is missing or not text',
      'config.messages["en"]["email.verification"].html: the message template\'s html is missing or not text',
      'config.messages["en"]["email.initialization"].subject: the message template\'s subject is missing or not text',
      'config.messages["en"]["email.initialization"].html: unknown placeholder {{ .Code }} in message template',
      'config.messages["en"].email.verifcation is no message kind (email.verification, email.initialization, email.password_reset, email.passkey_registration, phone.verification)',
      'config.messages["en"]["phone.verification"].text: unknown placeholder {{ kode }} in message template',
      'config.messages["not a tag"]: the key must be a BCP 47 language tag, such as en or de-CH',
      'config.messages["de"] must be an object of message kinds',
    ]);
    expect(configurationProblems(withConfig({ messages: [] }))).toEqual(["config.messages must be an object of languages"]);
  });

  it("names a port or setting it does not know, with the one it is likely meant as, at every level", () => {
    const ports = {
      ...testPorts(),
      loger: console,
      telemetry: undefined,
      hashBounds: { bcryptMaxcost: 12, bcryptMinCost: 4, notABound: undefined },
      config: {
        emailVerificationUrlTemplete: "https://example.com/verify?c={{.Code}}",
        default_phone_region: "CH",
        origin: "https://login.example.com",
        somethingElse: 1,
        codes: { email: { lenght: 8 } },
        delivery: { maxAttempt: 3 },
        limits: { maxFieldViolation: 5, maxMetadataEntries: 10 },
        passkeys: { rpId: "example.com", rpName: "Example", origins: ["https://example.com"], timeout: 60 },
        directoryCacheSeconds: undefined,
      },
    };
    expect(configurationProblems(ports)).toEqual([
      "ports.loger is not a port (did you mean ports.logger?)",
      "ports.hashBounds.bcryptMaxcost is not a bound (did you mean ports.hashBounds.bcryptMaxCost?)",
      "config.emailVerificationUrlTemplete is not a setting (did you mean config.emailVerificationUrlTemplate?)",
      "config.default_phone_region is not a setting (did you mean config.defaultPhoneRegion?)",
      "config.somethingElse is not a setting",
      "config.passkeys.timeout is not a passkey setting (did you mean config.passkeys.timeoutSeconds?)",
      "config.codes.email.lenght is not a part of a code's spec (did you mean config.codes.email.length?)",
      "config.delivery.maxAttempt is not a delivery setting (did you mean config.delivery.maxAttempts?)",
      "config.limits.maxFieldViolation is not a limit (did you mean config.limits.maxFieldViolations?)",
    ]);
    // A class instance may hold fields of its own (a TypeScript `private db`): only plain objects are read for names.
    class HostPorts {
      readonly storage = testPorts().storage;
      readonly mailer = testPorts().mailer;
      readonly clock = testPorts().clock;
      readonly keys = testKeys;
      constructor(private readonly db: { readonly url: string }) {}
      url(): string {
        return this.db.url;
      }
    }
    expect(configurationProblems(new HostPorts({ url: "postgres://" }))).toEqual([]);
    // Every operation answers 9 with them, as for any other setting it cannot honour.
    expect(checkConfiguration({ ...testPorts(), config: { orign: "https://login.example.com" } } as Ports)).toEqual(
      err(configurationError("invalid configuration: config.orign is not a setting (did you mean config.origin?)")),
    );
  });

  it("accepts the test ports, and every setting at its documented bounds", () => {
    expect(checkConfiguration(testPorts())).toEqual({ value: undefined });
    const bounds = {
      origin: "https://login.example.com/base/",
      emailVerificationUrlTemplate: "https://example.com/verify?u={{.UserID}}&c={{ .Code }}",
      initializationUrlTemplate: "https://example.com/init/{{.OrgID}}",
      codes: {
        email: { length: 1, alphabet: "AB", lifetimeSeconds: 1 },
        phone: { length: 64, alphabet: Array.from({ length: 256 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join(""), lifetimeSeconds: 315_360_000 },
        init: { alphabet: "😀😁" },
        passwordless: {},
      },
      defaultPhoneRegion: "CH",
      immediateDelivery: "background",
      appendAttempts: 100,
      directoryCacheSeconds: 0,
      allowThrowawayKeys: false,
      delivery: { maxAttempts: 1, initialBackoffSeconds: 0.5, maxBackoffSeconds: 0.5, leaseSeconds: 1, batchSize: 1, concurrency: 1 },
      limits: { maxMetadataEntries: 1, maxIdentityProviderLinks: 1_000_000, maxFieldViolations: 1 },
    };
    expect(configurationProblems(withConfig(bounds))).toEqual([]);
  });

  it("names a missing required port, as a whole error body", () => {
    const { mailer: _mailer, ...ports } = testPorts();
    expect(checkConfiguration(ports as unknown as Ports)).toEqual({ error: configurationError("invalid configuration: ports.mailer is missing: memoryMailer() in tests, smtpMailer(...) from human-users/smtp, or an object with send(message)") });
  });

  it("names every missing or unusable port, and a storage part by its name", () => {
    const store = memoryStore();
    const ports = { storage: { directory: store.directory, userLog: { append: () => undefined } }, clock: null, ids: {}, random: 5, logger: { warn: () => undefined } };
    expect(configurationProblems(ports)).toEqual([
      "ports.storage.userLog.findHeldClaims must be a function",
      "ports.storage.userLog.loadEvents must be a function",
      "ports.storage.userLog.findClaimHolder must be a function",
      "ports.storage.outbox is missing",
      "ports.mailer is missing: memoryMailer() in tests, smtpMailer(...) from human-users/smtp, or an object with send(message)",
      "ports.clock is missing: systemClock (fixedClock(time) in tests)",
      "ports.ids.next must be a function",
      "ports.random must be an object",
      "ports.logger.error must be a function",
    ]);
    expect(configurationProblems({ mailer: {}, clock: { now: () => new Date() } })).toEqual(["ports.storage is missing: memoryStore() in tests, postgresStore(pool) from human-users/postgres or pgliteStore(db) from human-users/pglite", "ports.mailer.send must be a function"]);
  });

  it("takes a Firebase signer key in base64 and refuses anything else", () => {
    const key = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==";
    expect(configurationProblems(testPorts({ firebaseSignerKey: key }))).toEqual([]);
    for (const bad of ["not base64!", "", 42]) {
      expect(configurationProblems(testPorts({ firebaseSignerKey: bad as string }))).toEqual(["ports.firebaseSignerKey must be the Firebase project's base64_signer_key, in base64"]);
    }
  });

  it("takes ports.directory in place of the store's own directory", () => {
    const { directory, ...storage } = memoryStore();
    expect(configurationProblems({ ...testPorts(), storage })).toEqual([
      "ports.storage.directory is missing",
    ]);
    expect(configurationProblems({ ...testPorts(), storage, directory })).toEqual([]);
  });

  it("answers, never throws, for ports that are not an object or whose members throw when read", () => {
    for (const ports of [null, undefined, 5, "ports"]) {
      expect(checkConfiguration(ports as unknown as Ports)).toEqual({ error: configurationError("invalid configuration: ports must be an object") });
    }
    const hostile = Object.defineProperties({ ...testPorts() }, {
      mailer: { get: () => { throw new Error("no"); } },
      config: { get: () => { throw new Error("no"); } },
    });
    expect(configurationProblems(hostile)).toEqual(["ports.mailer could not be read", "ports.config could not be read"]);
  });

  it("refuses code specs that cannot make codes: alphabets, lengths, lifetimes and unknown kinds", () => {
    const codes = {
      email: { alphabet: "" },
      phone: { alphabet: "x".repeat(300), length: 0 },
      init: { alphabet: "AAB", length: 65, lifetimeSeconds: 0 },
      passwordless: { alphabet: 36, length: 1.5, lifetimeSeconds: 315_360_001 },
      emial: { length: 6 },
    };
    expect(configurationProblems(withConfig({ codes }))).toEqual([
      "config.codes.email.alphabet must be a string of 2 to 256 distinct characters",
      "config.codes.phone.length must be a whole number from 1 to 64",
      "config.codes.phone.alphabet must be a string of 2 to 256 distinct characters",
      "config.codes.init.length must be a whole number from 1 to 64",
      "config.codes.init.alphabet must be a string of 2 to 256 distinct characters",
      "config.codes.init.lifetimeSeconds must be a whole number of seconds from 1 to 315360000",
      "config.codes.passwordless.length must be a whole number from 1 to 64",
      "config.codes.passwordless.alphabet must be a string of 2 to 256 distinct characters",
      "config.codes.passwordless.lifetimeSeconds must be a whole number of seconds from 1 to 315360000",
      "config.codes.emial is not a kind of code (email, phone, init, passwordless, passwordReset)",
    ]);
    expect(configurationProblems(withConfig({ codes: [] }))).toEqual([]);
    expect(configurationProblems(withConfig({ codes: "short" }))).toEqual(["config.codes must be an object"]);
    expect(configurationProblems(withConfig({ codes: { email: null } }))).toEqual(["config.codes.email must be an object"]);
  });

  it("refuses an origin that is not an absolute http(s) URL, or carries a query or fragment", () => {
    const problem = "config.origin must be an absolute http or https URL without query or fragment";
    for (const origin of ["example.com", "ftp://example.com", "https://", "https://example.com/?a=1", "https://example.com/#top", "https://example.com?", "https:///app.example", "http:////app.example", "https://\t/app", "https://app.example\n", "https://app.example/\ud800", "https://app\udc00.example", 8080]) {
      expect(configurationProblems(withConfig({ origin }))).toEqual([problem]);
    }
  });

  it("refuses URL templates the links could not be made from", () => {
    expect(configurationProblems(withConfig({ emailVerificationUrlTemplate: "https://x.example/{{.Nope}}", initializationUrlTemplate: "/relative?c={{.Code}}" }))).toEqual([
      "config.emailVerificationUrlTemplate has an unknown placeholder (allowed: {{.UserID}}, {{.Code}}, {{.OrgID}})",
      "config.initializationUrlTemplate must give an absolute http or https URL",
    ]);
    expect(configurationProblems(withConfig({ emailVerificationUrlTemplate: ["https://x.example"] }))).toEqual(["config.emailVerificationUrlTemplate must be a string"]);
    // Two keys of one language: one would hide the other's templates.
    const text = { "phone.verification": { text: "{{code}}" } };
    // RFC 5646's grandfathered tags, which Intl does not take, are languages a user can have too.
    expect(configurationProblems(withConfig({ messages: { "en-GB-oed": text, "i-klingon": text } }))).toEqual([]);
    expect(configurationProblems(withConfig({ messages: { DE: text, de: text, iw: text, he: text, fr: { "phone.verification": { text: "{{code}" } } } }))).toEqual([
      'config.messages: "DE" and "de" are one language (de); keep one key for it',
      'config.messages: "iw" and "he" are one language (he); keep one key for it',
      'config.messages["fr"]["phone.verification"].text: unbalanced braces in message template: write each placeholder as {{name}}',
    ]);
    // Text no store keeps and no mail can encode: the SQL stores refused the write (13), the memory store mailed it.
    expect(configurationProblems(withConfig({ emailVerificationUrlTemplate: "https://x.example/\ud800?c={{.Code}}" }))).toEqual([
      "config.emailVerificationUrlTemplate must give an absolute http or https URL",
    ]);
  });

  it("refuses reset and passkey link templates the links could not be made from; a passkey link may name {{.CodeID}}", () => {
    const templates = {
      passwordResetUrlTemplate: "https://x.example/reset?c={{.Code}}&id={{.CodeID}}",
      passkeyRegistrationUrlTemplate: "https://x.example/passkey?c={{.Code}}&id={{.CodeID}}&x={{.Nope}}",
    };
    expect(configurationProblems(withConfig(templates))).toEqual([
      "config.passwordResetUrlTemplate has an unknown placeholder (allowed: {{.UserID}}, {{.Code}}, {{.OrgID}})",
      "config.passkeyRegistrationUrlTemplate has an unknown placeholder (allowed: {{.UserID}}, {{.Code}}, {{.OrgID}}, {{.CodeID}})",
    ]);
    expect(configurationProblems(withConfig({ passkeyRegistrationUrlTemplate: "https://x.example/passkey?c={{.Code}}&id={{.CodeID}}" }))).toEqual([]);
  });

  it("accepts a relying party for passkeys, and refuses one that no registration could be verified against", () => {
    const good = { rpId: "example.com", rpName: "Example", origins: ["https://login.example.com", "https://example.com:8443"], timeoutSeconds: 60 };
    expect(configurationProblems(withConfig({ passkeys: good }))).toEqual([]);
    expect(configurationProblems(withConfig({ passkeys: { ...good, rpId: "localhost", origins: ["http://localhost:3000"] } }))).toEqual([]);
    // WebAuthn: the RP ID is a lower-case domain (no IP address), and every origin is on it.
    expect(configurationProblems(withConfig({ passkeys: { ...good, origins: ["https://login.example.com", "http://localhost:3000", "https://notexample.com"] } }))).toEqual([
      "config.passkeys.origins[1] must be on config.passkeys.rpId (example.com) or a domain under it",
      "config.passkeys.origins[2] must be on config.passkeys.rpId (example.com) or a domain under it",
    ]);
    for (const rpId of ["192.168.0.1", "ACME.test", "a.b.1"]) {
      expect(configurationProblems(withConfig({ passkeys: { ...good, rpId, origins: ["https://192.168.0.1"] } }))).toEqual([
        "config.passkeys.rpId must be a domain name in lower case (example.com), not an IP address",
      ]);
    }
    expect(configurationProblems(withConfig({ passkeys: { rpId: "", rpName: 5, origins: [], timeoutSeconds: 0 } }))).toEqual([
      "config.passkeys.rpId must be a domain name in lower case (example.com), not an IP address",
      "config.passkeys.rpName must be a string that is not empty",
      "config.passkeys.origins must list at least one origin",
      "config.passkeys.timeoutSeconds must be a whole number of seconds, 1 or more",
    ]);
    // Compared as they are with what the browser sends: "https://login.example.com/" would never match.
    const origins = ["https://login.example.com/path", "login.example.com", "https://login.example.com/", "https://Login.example.com"];
    expect(configurationProblems(withConfig({ passkeys: { ...good, rpId: "https://example.com", origins } }))).toEqual([
      "config.passkeys.rpId must be a domain name in lower case (example.com), not an IP address",
      ...origins.map((_, index) => `config.passkeys.origins[${index}] must be an origin exactly as browsers send it (https://login.example.com: no path or slash after, lower case)`),
    ]);
    expect(configurationProblems(withConfig({ passkeys: "example.com" }))).toEqual(["config.passkeys must be an object"]);
  });

  it("refuses delivery settings, append attempts and modes it would otherwise quietly replace", () => {
    const config = {
      immediateDelivery: "sometimes",
      appendAttempts: 0,
      directoryCacheSeconds: -1,
      allowThrowawayKeys: "yes",
      defaultPhoneRegion: "XX",
      delivery: { maxAttempts: 0, initialBackoffSeconds: Number.NaN, maxBackoffSeconds: -1, leaseSeconds: "300", batchSize: 2.5, concurrency: Infinity },
    };
    expect(configurationProblems(withConfig(config))).toEqual([
      "config.defaultPhoneRegion must be an ISO 3166-1 alpha-2 region with phone numbers, such as CH or US",
      'config.immediateDelivery must be "await", "background" or "off"',
      "config.appendAttempts must be a whole number from 1 to 100",
      "config.directoryCacheSeconds must be a number of seconds, 0 or more",
      "config.allowThrowawayKeys must be true or false",
      "config.delivery.maxAttempts must be a whole number, 1 or more",
      "config.delivery.batchSize must be a whole number, 1 or more",
      "config.delivery.concurrency must be a whole number, 1 or more",
      "config.delivery.initialBackoffSeconds must be a number of seconds above 0, at most 31536000 (a year)",
      "config.delivery.maxBackoffSeconds must be a number of seconds above 0, at most 31536000 (a year)",
      "config.delivery.leaseSeconds must be a number of seconds above 0, at most 31536000 (a year)",
    ]);
    expect(configurationProblems(withConfig({ appendAttempts: 101, delivery: { initialBackoffSeconds: 60, maxBackoffSeconds: 30 } }))).toEqual([
      "config.appendAttempts must be a whole number from 1 to 100",
      "config.delivery.maxBackoffSeconds must not be below config.delivery.initialBackoffSeconds",
    ]);
    expect(configurationProblems(withConfig(null))).toEqual(["ports.config must be an object"]);
    expect(configurationProblems(withConfig({ limits: { maxMetadataEntries: 0, maxIdentityProviderLinks: "20", maxFieldViolations: 2.5 } }))).toEqual([
      "config.limits.maxMetadataEntries must be a whole number, 1 or more",
      "config.limits.maxIdentityProviderLinks must be a whole number, 1 or more",
      "config.limits.maxFieldViolations must be a whole number, 1 or more",
    ]);
    expect(configurationProblems(withConfig({ limits: 100 }))).toEqual(["config.limits must be an object"]);
  });

  it("refuses keys of the wrong sizes, and a key id used twice", () => {
    const keys = {
      keyId: "",
      codeHmacKey: new Uint8Array(16),
      encryptionKey: new Uint8Array(31),
      previous: [{ ...testKeys, keyId: "old" }, { ...testKeys, keyId: "old", encryptionKey: "AAAA" }, null],
    };
    expect(configurationProblems(testPorts({ keys: keys as unknown as NonNullable<Ports["keys"]> }))).toEqual([
      "ports.keys.keyId must be 1 to 200 characters, without spaces, commas, colons or control characters",
      "ports.keys.codeHmacKey must be a Uint8Array of 32 to 1024 bytes",
      "ports.keys.encryptionKey must be a Uint8Array of 32 bytes",
      "ports.keys.previous[1].encryptionKey must be a Uint8Array of 32 bytes",
      "ports.keys.previous[1].keyId repeats a key id: each key set needs its own",
      "ports.keys.previous[2] must be an object with keyId, codeHmacKey and encryptionKey",
    ]);
    expect(configurationProblems(testPorts({ keys: { ...testKeys, previous: [testKeys] } }))).toEqual(["ports.keys.previous[0].keyId repeats a key id: each key set needs its own"]);
  });

  it("names a hole in the retired key sets, which a later lookup of a code's key would meet", () => {
    // [, old] and [old, , ]: a stray comma in the host's array.
    const old = { ...testKeys, keyId: "old" };
    // eslint-disable-next-line no-sparse-arrays
    for (const [previous, index] of [[[, old], 0], [[old, , ], 1]] as const) {
      expect(configurationProblems(testPorts({ keys: { ...testKeys, previous: previous as unknown as never } }))).toEqual([
        `ports.keys.previous[${index}] must be an object with keyId, codeHmacKey and encryptionKey`,
      ]);
    }
  });

  it("refuses a new key id that reads as another: not in NFC, or with an invisible character", () => {
    for (const keyId of ["cafe\u0301", "k1\u034f", "k1\u3164", "\u2764\ufe0f"]) {
      expect(configurationProblems(testPorts({ keys: { ...testKeys, keyId } }))).toEqual([
        "ports.keys.keyId must be in NFC, without invisible characters (variation selectors, joiners): another id would look the same",
      ]);
    }
    expect(configurationProblems(testPorts({ keys: { ...testKeys, keyId: "caf\u00e9-2026" } }))).toEqual([]);
  });

  it("keeps a retired key id an earlier version took, so that what was recorded under it can still be read", () => {
    const previous = ["cafe\u0301", "\u2764\ufe0f"].map((keyId) => ({ ...testKeys, keyId }));
    expect(configurationProblems(testPorts({ keys: { ...testKeys, keyId: "current", previous } }))).toEqual([]);
  });

  it("refuses keys on a SharedArrayBuffer, which Web Crypto cannot import, and takes the same bytes copied", () => {
    const shared = (bytes: Uint8Array): Uint8Array => {
      const view = new Uint8Array(new SharedArrayBuffer(bytes.length));
      view.set(bytes);
      return view;
    };
    const keys = { ...testKeys, codeHmacKey: shared(testKeys.codeHmacKey), encryptionKey: shared(testKeys.encryptionKey) };
    const advice = "must not be a view on a SharedArrayBuffer (Web Crypto refuses one): copy it with new Uint8Array(key)";
    expect(configurationProblems(testPorts({ keys }))).toEqual([`ports.keys.codeHmacKey ${advice}`, `ports.keys.encryptionKey ${advice}`]);
    const copied = { ...keys, codeHmacKey: new Uint8Array(keys.codeHmacKey), encryptionKey: new Uint8Array(keys.encryptionKey) };
    expect(configurationProblems(testPorts({ keys: copied }))).toEqual([]);
  });

  it("refuses a durable store without keys, unless the host opts in to throwaway keys", () => {
    const { keys: _keys, ...withoutKeys } = testPorts();
    const durable = { ...withoutKeys, storage: { ...withoutKeys.storage, durable: true } };
    expect(checkConfiguration(durable)).toEqual({
      error: configurationError(
        "invalid configuration: ports.keys is missing: the store is durable (storage.durable), so codes must still check after a restart; " +
          "give keys (keysFromEnvironment) or set config.allowThrowawayKeys: true",
      ),
    });
    expect(configurationProblems({ ...durable, config: { allowThrowawayKeys: true } })).toEqual([]);
    expect(configurationProblems({ ...durable, keys: testKeys })).toEqual([]);
    // A store that forgets between runs loses its codes with its keys: nothing to refuse.
    expect(configurationProblems(withoutKeys)).toEqual([]);
  });
});
