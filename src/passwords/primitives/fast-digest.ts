import { nobleHash, type DigestName } from "./digest.js";
import { nativeCrypto } from "./native.js";
import { slicedLoop } from "./yielding.js";

/** An incremental digest: feed the parts in order, then take the digest once. */
export interface DigestStream {
  update(data: Uint8Array): DigestStream;
  digest(): Uint8Array;
}

export type DigestStreamFactory = () => DigestStream;

/**
 * Fresh incremental digests for tight loops (the crypt family runs up to a million of them):
 * node:crypto when present, noble otherwise. Feeding the parts one by one, instead of joining
 * them first, was measured about 1.7x faster for SHA-512 and MD5 on node:crypto.
 */
export async function digestStreams(name: DigestName): Promise<DigestStreamFactory> {
  const native = await nativeCrypto();
  if (native === undefined || typeof native.createHash !== "function" || !native.getHashes().includes(name)) {
    const hash = nobleHash(name);
    return () => hash.create();
  }
  return () => native.createHash(name);
}

/** The digest of `bytes` repeated `times` times, fed in slices so that long inputs do not stall. */
export async function repeatedDigest(create: DigestStreamFactory, bytes: Uint8Array, times: number): Promise<Uint8Array> {
  const stream = create();
  await slicedLoop(times, () => stream.update(bytes));
  return stream.digest();
}
