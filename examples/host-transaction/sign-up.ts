// One sign-up of the host application: its own account row and the new user, in one transaction.
import type { PGlite } from "@electric-sql/pglite";
import type { PgliteStore } from "../../src/adapters/pglite/index.js";
import { createHumanUser, deliverPendingNotifications, type OperationContext, type Ports } from "../../src/index.js";

export interface SignUp {
  readonly username: string;
  readonly email: string;
  /** The host's own data: its `accounts` table accepts "free" and "pro" only. */
  readonly plan: string;
}

export type SignUpOutcome =
  | { readonly committed: true; readonly userId: string; readonly mailsSent: number }
  | { readonly committed: false; readonly reason: string };

/**
 * Creates the user and the host's account together, or neither. The mail goes only after the
 * commit: a rolled-back user must never receive a code.
 */
export async function signUp(db: PGlite, store: PgliteStore, ports: Ports, context: OperationContext, signup: SignUp): Promise<SignUpOutcome> {
  let written: readonly string[] = [];
  try {
    const userId = await db.transaction(async (tx) => {
      const storage = store.inTransaction(tx);
      const request = { username: signup.username, profile: { givenName: signup.username, familyName: "Example" }, email: { email: signup.email } };
      const created = await createHumanUser({ ...ports, storage }, request, context);
      // Throwing rolls back whatever the transaction wrote, the user included.
      if (created.isErr()) throw new Error(`the user was refused: ${created.error.message}`);
      await tx.query("INSERT INTO accounts (username, user_id, plan) VALUES ($1, $2, $3)", [signup.username, created.value.userId, signup.plan]);
      written = storage.writtenNotificationIds();
      return created.value.userId;
    });
    // Committed: now the verification mail may go (the notification worker would send it otherwise).
    const report = await deliverPendingNotifications(ports, { ids: written });
    return { committed: true, userId, mailsSent: report.delivered.length };
  } catch (error) {
    return { committed: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
