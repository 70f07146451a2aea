// The access log's text (api/access-log.ts): an answer's line is concatenated field by field instead of
// JSON.stringify of an object per request, so it must read back as exactly the line it was made from, fields
// in the documented order. Oracle: JSON.parse of the text and JSON.stringify of the same object.
import { describe, expect, test } from 'vitest';
import { accessLogText, type AccessLine, type ErrorLine } from '../../api/access-log.ts';

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
