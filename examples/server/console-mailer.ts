import type { Mailer } from "../../src/index.js";

/** Prints each message instead of sending it, so the demo's verification links can be followed. */
export function consoleMailer(): Mailer {
  return {
    send(message) {
      console.log(`mail to ${message.to}: ${message.subject}\n  ${message.link}`);
      return Promise.resolve();
    },
  };
}
