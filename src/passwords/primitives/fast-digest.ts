import { concatBytes } from "../encoding/bytes.js";
import { nobleHash, type DigestName } from "./digest.js";
import { nativeCrypto, type NativeCrypto } from "./native.js";
import { slicedLoop } from "./yielding.js";

/** An incremental digest: feed the parts in order, then take the digest once. */
export interface DigestStream {
  update(data: Uint8Array): DigestStream;
  digest(): Uint8Array;
}

export type DigestStreamFactory = () => DigestStream;

/** Collects the parts and hashes them in one native call. */
function oneShotStream(hash: NonNullable<NativeCrypto["hash"]>, name: DigestName): DigestStream {
  const parts: Uint8Array[] = [];
  const stream: DigestStream = {
    update(data) {
      parts.push(data);
      return stream;
    },
    digest: () => hash(name, concatBytes(...parts), "buffer"),
  };
  return stream;
}

/**
 * Fresh digests for tight loops (the crypt family runs up to a million of them). node:crypto's
 * one-shot `hash` (Node 20.12 and later) where there is one, noble otherwise. Not `createHash`:
 * its objects are native-backed, and a million of them made the young-generation collections
 * take 12-56 ms each inside a test runner (stalling the event loop that long); one-shot `hash`
 * was also the fastest, about 3 us per SHA-512 round against 4 for either of the others.
 */
export async function digestStreams(name: DigestName): Promise<DigestStreamFactory> {
  const native = await nativeCrypto();
  const hash = native?.hash;
  if (native !== undefined && typeof hash === "function" && native.getHashes().includes(name)) return () => oneShotStream(hash, name);
  const noble = nobleHash(name);
  return () => noble.create();
}

/** The digest of `bytes` repeated `times` times, fed in slices so that long inputs do not stall. */
export async function repeatedDigest(create: DigestStreamFactory, bytes: Uint8Array, times: number): Promise<Uint8Array> {
  const stream = create();
  await slicedLoop(times, () => stream.update(bytes));
  return stream.digest();
}
