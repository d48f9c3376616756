// The requests every framework example is tried with, and the answers each must give whole.
import { expect } from "vitest";

const TOKEN = "Bearer example-token";
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: unknown;
}

async function answer(response: Response): Promise<Answer> {
  const contentType = response.headers.get("content-type");
  const text = await response.text();
  return { status: response.status, contentType, body: contentType?.startsWith("application/json") === true ? (JSON.parse(text) as unknown) : text };
}

/** Creates a user through the framework, reads it back, and asks for the health route. */
export async function tryExample(prefixUrl: string): Promise<Record<string, Answer>> {
  const userId = `user-${Date.now()}`;
  const created = await fetch(`${prefixUrl}/v2/users/human`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: TOKEN, "x-zitadel-orgid": "acme" },
    body: JSON.stringify({ userId, username: "ada", profile: { givenName: "Ada", familyName: "Lovelace" }, email: { email: "ada@acme.test", returnCode: {} } }),
  });
  const read = await fetch(`${prefixUrl}/v2/users/${userId}`, { headers: { authorization: TOKEN } });
  const unauthenticated = await fetch(`${prefixUrl}/v2/users/human`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const health = await fetch(`${prefixUrl}/healthz`);
  return { created: await answer(created), read: await answer(read), unauthenticated: await answer(unauthenticated), health: await answer(health), userId: { status: 0, contentType: null, body: userId } };
}

const HUMAN = {
  email: { email: "ada@acme.test" },
  phone: {},
  profile: { displayName: "Ada Lovelace", familyName: "Lovelace", gender: "GENDER_UNSPECIFIED", givenName: "Ada", nickName: "", preferredLanguage: "und" },
};

/** The whole answers `tryExample` must get; only the generated time and code are matched by shape. */
export function expectedAnswers(userId: string): Record<string, unknown> {
  const json = "application/json";
  const details = { sequence: "2", changeDate: expect.stringMatching(ISO_TIME), resourceOwner: "acme" };
  return {
    created: { status: 201, contentType: json, body: { userId, details, emailCode: expect.stringMatching(/^[A-Z0-9]{6}$/) } },
    read: {
      status: 200,
      contentType: json,
      body: {
        details: { ...details, creationDate: expect.stringMatching(ISO_TIME) },
        user: {
          userId,
          details: { ...details, creationDate: expect.stringMatching(ISO_TIME) },
          state: "USER_STATE_ACTIVE",
          username: "ada",
          loginNames: ["ada"],
          preferredLoginName: "ada",
          human: HUMAN,
        },
      },
    },
    unauthenticated: {
      status: 401,
      contentType: json,
      body: { code: 16, message: "authentication required", details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "HTTP-4uth", message: "authentication required" }] },
    },
    health: { status: 200, contentType: json, body: { status: "SERVING" } },
    userId: { status: 0, contentType: null, body: userId },
  };
}
