/**
 * Optional native code, found at run time. The core stays runtime-agnostic: every `node:` module
 * and native binding is reached through a guarded dynamic import, and a missing one means the
 * pure-JS path (@noble/hashes) is used instead. Each lookup runs once and is cached.
 */

/** The part of node:crypto we use, typed structurally so no Node types leak into the core. */
export interface NativeCrypto {
  pbkdf2(
    password: Uint8Array,
    salt: Uint8Array,
    iterations: number,
    keylen: number,
    digest: string,
    callback: (error: Error | null, key: Uint8Array) => void,
  ): void;
  scrypt(
    password: Uint8Array,
    salt: Uint8Array,
    keylen: number,
    options: { N: number; r: number; p: number; maxmem: number },
    callback: (error: Error | null, key: Uint8Array) => void,
  ): void;
  getHashes(): string[];
  /** One-shot digest, Node 20.12 and later. */
  readonly hash?: (algorithm: string, data: Uint8Array, outputEncoding: "buffer") => Uint8Array;
}

/** The part of @node-rs/argon2 we use. */
export interface NativeArgon2 {
  hashRaw(
    password: Uint8Array,
    options: {
      memoryCost: number;
      timeCost: number;
      parallelism: number;
      outputLen: number;
      salt: Uint8Array;
      algorithm: number;
      version: number;
    },
  ): Promise<Uint8Array>;
}

let cryptoLookup: Promise<NativeCrypto | undefined> | undefined;
let coresLookup: Promise<number | undefined> | undefined;
let argon2Lookup: Promise<NativeArgon2 | undefined> | undefined;
let disabled = false;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** A specifier held in a variable keeps bundlers from inlining or failing on a missing module. */
async function tryImport(specifier: string): Promise<Record<string, unknown> | undefined> {
  try {
    const module: unknown = await import(/* @vite-ignore */ specifier);
    return isObject(module) ? module : undefined;
  } catch {
    return undefined;
  }
}

export function nativeCrypto(): Promise<NativeCrypto | undefined> {
  if (disabled) return Promise.resolve(undefined);
  cryptoLookup ??= tryImport("node:crypto").then((module) =>
    module !== undefined && typeof module.scrypt === "function" && typeof module.pbkdf2 === "function"
      ? (module as unknown as NativeCrypto)
      : undefined,
  );
  return cryptoLookup;
}

/** node:crypto, when it computes PBKDF2 with `prf`. */
export async function nativePbkdf2(prf: string): Promise<NativeCrypto | undefined> {
  const native = await nativeCrypto();
  return native !== undefined && native.getHashes().includes(prf) ? native : undefined;
}

type OneShotHash = NonNullable<NativeCrypto["hash"]>;

/** node:crypto's one-shot digest (Node 20.12 and later), when it computes `name`. */
export async function nativeOneShotHash(name: string): Promise<OneShotHash | undefined> {
  const native = await nativeCrypto();
  const hash = native?.hash;
  return native !== undefined && typeof hash === "function" && native.getHashes().includes(name) ? hash : undefined;
}

/** The cores this process may use, where the runtime has node:os to say so. */
export function nativeCores(): Promise<number | undefined> {
  coresLookup ??= tryImport("node:os").then((module) => {
    const count: unknown = typeof module?.availableParallelism === "function" ? module.availableParallelism() : undefined;
    return typeof count === "number" ? count : undefined;
  });
  return coresLookup;
}

export function nativeArgon2(): Promise<NativeArgon2 | undefined> {
  if (disabled) return Promise.resolve(undefined);
  argon2Lookup ??= tryImport("@node-rs/argon2").then((module) => {
    const candidate = module !== undefined && typeof module.hashRaw === "function" ? module : isObject(module?.default) ? module.default : undefined;
    return candidate !== undefined && typeof candidate.hashRaw === "function" ? (candidate as unknown as NativeArgon2) : undefined;
  });
  return argon2Lookup;
}

/** False while `useNativeImplementations(false)` holds. */
export function nativeEnabled(): boolean {
  return !disabled;
}

/**
 * For tests and benches: forces the pure-JS paths (as on a runtime without node:crypto or the
 * argon2 binding), or restores native lookups.
 */
export function useNativeImplementations(enabled: boolean): void {
  disabled = !enabled;
}
