// google.rpc.BadRequest is not in @zitadel/proto, so its schema is built here from the field
// numbers of google/rpc/error_details.proto, to decode what the handler encodes.
import { create, createFileRegistry, type DescMessage } from "@bufbuild/protobuf";
import { FieldDescriptorProto_Label, FieldDescriptorProto_Type, FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";

const { OPTIONAL, REPEATED } = FieldDescriptorProto_Label;
const { MESSAGE, STRING } = FieldDescriptorProto_Type;

const file = create(FileDescriptorProtoSchema, {
  name: "google/rpc/error_details.proto",
  package: "google.rpc",
  syntax: "proto3",
  messageType: [
    {
      name: "BadRequest",
      field: [{ name: "field_violations", jsonName: "fieldViolations", number: 1, label: REPEATED, type: MESSAGE, typeName: ".google.rpc.BadRequest.FieldViolation" }],
      nestedType: [
        {
          name: "FieldViolation",
          field: [
            { name: "field", jsonName: "field", number: 1, label: OPTIONAL, type: STRING },
            { name: "description", jsonName: "description", number: 2, label: OPTIONAL, type: STRING },
          ],
        },
      ],
    },
  ],
});

export const BadRequestSchema: DescMessage = (() => {
  const schema = createFileRegistry(file, () => undefined).getMessage("google.rpc.BadRequest");
  if (schema === undefined) throw new Error("google.rpc.BadRequest descriptor did not build");
  return schema;
})();
