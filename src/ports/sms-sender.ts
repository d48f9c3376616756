/** One rendered SMS with its code. */
export interface SmsMessage {
  /** Stable per notification, so a sender can drop a duplicate delivery. */
  readonly id: string;
  /** E.164 number. */
  readonly to: string;
  readonly text: string;
  readonly code: string;
}

/** The SMS port: sends phone codes. */
export interface SmsSender {
  /** Resolves once the message is accepted; rejects when it is not. */
  send(message: SmsMessage): Promise<void>;
}
