// Build progress for people (stage, rows, elapsed; a bar on long steps on a terminal) or JSON lines for cron.
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** Progress of a long step: done of total. Drawn as a bar only on a TTY in human mode. */
  progress(step: string, done: number, total: number): void;
}

export function createLogger(format: 'human' | 'json', stream: NodeJS.WriteStream = process.stderr): Logger {
  const start = Date.now();
  const elapsed = (): string => `${((Date.now() - start) / 1000).toFixed(1)}s`;
  const tty = format === 'human' && stream.isTTY === true;
  let barShown = false;
  const clearBar = (): void => {
    if (barShown) { stream.write('\r\x1b[2K'); barShown = false; }
  };
  const line = (level: string, msg: string, fields?: Record<string, unknown>): void => {
    if (format === 'json') {
      stream.write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + '\n');
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
    progress(step, done, total) {
      if (!tty || total <= 0) return;
      const width = 30;
      const filled = Math.round((done / total) * width);
      stream.write(`\r\x1b[2K[${elapsed().padStart(6)}] ${step} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
      barShown = done < total;
      if (!barShown) stream.write('\n');
    },
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {}, progress() {} };
