import { concatBytes } from "../encoding/bytes.js";
import type { DigestName } from "../primitives/digest.js";
import { fastDigest } from "../primitives/fast-digest.js";
import { slicedLoop } from "../primitives/yielding.js";

/**
 * The stretching loop MD5-crypt and SHA-crypt share: round i hashes the previous digest with the
 * password-derived bytes `p` and the salt-derived bytes `s`, their order and presence decided by
 * i's parity and by i mod 3 and i mod 7.
 */
export async function cryptRounds(name: DigestName, rounds: number, start: Uint8Array, p: Uint8Array, s: Uint8Array): Promise<Uint8Array> {
  const hash = await fastDigest(name);
  let current = start;
  await slicedLoop(rounds, (i) => {
    const odd = (i & 1) === 1;
    const round: Uint8Array[] = [odd ? p : current];
    if (i % 3 !== 0) round.push(s);
    if (i % 7 !== 0) round.push(p);
    round.push(odd ? current : p);
    current = hash(concatBytes(...round));
  });
  return current;
}
