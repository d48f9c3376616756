// CPU time of the PostgreSQL server's processes on this machine (every process named `postgres`:
// the backends, the WAL writer, the checkpointer), read from /proc, so that a bench can say what the
// database spent beside what Node spent. Zero where there is no /proc or the server runs elsewhere.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = Number(process.env["CLK_TCK"] ?? 100);

/** Each server process seen so far, with the ticks it had when last read. */
const seen = new Map<string, number>();

/**
 * Microseconds of CPU (user + system) the server's processes have used so far. A process that has
 * ended (a connection closed) counts with its last reading, so that a window never loses the past
 * of a process that ended inside it.
 */
export function postgresCpuMicros(): number {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const open = stat.indexOf("(");
      const close = stat.lastIndexOf(")");
      if (stat.slice(open + 1, close) !== "postgres") continue;
      const fields = stat.slice(close + 2).split(" ");
      seen.set(entry, Number(fields[11]) + Number(fields[12]));
    } catch {
      // Ended meanwhile: its last reading stands.
    }
  }
  let ticks = 0;
  for (const value of seen.values()) ticks += value;
  return (ticks * 1e6) / TICKS_PER_SECOND;
}
