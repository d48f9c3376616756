/** Anything with `aborted`, such as an `AbortSignal`: how a caller asks long work to stop. */
export interface StopSignal {
  readonly aborted: boolean;
}
