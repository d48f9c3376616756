/** A cryptographically secure random source; fills the array and returns it. */
export interface RandomSource {
  fill(bytes: Uint8Array): Uint8Array;
}
