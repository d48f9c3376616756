export interface SmsMessage {
  /** Stable per notification, so a sender can drop a duplicate delivery. */
  readonly id: string;
  /** E.164 number. */
  readonly to: string;
  readonly text: string;
  readonly code: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}
