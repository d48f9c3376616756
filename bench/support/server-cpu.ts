// CPU time of the PostgreSQL server's processes on this machine (every process named `postgres`:
// the backends, the WAL writer, the checkpointer), read from /proc, so that a bench can say what the
// database spent beside what Node spent. Zero where there is no /proc or the server runs elsewhere.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = Number(process.env["CLK_TCK"] ?? 100);

/** A process's name and the CPU it has used so far, in clock ticks (`/proc/<pid>/stat` utime + stime); undefined once it has ended. */
export function processTicks(pid: number | string): { readonly name: string; readonly ticks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const open = stat.indexOf("(");
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    return { name: stat.slice(open + 1, close), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

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
    const found = processTicks(entry);
    // Ended meanwhile: its last reading stands.
    if (found?.name === "postgres") seen.set(entry, found.ticks);
  }
  let ticks = 0;
  for (const value of seen.values()) ticks += value;
  return (ticks * 1e6) / TICKS_PER_SECOND;
}
