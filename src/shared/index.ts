// The small leaf every layer may use: JSON types, the error body, bytes and base64, and one
// concurrency limit. It imports nothing of the library.
export type * from "./json.js";
export * from "./error-body.js";
export * from "./base64.js";
export * from "./bytes.js";
export * from "./limiter.js";
export { webCryptoRandom } from "./web-crypto-random.js";
