// requestPath's shortcuts (a plain Host taken without `new URL`, a plain path taken as written)
// accept and refuse exactly what the URL-building check did before them, on many inputs, hostile ones included.
import type { IncomingMessage } from "node:http";
import { err, ok, type Result } from "neverthrow";
import { describe, expect, it } from "vitest";
import type { HttpProblem } from "../../src/http/wire-error.js";
import { nodeProblems } from "../../src/node/node-problems.js";
import { requestPath, requestUrl } from "../../src/node/request-url.js";

/** The check as it was before the shortcuts, kept as written then: both hosts and targets went through `new URL`. */
function referencePath(host: string | undefined, target: string): Result<string, HttpProblem> {
  const parse = (text: string): URL | undefined => {
    try {
      return new URL(text);
    } catch {
      return undefined;
    }
  };
  if (host === undefined) return err(nodeProblems.noHost());
  if (!/^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d*)?$/.test(host) || parse(`http://${host}`) === undefined) return err(nodeProblems.badHost(host));
  const url = target.startsWith("/") ? parse(`http://${host}${target}`) : /^https?:\/\//i.test(target) ? parse(target) : undefined;
  if (url === undefined || url.username !== "" || url.password !== "") return err(nodeProblems.badTarget(target));
  return ok(url.pathname);
}

function incoming(host: string | undefined, target: string): IncomingMessage {
  const rawHeaders = host === undefined ? ["Content-Type", "application/json"] : ["Host", host, "Content-Type", "application/json"];
  return { rawHeaders, httpVersion: "1.1", url: target } as Partial<IncomingMessage> as IncomingMessage;
}

const HOSTS = [
  "127.0.0.1", "127.0.0.1:8080", "127.0.0.1:65535", "127.0.0.1:65536", "127.0.0.1:99999", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:00080", "127.0.0.1:123456",
  "localhost", "LOCALHOST:3000", "demo.localhost", "api.example.com", "a", "a-b.c-d.example", "-a.example", "a-.example", "a..b", ".a", "a.", "a.b.",
  "0.0.0.0", "255.255.255.255", "256.0.0.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.04", "0x7f.0.0.1", "0x7f000001", "2130706433", "1.2.3.4x", "1.2.3.a",
  "example.123", "example.0x1", "123.example", "x1.y2.z3", "xn--nxasmq6b.com", "xn--a", "XN--abc.example", "axn--b.example", "a.xn--zz", "xn--nxasmm1c",
  "[::1]", "[::1]:443", "[fe80::1%25eth0]", "[1.2.3.4]", "[", "]", "[::1", "user@host", "user:pass@host", "a b", "a\tb", "", " ", "a/b", "a?b", "a#b", "a\\b",
  "a%20b", "%41", "a%2Fb", "a_b", "a~b", "a!b", "a$b", "a&b", "a'b", "a(b)", "a*b", "a+b", "a,b", "a;b", "a=b", "a:b:c", "a::1", "ä.example", "a.example:80:80",
  `${"a".repeat(63)}.example`, `${"a".repeat(64)}.example`, `${"a.".repeat(130)}com`, "example.com:65535", "example.com:-1", "example.com: 80",
];

const TARGETS = [
  "/v2/users/human", "/v2/users/human?x=1", "/v2/users/human#frag", "/v2/users/human/", "/", "//", "//other.example/x", "///a", "/a//b", "/v2/users/100000000000000001",
  "/v2/users/./human", "/v2/users/../human", "/.", "/..", "/./", "/../", "/a/.", "/a/..", "/.a", "/..a", "/a.", "/a..", "/...", "/a/.../b", "/%2e", "/%2E%2e/x", "/.%2e/x",
  "/a%20b", "/a%zz", "/a%", "/a b", "/a\tb", "/a\\b", "/a|b", "/a^b", "/a`b", "/a{b}", "/a<b>", '/a"b', "/a'b", "/a[b]", "/a~b", "/a!$&()*+,;=:@b", "/ä", "/a\u0000b",
  "/healthz", "/zitadel.user.v2.UserService/AddHumanUser", "/a?b#c", "/a#b?c", "/a?b/../c", "/a?%zz", "/a?b c", "/a? ", "/a?\t", "/a?#", "/?", "/#",
  "*", "", "a", "http://example.com/v2/users/human", "HTTP://example.com/a/../b", "https://user:pw@example.com/x", "http://user@example.com/x", "http://a b/x", "ftp://example.com/x",
  "http:/x", "http:///x", "/v2/users/human?returnCode", "/@evil.example/x", "/:1/x",
];

/** Characters the random inputs are drawn from: the plain ones and each one the URL parser treats apart. */
const ALPHABET = "aZ09-._~!$&'()*+,;=:@/?#%[]\\ \t|^`{}<>\"xn";

function randomText(random: () => number, length: number): string {
  let text = "";
  for (let index = 0; index < length; index++) text += ALPHABET[Math.floor(random() * ALPHABET.length)] ?? "a";
  return text;
}

/** A small seeded generator, so that a failure can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe("requestPath", () => {
  it("accepts and refuses what the URL-building check did, with the same path or the same refusal", () => {
    const random = seeded(20261126);
    const hosts = [...HOSTS, undefined, ...Array.from({ length: 300 }, () => randomText(random, 1 + Math.floor(random() * 12)))];
    const targets = [...TARGETS, ...Array.from({ length: 300 }, () => `/${randomText(random, Math.floor(random() * 16))}`)];
    const differences: string[] = [];
    for (const host of hosts) {
      for (const target of targets) {
        const found = requestPath(incoming(host, target));
        const expected = referencePath(host, target);
        if (JSON.stringify(found) !== JSON.stringify(expected)) differences.push(`${JSON.stringify(host)} ${JSON.stringify(target)}: ${JSON.stringify(found)} != ${JSON.stringify(expected)}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it("gives the path of requestUrl's URL, as toNodeHandler builds its Request from", () => {
    for (const host of HOSTS) {
      for (const target of TARGETS) {
        const message = incoming(host, target);
        expect(JSON.stringify(requestPath(message))).toBe(JSON.stringify(requestUrl(message).map((url) => url.pathname)));
      }
    }
  });

  it("takes an HTTP/1.0 request without a Host as one for localhost, and refuses two Hosts", () => {
    const old = { rawHeaders: [], httpVersion: "1.0", url: "/v2/users/human" } as Partial<IncomingMessage> as IncomingMessage;
    const twice = { rawHeaders: ["Host", "a", "host", "a"], httpVersion: "1.1", url: "/" } as Partial<IncomingMessage> as IncomingMessage;
    expect([requestPath(old), requestPath(twice)]).toEqual([ok("/v2/users/human"), err(nodeProblems.manyHosts())]);
  });
});
