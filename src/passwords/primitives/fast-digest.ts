import { nobleHash, type DigestName } from "./digest.js";
import { nativeOneShotHash, type NativeCrypto } from "./native.js";
import { slicedLoop } from "./yielding.js";

/** An incremental digest: feed the parts in order, then take the digest once. */
export interface DigestStream {
  update(data: Uint8Array): DigestStream;
  digest(): Uint8Array;
}

export type DigestStreamFactory = () => DigestStream;

/**
 * Streams that copy their parts into one buffer, reused from stream to stream, and hash it in
 * one native call: no allocation per round but the digest itself. The factory's streams must be
 * used one after another, never two at once, as every loop here does.
 */
function oneShotStreams(hash: NonNullable<NativeCrypto["hash"]>, name: DigestName): DigestStreamFactory {
  let buffer = new Uint8Array(256);
  let length = 0;
  const stream: DigestStream = {
    update(data) {
      if (length + data.length > buffer.length) {
        const grown = new Uint8Array(Math.max(2 * buffer.length, length + data.length));
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      buffer.set(data, length);
      length += data.length;
      return stream;
    },
    digest() {
      const out = hash(name, buffer.subarray(0, length), "buffer");
      length = 0;
      return out;
    },
  };
  return () => {
    length = 0;
    return stream;
  };
}

/**
 * Fresh digests for tight loops (the crypt family runs up to a million of them). node:crypto's
 * one-shot `hash` (Node 20.12 and later) where there is one, noble otherwise. Not `createHash`:
 * its objects are native-backed, and a million of them made the young-generation collections
 * take 12-56 ms each inside a test runner (stalling the event loop that long); one-shot `hash`
 * was also the fastest, about 3 us per SHA-512 round against 4 for either of the others.
 */
export async function digestStreams(name: DigestName): Promise<DigestStreamFactory> {
  const hash = await nativeOneShotHash(name);
  if (hash !== undefined) return oneShotStreams(hash, name);
  const noble = nobleHash(name);
  return () => noble.create();
}

/** The digest of `bytes` repeated `times` times, fed in slices so that long inputs do not stall. */
export async function repeatedDigest(create: DigestStreamFactory, bytes: Uint8Array, times: number): Promise<Uint8Array> {
  const stream = create();
  await slicedLoop(times, () => stream.update(bytes));
  return stream.digest();
}
