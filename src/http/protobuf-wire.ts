// Just enough of the protobuf binary encoding to write the two error-detail messages that Connect
// clients decode (`zitadel.v1.ErrorDetail`, `google.rpc.BadRequest`): string and message fields.
// Hand-written so that the package needs no protobuf runtime.
import { concatBytes, utf8 } from "../shared/bytes.js";

const LENGTH_DELIMITED = 2;

function varint(value: number): Uint8Array {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Uint8Array.from(bytes);
}

function lengthDelimited(fieldNumber: number, payload: Uint8Array): Uint8Array {
  return concatBytes(varint((fieldNumber << 3) | LENGTH_DELIMITED), varint(payload.byteLength), payload);
}

/** A `string` field; proto3 leaves an empty string out. */
export function stringField(fieldNumber: number, text: string): Uint8Array {
  return text === "" ? new Uint8Array() : lengthDelimited(fieldNumber, utf8(text));
}

/** An embedded message field (also one element of a repeated message field). */
export function messageField(fieldNumber: number, message: Uint8Array): Uint8Array {
  return lengthDelimited(fieldNumber, message);
}
