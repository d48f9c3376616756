/** Makes ids for new users and notifications. */
export interface IdGenerator {
  /** A new, unique id. */
  next(): string;
}
