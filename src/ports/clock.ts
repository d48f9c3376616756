/** Where the library reads the time of the events it writes. */
export interface Clock {
  /** The current time. */
  now(): Date;
}
