/** A cryptographically secure random source; fills the array and returns it. */
export interface RandomSource {
  /** Fills `bytes` with cryptographically strong random values and returns them. */
  fill(bytes: Uint8Array): Uint8Array;
}
