export const GENDERS = ["GENDER_UNSPECIFIED", "GENDER_FEMALE", "GENDER_MALE", "GENDER_DIVERSE"] as const;
export type Gender = (typeof GENDERS)[number];

/** An enum is accepted by name or by number, as protobuf JSON does. */
export function parseGender(value: unknown): Gender | undefined {
  if (typeof value === "string") return (GENDERS as readonly string[]).includes(value) ? (value as Gender) : undefined;
  if (typeof value === "number" && Number.isInteger(value)) return GENDERS[value];
  return undefined;
}
