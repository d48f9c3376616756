import { refuseThenable } from "./host-calls.js";

/** Anything with `fill()`, as the random source port is (the shared leaf names no port). */
interface RandomSource {
  fill(bytes: Uint8Array): Uint8Array;
}

const checkedSources = new WeakSet<RandomSource>();

/**
 * The host's random source, each draw checked: `fill` must fill the array it is given and return
 * that same array, as `crypto.getRandomValues` does. A source that returns a new array instead
 * (`(bytes) => randomBytes(bytes.length)`) leaves the given one as it was: every code would be the
 * same, with no error. That throws, as a source that throws does: 13, with the cause logged.
 */
export function checkedRandom(random: RandomSource): RandomSource {
  if (checkedSources.has(random)) return random;
  const checked: RandomSource = {
    fill(bytes) {
      const answer: unknown = random.fill(bytes);
      refuseThenable(answer, "ports.random.fill(bytes)");
      if (answer !== bytes) throw new Error("ports.random.fill(bytes) must fill the array it is given and return that same array");
      return bytes;
    },
  };
  checkedSources.add(checked);
  return checked;
}
