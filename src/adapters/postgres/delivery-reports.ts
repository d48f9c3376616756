import { coalesced } from "../../shared/coalesced.js";

/**
 * Runs `work` on the next turn of the event loop: `setImmediate` where the runtime has it (Node's
 * `setTimeout(0)` waits at least a millisecond), else `setTimeout`.
 */
function nextTurn(work: () => void): void {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  if (immediate !== undefined) immediate(work);
  else setTimeout(work, 0);
}

/** One delivery as the report statement takes it. */
interface Report {
  readonly id: string;
  readonly at: string;
}

/** Reports taken by a write statement: their JSON, and what to do once the statement is over. */
export interface Riders {
  /** A JSON array of {id, at}, for `human_users_mark_delivered`. */
  readonly json: string;
  /** The statement committed: the reports are written. */
  written(): void;
  /** The statement failed: the reports go alone. */
  notWritten(): void;
}

/**
 * Runs the statement that carries `riders` (none: just the statement), and ends them with it:
 * written when it committed them (`committed`, by default whenever it resolves), else sent alone.
 */
export async function carrying<T>(riders: Riders | undefined, statement: () => Promise<T>, committed: (result: T) => boolean = () => true): Promise<T> {
  let result: T;
  try {
    result = await statement();
  } catch (error) {
    riders?.notWritten();
    throw error;
  }
  if (committed(result)) riders?.written();
  else riders?.notWritten();
  return result;
}

/** Where delivery reports wait to be written. */
export interface DeliveryReports {
  /** Resolves once the delivery is recorded; rejects when it could not be. */
  report(id: string, at: Date): Promise<void>;
  /** The reports waiting for a write to ride in, taken out; undefined when there are none. */
  takeRiders(): Riders | undefined;
  /**
   * The writes are over: the waiting reports go alone, on the next turn of the event loop, so
   * that the reports of the callers whose writes just ended join them in one statement; unless
   * writes are on their way again by then, which they then wait for.
   */
  writesOver(): void;
}

/**
 * Delivery reports, written the cheapest way at hand. While new users' writes are on their way
 * (`carrierComing`), a report waits and rides in the next write statement: no statement, round
 * trip or commit of its own. That is the busy case, where reports would otherwise cost a statement
 * for every few users. Otherwise it goes alone at once, with the reports given meanwhile (`send`,
 * at most one on its way), and so do the waiting ones: with it, or once the writes are over
 * (`writesOver`). Whoever takes riders must end them with `written` or `notWritten`, so that no report is
 * left waiting.
 */
export function deliveryReports(send: (json: string) => Promise<void>, carrierComing: () => boolean): DeliveryReports {
  const alone = coalesced<Report>((reports) => send(JSON.stringify(reports)));
  let parked: { readonly report: Report; readonly resolve: () => void; readonly reject: (error: unknown) => void }[] = [];
  function sendWaiting(): void {
    const riders = parked;
    parked = [];
    for (const rider of riders) alone(rider.report).then(rider.resolve, rider.reject);
  }
  return {
    report(id, at) {
      const report = { id, at: at.toISOString() };
      if (carrierComing()) return new Promise((resolve, reject) => parked.push({ report, resolve, reject }));
      // Those waiting go in the same statement: the coalescing gathers everything given in one tick.
      const sent = alone(report);
      sendWaiting();
      return sent;
    },
    writesOver() {
      if (parked.length === 0) return;
      // Not unref'd: callers are waiting on these reports, so the process must live that one turn.
      nextTurn(() => {
        if (!carrierComing()) sendWaiting();
      });
    },
    takeRiders() {
      if (parked.length === 0) return undefined;
      const riders = parked;
      parked = [];
      return {
        json: JSON.stringify(riders.map((rider) => rider.report)),
        written() {
          for (const rider of riders) rider.resolve();
        },
        notWritten() {
          parked = [...riders, ...parked];
          sendWaiting();
        },
      };
    },
  };
}
