import { resolveHashBounds, type HashBounds } from "../passwords/bounds.js";
import { defaultPasswordHasher } from "../passwords/hashers/default.js";
import type { PasswordHasher } from "../passwords/hashers/hasher.js";
import type { Authorizer, IdGenerator, Keys, Ports, RandomSource } from "../ports/index.js";
import { defaultAuthorizer } from "./authorization/default-authorizer.js";
import { processKeys } from "./defaults/process-keys.js";
import { timeOrderedIds } from "./defaults/time-ordered-ids.js";
import { webCryptoRandom } from "../shared/web-crypto-random.js";

/** Ports with every optional one filled by its default. */
export interface ResolvedPorts extends Omit<Ports, "hashBounds"> {
  readonly ids: IdGenerator;
  readonly random: RandomSource;
  readonly authorizer: Authorizer;
  readonly passwordHasher: PasswordHasher;
  readonly hashBounds: HashBounds;
  readonly keys: Keys;
}

const defaultIds = timeOrderedIds();
const resolved = new WeakMap<Ports, ResolvedPorts>();

export function resolvePorts(ports: Ports): ResolvedPorts {
  let result = resolved.get(ports);
  if (result === undefined) {
    result = {
      ...ports,
      ids: ports.ids ?? defaultIds,
      random: ports.random ?? webCryptoRandom,
      authorizer: ports.authorizer ?? defaultAuthorizer,
      passwordHasher: ports.passwordHasher ?? defaultPasswordHasher,
      hashBounds: resolveHashBounds(ports.hashBounds),
      keys: ports.keys ?? processKeys(),
    };
    resolved.set(ports, result);
  }
  return result;
}
