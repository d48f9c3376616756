// The Connect error form of an ErrorBody: detail bytes decoded with protobuf's own runtime.
import { fromBinary, toJson } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { ErrorDetailSchema } from "@zitadel/proto/zitadel/message_pb.js";
import { describe, expect, it } from "vitest";
import { invalidArgument } from "../../src/core/errors/index.js";
import { connectErrorBody, connectStatus } from "../../src/http/connect-error.js";
import { BadRequestSchema } from "./bad-request-schema.js";

describe("connectErrorBody", () => {
  const body = invalidArgument("USER-t3st", [
    { field: "profile.givenName", description: "must not be blank" },
    { field: "metadata[2].value", description: "is not base64: ünïcödé text" },
  ]);
  const message = "profile.givenName: must not be blank (and 1 more violation)";

  it("writes Connect's code name, the message, and each detail with its JSON as debug", () => {
    const connect = connectErrorBody(body);
    expect({ ...connect, details: connect.details.map(({ type, debug }) => ({ type, debug })) }).toEqual({
      code: "invalid_argument",
      message,
      details: [
        { type: "zitadel.v1.ErrorDetail", debug: { id: "USER-t3st", message } },
        {
          type: "google.rpc.BadRequest",
          debug: {
            fieldViolations: [
              { field: "profile.givenName", description: "must not be blank" },
              { field: "metadata[2].value", description: "is not base64: ünïcödé text" },
            ],
          },
        },
      ],
    });
  });

  it("encodes each detail so that protobuf decodes the same content", () => {
    const [errorDetail, badRequest] = connectErrorBody(body).details;
    expect([
      toJson(ErrorDetailSchema, fromBinary(ErrorDetailSchema, base64Decode(errorDetail?.value ?? ""))),
      toJson(BadRequestSchema, fromBinary(BadRequestSchema, base64Decode(badRequest?.value ?? ""))),
    ]).toEqual([
      { id: "USER-t3st", message },
      {
        fieldViolations: [
          { field: "profile.givenName", description: "must not be blank" },
          { field: "metadata[2].value", description: "is not base64: ünïcödé text" },
        ],
      },
    ]);
  });

  it("encodes a field longer than 127 bytes with a multi-byte length", () => {
    const long = "x".repeat(300);
    const [detail] = connectErrorBody({ code: 5, message: long, details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-l0ng", message: long }] }).details;
    expect(toJson(ErrorDetailSchema, fromBinary(ErrorDetailSchema, base64Decode(detail?.value ?? "")))).toEqual({ id: "USER-l0ng", message: long });
  });

  it("maps codes to Connect's HTTP statuses", () => {
    const codes = [3, 5, 6, 7, 8, 9, 12, 13, 14, 16] as const;
    expect(codes.map(connectStatus)).toEqual([400, 404, 409, 403, 429, 400, 501, 500, 503, 401]);
  });
});
