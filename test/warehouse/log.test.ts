// The build log: a progress bar on a terminal only, throttled and cleared by the next log line; JSON logs
// and pipes never get bar output. A fake TTY stream and a pinned clock make the output exact.
import { describe, expect, test } from 'vitest';
import { createLogger, PROGRESS_INTERVAL_MS } from '../../warehouse/log.ts';
import { PINNED_NOW } from '../helpers/clock.ts';

function stream(isTTY: boolean): NodeJS.WritableStream & { isTTY: boolean; text: () => string } {
  const chunks: string[] = [];
  return { isTTY, write: (c: string) => { chunks.push(c); return true; }, text: () => chunks.join('') } as unknown as NodeJS.WritableStream & { isTTY: boolean; text: () => string };
}

describe('build log progress', () => {
  test('on a terminal: a bar with counts and elapsed, throttled, cleared by the next line and at the end', () => {
    let t = 1_000_000;
    const out = stream(true);
    const log = createLogger('human', out, { now: () => t });
    t += 2500;
    log.progress('sources: nyc/sales', 0, 4, 'files');
    t += 10;
    log.progress('sources: nyc/sales', 1, 4, 'files'); // within the interval: not redrawn
    t += PROGRESS_INTERVAL_MS;
    log.progress('sources: nyc/sales', 2, 4, 'files');
    log.info('loaded nyc/sales', { rows: 12 });
    log.progress('shards: comps', 1234567, 0, 'shards'); // total unknown: a running count, no bar
    log.progress('shards', 4, 4, 'steps'); // done: cleared
    expect(out.text()).toBe(
      '\r\x1b[2K[  2.5s] sources: nyc/sales [..............................] 0/4 files'
      + '\r\x1b[2K[  2.6s] sources: nyc/sales [###############...............] 2/4 files'
      + '\r\x1b[2K[  2.6s] loaded nyc/sales rows=12\n'
      + '\r\x1b[2K[  2.6s] shards: comps 1,234,567 shards'
      + '\r\x1b[2K');
  });

  test('a new step draws at once, even inside the interval', () => {
    const t = 0;
    const out = stream(true);
    const log = createLogger('human', out, { now: () => t });
    log.progress('intermediate: a.sql', 0, 2, 'steps');
    log.progress('intermediate: b.sql', 1, 2, 'steps');
    expect(out.text().split('\r\x1b[2K').filter(Boolean)).toEqual([
      '[  0.0s] intermediate: a.sql [..............................] 0/2 steps',
      '[  0.0s] intermediate: b.sql [###############...............] 1/2 steps',
    ]);
  });

  test('no bar when not a terminal, nor in JSON mode (even on a terminal)', () => {
    const t = PINNED_NOW.getTime();
    for (const [format, tty] of [['human', false], ['json', true]] as const) {
      const out = stream(tty);
      const log = createLogger(format, out, { now: () => t });
      log.progress('sources: nyc/sales', 1, 4, 'files');
      log.progress('shards: comps', 10, 0, 'shards');
      log.info('stage shards');
      expect(out.text()).toBe(format === 'json'
        ? '{"time":"2026-11-21T06:00:00.000Z","level":"info","msg":"stage shards"}\n'
        : '[  0.0s] stage shards\n');
    }
  });
});
