/** How far an import has come. Progress is measured in bytes of the file, rates in rows. */
export interface Progress {
  readonly rows: number;
  readonly imported: number;
  readonly existing: number;
  readonly failed: number;
  /** Bytes of the file up to the last answered row. */
  readonly bytes: number;
  readonly totalBytes: number;
  readonly elapsedMs: number;
}

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface ProgressView {
  update(progress: Progress): void;
  /** Clears the bar (a terminal) before the summary is written. */
  finish(): void;
}

const numberFormat = new Intl.NumberFormat("en-US");

export function formatCount(value: number): string {
  return numberFormat.format(Math.round(value));
}

/** `1:02:03`, `2:03`, `0:07`. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const [hours, minutes, secs] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (value: number) => String(value).padStart(2, "0");
  return hours > 0 ? `${hours}:${two(minutes)}:${two(secs)}` : `${minutes}:${two(secs)}`;
}

function fraction(progress: Progress): number {
  return progress.totalBytes > 0 ? Math.min(1, progress.bytes / progress.totalBytes) : 0;
}

function rowsPerSecond(progress: Progress): number {
  return progress.elapsedMs > 0 ? (progress.rows * 1000) / progress.elapsedMs : 0;
}

/** Time left, from the share of the file read so far; undefined before there is anything to go by. */
function secondsLeft(progress: Progress): number | undefined {
  const done = fraction(progress);
  if (done <= 0 || progress.elapsedMs < 500) return undefined;
  return ((progress.elapsedMs / 1000) * (1 - done)) / done;
}

function tail(progress: Progress): string {
  const left = secondsLeft(progress);
  const counts = `${formatCount(progress.imported)} new, ${formatCount(progress.existing)} existing, ${formatCount(progress.failed)} failed`;
  return `${formatCount(progress.rows)} rows  ${formatCount(rowsPerSecond(progress))}/s  ${left === undefined ? "--:--" : formatDuration(left)} left  (${counts})`;
}

/** One terminal line: `[#####.....]  52%  52,000 rows  12,345/s  0:04 left  (...)`, cut to `width`. */
export function formatBar(progress: Progress, width: number): string {
  const done = fraction(progress);
  const cells = 24;
  const filled = Math.round(done * cells);
  const bar = `[${"#".repeat(filled)}${".".repeat(cells - filled)}] ${String(Math.floor(done * 100)).padStart(3)}%  ${tail(progress)}`;
  return bar.length > width ? bar.slice(0, Math.max(0, width - 1)) : bar;
}

/** One log line for pipes and files. */
export function formatProgressLine(progress: Progress): string {
  return `progress: ${Math.floor(fraction(progress) * 100)}% of the file, ${tail(progress)}`;
}

/**
 * Draws the latest progress every `periodMs`, on a timer rather than on each answered row: a
 * batch's rows are answered together at its end, so a view drawn on answers stayed silent for a
 * whole batch (minutes with plain passwords), then showed its first row as the batch's news. Time
 * goes on between answers: the elapsed time (and so the rate and the time left) is taken when drawn.
 */
function timedView(periodMs: number, draw: (progress: Progress) => void, clear: () => void): ProgressView {
  let latest: Progress | undefined;
  let latestAt = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    update(progress) {
      latest = progress;
      latestAt = performance.now();
      if (timer !== undefined) return;
      timer = setInterval(() => {
        if (latest !== undefined) draw({ ...latest, elapsedMs: latest.elapsedMs + (performance.now() - latestAt) });
      }, periodMs);
      // Progress never keeps the process alive.
      timer.unref?.();
    },
    finish() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      clear();
    },
  };
}

/** A bar redrawn in place on a terminal every `redrawMs`. */
function terminalView(stream: ProgressStream, redrawMs: number): ProgressView {
  let drawn = false;
  return timedView(
    redrawMs,
    (progress) => {
      drawn = true;
      stream.write(`\r\x1b[2K${formatBar(progress, stream.columns ?? 0)}`);
    },
    () => {
      if (drawn) stream.write("\r\x1b[2K");
    },
  );
}

/** A plain line every `intervalMs`. */
function lineView(stream: ProgressStream, intervalMs: number): ProgressView {
  return timedView(intervalMs, (progress) => stream.write(`${formatProgressLine(progress)}\n`), () => undefined);
}

export function progressView(stream: ProgressStream, options: { readonly intervalMs: number; readonly quiet: boolean }): ProgressView {
  if (options.quiet) return { update() {}, finish() {} };
  // A terminal that does not say how wide it is (or says 0) gets plain lines: a bar cut to no width draws blank lines.
  const width = stream.columns ?? 0;
  return stream.isTTY === true && width > 0 ? terminalView(stream, 100) : lineView(stream, options.intervalMs);
}
