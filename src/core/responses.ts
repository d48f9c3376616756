/** `details` of a creation: the last event's sequence and time, and the owning organization. */
export interface CreationDetails {
  /** Decimal string (a 64-bit number in protobuf JSON). */
  readonly sequence: string;
  /** RFC 3339 UTC. */
  readonly changeDate: string;
  readonly resourceOwner: string;
}

/** Operation A's response body. */
export interface CreateHumanUserResponse {
  readonly userId: string;
  readonly details: CreationDetails;
  /** Only when `email.returnCode` was asked for. */
  readonly emailCode?: string;
  /** Only when `phone.returnCode` was asked for. */
  readonly phoneCode?: string;
}

export interface PasswordlessRegistration {
  readonly link: string;
  /** Protobuf JSON duration, e.g. `"3600s"`. */
  readonly lifetime: string;
  readonly expiration: string;
}

/** Operation B's response body. */
export interface ImportHumanUserResponse {
  readonly userId: string;
  readonly details: CreationDetails & { readonly creationDate: string };
  /** Only when `requestPasswordlessRegistration` was true. */
  readonly passwordlessRegistration?: PasswordlessRegistration;
}
