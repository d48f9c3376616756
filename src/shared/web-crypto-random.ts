
const MAX_CHUNK = 65_536; // getRandomValues refuses more per call
const POOL_BYTES = 4096;
const POOLED_UP_TO = 256;

// Small requests (codes, ids, IVs) are served from a pool filled 4 KiB at a time: each call into
// the runtime's CSPRNG costs microseconds, whatever its size. Bytes are handed out once and wiped.
const pool = new Uint8Array(POOL_BYTES);
let poolOffset = POOL_BYTES;

function fillDirect(bytes: Uint8Array): Uint8Array {
  for (let offset = 0; offset < bytes.length; offset += MAX_CHUNK) {
    crypto.getRandomValues(bytes.subarray(offset, offset + MAX_CHUNK));
  }
  return bytes;
}

/** The runtime's cryptographic random source (Web Crypto). */
export const webCryptoRandom: { fill(bytes: Uint8Array): Uint8Array } = {
  fill(bytes) {
    if (bytes.length > POOLED_UP_TO) return fillDirect(bytes);
    if (poolOffset + bytes.length > POOL_BYTES) {
      crypto.getRandomValues(pool);
      poolOffset = 0;
    }
    const slice = pool.subarray(poolOffset, poolOffset + bytes.length);
    bytes.set(slice);
    slice.fill(0);
    poolOffset += bytes.length;
    return bytes;
  },
};
