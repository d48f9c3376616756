import { mergeFieldTrees, type FieldTree } from "../wire/field-tree.js";
import { createRequestFields } from "./create-human-user.js";
import { importRequestFields } from "./import-human-user.js";

/** What either operation reads, for a copy made before the operation is known. */
export const anyRequestFields: FieldTree = mergeFieldTrees(createRequestFields, importRequestFields);
