// The access log's text (api/access-log.ts): an answer's line is concatenated field by field instead of
// JSON.stringify of an object per request, so it must read back as exactly the line it was made from, fields
// in the documented order. Oracle: JSON.parse of the text and JSON.stringify of the same object.
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { accessLogText, bufferedLines, type AccessLine, type ErrorLine } from '../../api/access-log.ts';

const answered: AccessLine = { time: '2026-11-28T00:24:00.123Z', request_id: 'req_AbC-_x1z', method: 'GET', route: 'GET /v1/webhooks/{id}', status: 200, ms: 0.37, key_id: 'Ab12Cd34' };

describe('access-log lines', () => {
  test('an answer: the same JSON as the object, fields in order (null key, null method, whole ms)', () => {
    for (const line of [answered, { ...answered, key_id: null }, { ...answered, method: null, ms: 12 }]) {
      expect(accessLogText(line)).toBe(JSON.stringify(line));
      expect(JSON.parse(accessLogText(line))).toEqual(line);
    }
  });

  test('an answer node:http refused: ms null and its error code (or null) last', () => {
    const refused: AccessLine = { ...answered, route: 'unmatched', status: 431, ms: null, key_id: null, error: 'HPE_HEADER_OVERFLOW' };
    expect(accessLogText(refused)).toBe(JSON.stringify(refused));
    expect(accessLogText({ ...refused, error: null })).toBe(JSON.stringify({ ...refused, error: null }));
  });

  test('a failure inside the server: its message is escaped (quotes, newlines)', () => {
    const failed: ErrorLine = { level: 'error', request_id: 'req_x', error: 'bad "thing"\nsecond line' };
    expect(JSON.parse(accessLogText(failed))).toEqual(failed);
  });
});

// The server's writer (api/server.ts over stdout): lines are copied into 64 KiB batches as they come. Oracle: the
// lines joined by hand, byte for byte, in order; the chunks are kept as the stream got them (not copied), so a batch
// buffer reused after its write would show as changed text.
describe('access-log batches', () => {
  const sink = (): { out: NodeJS.WritableStream; chunks: (Buffer | string)[]; text(): string } => {
    const chunks: (Buffer | string)[] = [];
    const out = new Writable({ write(chunk, _enc, done) { chunks.push(chunk as Buffer); done(); }, decodeStrings: false });
    return { out, chunks, text: () => chunks.map((c) => (typeof c === 'string' ? c : c.toString('utf8'))).join('') };
  };

  test('every line once, in order, newline-ended; one write per 64 KiB batch, the rest on close', () => {
    const { out, chunks, text } = sink();
    const log = bufferedLines(out, 60_000);
    const lines = Array.from({ length: 1000 }, (_, i) => accessLogText({ ...answered, request_id: `req_${i}`, status: i % 2 ? 200 : 404 }));
    for (const l of lines) log.write(l);
    const written = chunks.length;
    expect(written).toBeGreaterThan(0); // ~150 KB of lines: full batches went out before close
    for (const c of chunks) expect(Buffer.byteLength(c)).toBeLessThanOrEqual(64 * 1024);
    log.close();
    expect(chunks.length).toBe(written + 1);
    expect(text()).toBe(lines.map((l) => `${l}\n`).join(''));
  });

  test('non-ASCII text is UTF-8; a line longer than a batch goes out whole, after the lines before it', () => {
    const { out, text } = sink();
    const log = bufferedLines(out, 60_000);
    const accented = accessLogText({ level: 'error', request_id: 'req_1', error: 'no such city: Café – 東京' });
    const long = accessLogText({ level: 'error', request_id: 'req_2', error: 'x'.repeat(70_000) });
    log.write(accented);
    log.write(long);
    log.write(accented);
    log.close();
    expect(text()).toBe(`${accented}\n${long}\n${accented}\n`);
    expect(JSON.parse(text().split('\n')[0]!)).toEqual({ level: 'error', request_id: 'req_1', error: 'no such city: Café – 東京' });
  });

  test('the line of each millisecond and route is its own (preformatted parts are not carried over)', () => {
    const a = accessLogText(answered);
    const b = accessLogText({ ...answered, time: '2026-11-28T00:24:00.124Z', method: 'HEAD', route: 'GET /v1/geo/lookup' });
    const c = accessLogText({ ...answered, method: null });
    expect(JSON.parse(a)).toEqual(answered);
    expect(JSON.parse(b)).toEqual({ ...answered, time: '2026-11-28T00:24:00.124Z', method: 'HEAD', route: 'GET /v1/geo/lookup' });
    expect(JSON.parse(c)).toEqual({ ...answered, method: null });
  });
});
