// Build progress for people (stage, rows, elapsed; a bar on long steps on a terminal) or JSON lines for cron.
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /**
   * Progress of a long step: `done` of `total` (`unit`: rows, files, steps...). A bar when total > 0, a
   * running count when the total is not known (total 0). Drawn only on a TTY in human mode, at most every
   * 100 ms per step; the bar is cleared when done reaches total or when a log line is written.
   */
  progress(step: string, done: number, total: number, unit?: string): void;
}

export interface LoggerOptions {
  /** Milliseconds clock (tests pin it). */
  now?: () => number;
}

/** Minimum milliseconds between two redraws of the same step's bar. */
export const PROGRESS_INTERVAL_MS = 100;

const count = (n: number): string => Math.round(n).toLocaleString('en-US');

export function createLogger(format: 'human' | 'json', stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr, opts: LoggerOptions = {}): Logger {
  const now = opts.now ?? Date.now;
  const start = now();
  const elapsed = (): string => `${((now() - start) / 1000).toFixed(1)}s`;
  const tty = format === 'human' && stream.isTTY === true;
  let barShown = false;
  let lastStep = '';
  let lastDraw = -Infinity;
  const clearBar = (): void => {
    if (barShown) { stream.write('\r\x1b[2K'); barShown = false; }
  };
  const line = (level: string, msg: string, fields?: Record<string, unknown>): void => {
    if (format === 'json') {
      stream.write(JSON.stringify({ time: new Date(now()).toISOString(), level, msg, ...fields }) + '\n');
      return;
    }
    clearBar();
    const extra = fields && Object.keys(fields).length
      ? ' ' + Object.entries(fields).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ')
      : '';
    const tag = level === 'info' ? '' : `${level.toUpperCase()} `;
    stream.write(`[${elapsed().padStart(6)}] ${tag}${msg}${extra}\n`);
  };
  return {
    info: (m, f) => line('info', m, f),
    warn: (m, f) => line('warn', m, f),
    error: (m, f) => line('error', m, f),
    progress(step, done, total, unit = '') {
      if (!tty) return;
      if (total > 0 && done >= total) { // finished: the step's own log line says what it did
        clearBar();
        lastStep = '';
        return;
      }
      const t = now();
      if (step === lastStep && barShown && t - lastDraw < PROGRESS_INTERVAL_MS) return;
      lastStep = step;
      lastDraw = t;
      const width = 30;
      const bar = total > 0 ? ` [${'#'.repeat(Math.round((done / total) * width)).padEnd(width, '.')}]` : '';
      const of = total > 0 ? `/${count(total)}` : '';
      stream.write(`\r\x1b[2K[${elapsed().padStart(6)}] ${step}${bar} ${count(done)}${of}${unit ? ` ${unit}` : ''}`);
      barShown = true;
    },
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {}, progress() {} };
