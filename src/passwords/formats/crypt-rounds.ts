import type { DigestStreamFactory } from "../primitives/fast-digest.js";
import { slicedLoop } from "../primitives/yielding.js";

/**
 * The stretching loop MD5-crypt and SHA-crypt share: round i hashes the previous digest with the
 * password-derived bytes `p` and the salt-derived bytes `s`, their order and presence decided by
 * i's parity and by i mod 3 and i mod 7.
 */
export async function cryptRounds(create: DigestStreamFactory, rounds: number, start: Uint8Array, p: Uint8Array, s: Uint8Array): Promise<Uint8Array> {
  let current = start;
  await slicedLoop(rounds, (i) => {
    const odd = (i & 1) === 1;
    const round = create().update(odd ? p : current);
    if (i % 3 !== 0) round.update(s);
    if (i % 7 !== 0) round.update(p);
    current = round.update(odd ? current : p).digest();
  });
  return current;
}
