import { describe, expect, it } from "vitest";
import { httpStatus } from "../../src/index.js";

describe("httpStatus", () => {
  it("maps every gRPC code as ZITADEL's gateway does, and anything else to 500", () => {
    const codes = [...Array.from({ length: 17 }, (_, code) => code), 17, -1, 1.5, Number.NaN];
    expect(codes.map(httpStatus)).toEqual([200, 499, 500, 400, 504, 404, 409, 403, 429, 400, 409, 400, 501, 500, 503, 500, 401, 500, 500, 500, 500]);
  });
});
