/** Where the library reads the time of the events it writes. */
export interface Clock {
  now(): Date;
}
