import type { PasswordHasher } from "./hasher.js";
import { scryptHasher } from "./scrypt.js";

/**
 * The library default: scrypt at OWASP's N=2^17, r=8, p=1, chosen by measurement
 * (`npm run bench -- passwords`; figures in bench/README.md). It is the one OWASP setting that meets
 * the aims (within 1.2x of native, two callers near twice one, no stall over 20 ms) on every
 * installation: node:crypto's scrypt is native on every Node-compatible runtime without an
 * optional binary, and runs on the thread pool. argon2id is cheaper per hash with the optional
 * @node-rs/argon2 binary, but npm may skip that binary, and its pure-JS fallback measured about
 * 24x slower than the binary, on one thread (scrypt's: about 2x).
 */
export const defaultPasswordHasher: PasswordHasher = scryptHasher();
