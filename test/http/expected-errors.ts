// Whole error bodies as the tests expect them. The Connect detail bytes are made with the
// reference server's published protobuf types, independently of the handler's own encoder.
import { create, toBinary } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { ErrorDetailSchema } from "@zitadel/proto/zitadel/message_pb.js";

export function restError(code: number, id: string, message: string): unknown {
  return { code, message, details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id, message }] };
}

export function connectError(code: string, id: string, message: string): unknown {
  const value = base64Encode(toBinary(ErrorDetailSchema, create(ErrorDetailSchema, { id, message })), "std_raw");
  return { code, message, details: [{ type: "zitadel.v1.ErrorDetail", value, debug: { id, message } }] };
}
