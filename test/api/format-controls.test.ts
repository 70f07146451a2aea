// Invisible format and bidi controls in text parameters (review 23): `GET /v1/address/autocomplete?q=%E2%80%AE123`
// (U+202E, RIGHT-TO-LEFT OVERRIDE) answered 200 and echoed the override in `query`, where a NUL or an ESC is a 400.
// Unicode's format characters (category Cf) are refused by the one string check of every parameter (api/params.ts
// checkValue) with the same 400 as a C0 control, on every endpoint's text: query strings and JSON bodies alike.
// The characters are those the Unicode Standard lists as bidi formatting characters (UAX #9 section 2: LRM, RLM,
// LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI) and other Cf characters (ZWSP, ZWNJ, ZWJ, WORD JOINER, BOM, SOFT
// HYPHEN, LANGUAGE TAG), and one C1 control (NEL), written here by code point, not derived from the code's pattern.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('pro'); });
afterAll(async () => { await srv?.close(); });

const FORMAT_CONTROLS: [number, string][] = [
  [0x200e, 'LEFT-TO-RIGHT MARK'], [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x202a, 'LEFT-TO-RIGHT EMBEDDING'], [0x202b, 'RIGHT-TO-LEFT EMBEDDING'], [0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'], [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'], [0x2067, 'RIGHT-TO-LEFT ISOLATE'], [0x2068, 'FIRST STRONG ISOLATE'], [0x2069, 'POP DIRECTIONAL ISOLATE'],
  [0x200b, 'ZERO WIDTH SPACE'], [0x200c, 'ZERO WIDTH NON-JOINER'], [0x200d, 'ZERO WIDTH JOINER'], [0x2060, 'WORD JOINER'],
  [0xfeff, 'ZERO WIDTH NO-BREAK SPACE (BOM)'], [0x00ad, 'SOFT HYPHEN'], [0xe0001, 'LANGUAGE TAG'], [0x0085, 'NEXT LINE (C1)'],
];

const refusal = (field: string): unknown => ({
  message: `Bad request: ${field} must not contain control characters`,
  errors: [{ field, code: 'format', message: `${field} must not contain control characters` }],
});

describe('format and bidi controls are refused like other control characters', () => {
  it('a C0 control is the 400 these are measured against', async () => {
    const r = await srv.get(`/v1/address/autocomplete?q=${encodeURIComponent('\u0001123')}`, key);
    expect([r.status, await r.json()]).toEqual([400, refusal('q')]);
  });

  it.each(FORMAT_CONTROLS.map(([cp, name]) => [cp.toString(16).toUpperCase().padStart(4, '0'), name, cp] as const))('autocomplete q with U+%s (%s) is that 400, never echoed', async (_hex, _name, cp) => {
    const r = await srv.get(`/v1/address/autocomplete?q=${encodeURIComponent(`${String.fromCodePoint(cp)}123`)}`, key);
    expect([r.status, await r.json()]).toEqual([400, refusal('q')]);
  });

  it('the same check on the other endpoints\' text: geo lookup city, valuation address, research query', async () => {
    const rlo = '\u202e';
    const geo = await srv.get(`/v1/geo/lookup?city=${encodeURIComponent(`${rlo}Seattle`)}&state=WA`, key);
    expect([geo.status, await geo.json()]).toEqual([400, refusal('city')]);
    const trends = await srv.get(`/v1/market/trends?city=${encodeURIComponent(`Seattle\u200b`)}&state=WA`, key);
    expect([trends.status, await trends.json()]).toEqual([400, refusal('city')]);
    const val = await srv.post('/v1/valuation/estimate', { zip: '98103', address: `123 Main St${rlo}` }, key);
    expect([val.status, await val.json()]).toEqual([400, refusal('address')]);
    const research = await srv.post('/v1/research/query', { query: `median price in 98103${'\u2066'}` }, key);
    expect([research.status, await research.json()]).toEqual([400, refusal('query')]);
  });

  it('text around them is still read: accents, CJK, emoji without a joiner, tab and line breaks', async () => {
    for (const q of ['123 José St', '123 北京 St', '123 main st 🏠']) {
      expect((await srv.get(`/v1/address/autocomplete?q=${encodeURIComponent(q)}`, key)).status, q).toBe(200);
    }
    const research = await srv.post('/v1/research/query', { query: 'median price\r\nin 98103' }, key);
    expect(research.status).toBe(200);
  });
});
