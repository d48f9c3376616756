/** Makes ids for new users and notifications. */
export interface IdGenerator {
  next(): string;
}
