import { describe, expect, it } from "vitest";
import {
  currentSha256Implementation,
  hmacSha256,
  nobleSha256Implementation,
  sha256,
  sha256Implementation,
  type Sha256Implementation,
} from "../../src/core/secrets/sha256.js";

const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
const fromHex = (text: string): Uint8Array => Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
const repeated = (byte: number, length: number): Uint8Array => new Uint8Array(length).fill(byte);
const text = (value: string): Uint8Array => new TextEncoder().encode(value);

/** RFC 4231, section 4: the HMAC-SHA-256 results of test cases 1 to 7 (case 5's output is truncated to 128 bits there). */
const RFC_4231 = [
  { name: "case 1", key: repeated(0x0b, 20), data: text("Hi There"), mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
  { name: "case 2 (short key)", key: text("Jefe"), data: text("what do ya want for nothing?"), mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
  { name: "case 3", key: repeated(0xaa, 20), data: repeated(0xdd, 50), mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
  {
    name: "case 4",
    key: fromHex("0102030405060708090a0b0c0d0e0f10111213141516171819"),
    data: repeated(0xcd, 50),
    mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
  },
  { name: "case 5 (truncated)", key: repeated(0x0c, 20), data: text("Test With Truncation"), mac: "a3b6167473100ee06e0c796c2955552b", truncated: true },
  {
    name: "case 6 (key longer than a block)",
    key: repeated(0xaa, 131),
    data: text("Test Using Larger Than Block-Size Key - Hash Key First"),
    mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
  },
  {
    name: "case 7 (key and data longer than a block)",
    key: repeated(0xaa, 131),
    data: text("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."),
    mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
  },
];

/** FIPS 180-2's examples and the empty message. */
const SHA_256 = [
  { data: "", digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
  { data: "abc", digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
  { data: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
];

const native = sha256Implementation(globalThis);

describe.each([
  ["node:crypto", native],
  ["@noble/hashes", nobleSha256Implementation],
] as const)("SHA-256 and HMAC-SHA256 from %s", (name, implementation: Sha256Implementation) => {
  it("is the implementation it says", () => {
    expect(implementation.name).toBe(name);
  });

  it.each(RFC_4231)("gives RFC 4231's HMAC-SHA256, $name", ({ key, data, mac, truncated }) => {
    const result = hex(implementation.hmacSha256(key, data));
    expect(truncated === true ? result.slice(0, 32) : result).toBe(mac);
    const base64 = Buffer.from(implementation.hmacSha256Base64(key, data), "base64").toString("hex");
    expect(truncated === true ? base64.slice(0, 32) : base64).toBe(mac);
  });

  it.each(SHA_256)("gives FIPS 180-2's SHA-256 of $data", ({ data, digest }) => {
    expect(hex(implementation.sha256(text(data)))).toBe(digest);
    expect(implementation.sha256Base64Url(data)).toBe(Buffer.from(digest, "hex").toString("base64url"));
  });

  it("digests text as its UTF-8 bytes, beyond ASCII too", () => {
    const key = repeated(0x0b, 32);
    for (const message of ["ABC123", "straße ß 😀", ""]) {
      expect(hex(implementation.hmacSha256(key, message))).toBe(hex(implementation.hmacSha256(key, text(message))));
      expect(hex(implementation.sha256(message))).toBe(hex(implementation.sha256(text(message))));
    }
  });
});

describe("the choice of implementation", () => {
  it("takes node:crypto where the runtime has it, and both give the same bytes for any key and message", () => {
    expect(native.name).toBe("node:crypto");
    for (let length = 0; length < 200; length += 7) {
      const key = Uint8Array.from({ length: (length % 90) + 1 }, (_, index) => (index * 31 + length) & 0xff);
      const message = Uint8Array.from({ length }, (_, index) => (index * 17 + 3) & 0xff);
      expect(hex(native.hmacSha256(key, message))).toBe(hex(nobleSha256Implementation.hmacSha256(key, message)));
      expect(native.hmacSha256Base64(key, message)).toBe(nobleSha256Implementation.hmacSha256Base64(key, message));
      expect(native.hmacSha256Base64(key, message)).toBe(Buffer.from(native.hmacSha256(key, message)).toString("base64"));
      expect(hex(native.sha256(message))).toBe(hex(nobleSha256Implementation.sha256(message)));
      expect(native.sha256Base64Url(message)).toBe(nobleSha256Implementation.sha256Base64Url(message));
    }
  });

  it.each([
    ["no process", {}],
    ["a process without getBuiltinModule (Node before 20.16)", { process: {} }],
    ["getBuiltinModule without node:crypto", { process: { getBuiltinModule: () => undefined } }],
    ["a getBuiltinModule that throws", { process: { getBuiltinModule: () => { throw new Error("no such module"); } } }],
    ["a node:crypto without createHmac", { process: { getBuiltinModule: () => ({ createHash: () => undefined }) } }],
  ])("falls back to @noble/hashes with %s", (_case, runtime) => {
    expect(sha256Implementation(runtime)).toBe(nobleSha256Implementation);
  });

  it("uses node:crypto's one-shot hash where it has one, and createHash where it has not", () => {
    const calls: string[] = [];
    const digest = { digest: () => new Uint8Array([1]) };
    const crypto = {
      createHmac: () => ({ update: () => digest }),
      createHash: () => {
        calls.push("createHash");
        return { update: () => digest };
      },
    };
    const withoutHash = sha256Implementation({ process: { getBuiltinModule: () => crypto } });
    const withHash = sha256Implementation({
      process: {
        getBuiltinModule: () => ({
          ...crypto,
          hash: (_algorithm: string, _data: unknown, encoding: string) => {
            calls.push(`hash ${encoding}`);
            return encoding === "base64url" ? "written by the runtime" : new Uint8Array([2]);
          },
        }),
      },
    });
    expect([withoutHash.sha256("a"), withHash.sha256("a")]).toEqual([new Uint8Array([1]), new Uint8Array([2])]);
    expect([withoutHash.sha256Base64Url("a"), withHash.sha256Base64Url("a")]).toEqual(["AQ", "written by the runtime"]);
    expect(calls).toEqual(["createHash", "hash buffer", "createHash", "hash base64url"]);
  });

  it("is looked up once, and the functions use it", () => {
    expect(currentSha256Implementation()).toBe(currentSha256Implementation());
    expect(currentSha256Implementation().name).toBe("node:crypto");
    expect(hex(hmacSha256(repeated(0x0b, 20), "Hi There"))).toBe(RFC_4231[0]?.mac);
    expect(hex(sha256("abc"))).toBe(SHA_256[1]?.digest);
  });
});
