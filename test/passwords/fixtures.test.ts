import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePasswordHash, verifyPassword, verifyPasswordWithFormat } from "../../src/passwords/index.js";
import { explicitFormatOf, LOCAL_VECTORS_PATH, loadVectors, passwordOf, SHARED_VECTORS_PATH, type HashVector } from "./vectors.js";

const vectors = loadVectors();

function check(vector: HashVector) {
  const password = passwordOf(vector);
  const explicit = explicitFormatOf(vector);
  return explicit === undefined ? verifyPassword(vector.hash, password) : verifyPasswordWithFormat(explicit, password);
}

/**
 * Invalid vectors that no parser can refuse: this PHC salt has one extra character, which still
 * is canonical base64 (44 characters, 33 bytes), so only the verification can fail it.
 */
const UNDETECTABLE = new Set([
  "$pbkdf2-sha256$i=100000,l=32$1jP+5Zxpxgtee/iPxGgOz0RfE9/KJuDElP1ley4VxXcc$QJxzfvdbHYBpydCbHoFg3GJEqMFULwskiuqiJctoYpI",
]);

function label(vector: HashVector, index: number): string {
  return `#${index} ${vector.format} ${vector.valid ? "valid" : `invalid (${vector.reason ?? "?"})`}${vector.dos === true ? " dos" : ""}`;
}

describe("hash-vectors.json", () => {
  it("has vectors", () => {
    expect(vectors.length).toBeGreaterThan(150);
  });

  it.skipIf(!existsSync(SHARED_VECTORS_PATH))("is the same file as ../shared/fixtures/hash-vectors.json", () => {
    expect(readFileSync(LOCAL_VECTORS_PATH, "utf8")).toBe(readFileSync(SHARED_VECTORS_PATH, "utf8"));
  });

  vectors.forEach((vector, index) => {
    if (vector.valid) {
      it(`${label(vector, index)} verifies`, async () => {
        const result = await check(vector);
        expect(result.isOk() ? result.value.valid : result.error.message).toBe(true);
      });
    } else if (vector.dos === true) {
      it(`${label(vector, index)} is refused before hashing, in under 50 ms`, async () => {
        const started = performance.now();
        const result = await check(vector);
        const elapsed = performance.now() - started;
        expect(result.isErr()).toBe(true);
        expect(elapsed).toBeLessThan(50);
        if (explicitFormatOf(vector) === undefined) expect(parsePasswordHash(vector.hash).isErr()).toBe(true);
      });
    } else {
      it(`${label(vector, index)} is refused or does not verify`, async () => {
        const result = await check(vector);
        expect(result.isErr() || !result.value.valid).toBe(true);
        // Anything but a wrong password must already fail at parse time.
        if (vector.reason !== "wrong-password" && explicitFormatOf(vector) === undefined && !UNDETECTABLE.has(vector.hash)) {
          expect(result.isErr()).toBe(true);
        }
      });
    }
  });
});
