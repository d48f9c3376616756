import type { MailMessage, Mailer } from "../../ports/mailer.js";

/** How a `memoryMailer` fails, to test what happens when mail cannot be sent. */
export interface MemoryMailerOptions {
  /** Refuse this many sends before accepting again. Default 0. */
  readonly failNext?: number;
  /** Refuse every send (until `failAlways(false)`). Default false. */
  readonly failAlways?: boolean;
}

/**
 * A mailer that keeps messages in memory: for tests and for hosts that read mail from a queue of
 * their own. Nothing is dropped as a duplicate, so a test can see a message delivered twice.
 */
export interface MemoryMailer extends Mailer {
  /** Every accepted message, in order of acceptance. */
  readonly sent: MailMessage[];
  /** Every message handed to `send`, accepted or refused, in order. */
  readonly attempted: MailMessage[];
  /** Refuse the next `count` sends. */
  failNext(count: number): void;
  /** Refuse every send from now on (`true`) or stop doing so (`false`). */
  failAlways(failing: boolean): void;
}

/** A mailer that keeps messages in memory (`sent`, `attempted`): for tests and demos. */
export function memoryMailer(options: MemoryMailerOptions = {}): MemoryMailer {
  const sent: MailMessage[] = [];
  const attempted: MailMessage[] = [];
  let refusalsLeft = options.failNext ?? 0;
  let refusing = options.failAlways ?? false;

  function send(message: MailMessage): Promise<void> {
    attempted.push(message);
    if (refusing || refusalsLeft > 0) {
      refusalsLeft = Math.max(0, refusalsLeft - 1);
      return Promise.reject(new Error("memoryMailer: delivery refused (test setting)"));
    }
    sent.push(message);
    return Promise.resolve();
  }

  return {
    sent,
    attempted,
    send,
    failNext: (count) => {
      refusalsLeft = count;
    },
    failAlways: (failing) => {
      refusing = failing;
    },
  };
}
