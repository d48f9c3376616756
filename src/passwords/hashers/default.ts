import type { PasswordHasher } from "./hasher.js";
import { scryptHasher } from "./scrypt.js";

/**
 * The library default: scrypt with OWASP's N=2^17, r=8, p=1. Chosen by measurement (see
 * bench/passwords.bench.ts): node:crypto's scrypt is native on every Node-compatible runtime
 * without an optional binding, runs on libuv's pool (so concurrent logins scale and the event
 * loop stays free), and our wrapper adds no measurable overhead to it.
 */
export const defaultPasswordHasher: PasswordHasher = scryptHasher();
