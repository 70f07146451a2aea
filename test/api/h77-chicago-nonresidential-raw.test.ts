// GET /v1/market/rehab-score of the zips whose Chicago permits in a window are none of them residential rehab (h77
// audit, gap c), against a recount from the RAW Chicago permit file (test/helpers/oracle-raw-chicago-zip.ts: each
// permit at the nearest Chicago ZCTA's point, its kind and building use by market.md "Residential rehab"). Every zip and
// window 3-24 months with permits but no residential rehab permit is asked. With the real data these are three
// suburban zips only, Des Plaines' 60018 (3-8 months: 48-131 permits, 20-54 of a rehab kind, all non-residential, the
// O'Hare work), Franklin Park's 60131 and Schiller Park's 60176 (no rehab kind at all): no zip whose city is Chicago
// has a window of non-residential work alone. Each answers 404, its message counting the permits the raw file places
// there (whole file, window, rehab kind, residential) and saying the zip is another city's.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { chicagoZipPermits, type ChicagoZipCounts } from '../helpers/oracle-raw-chicago-zip.ts';

const api = serveSharedBuild('pro', 100_000);
let rows: ChicagoZipCounts[];

beforeAll(async () => {
  rows = (await chicagoZipPermits(Array.from({ length: 22 }, (_, i) => i + 3))).filter((r) => r.all > 0 && r.res === 0);
}, 180_000);

/** The window clause of the 404 as market.md's wording gives it for these counts. */
function windowClause(r: ChicagoZipCounts): string {
  const fall = r.all === r.n ? 'all of them fall' : r.all === 1 ? '1 of them falls' : `${r.all} of them fall`;
  const kind = r.types === 0 ? (r.all === 1 ? 'not a renovation, addition or repair permit' : 'none of them a renovation, addition or repair permit')
    : `${r.types === r.all ? 'all' : r.types} of them renovation, addition or repair permits, none of those on residential buildings`;
  return `${fall} in the ${r.months} months to ${r.last}, the window a score counts, ${kind}`;
}

describe('rehab score of zips whose Chicago permits in the window are non-residential only', () => {
  test('the raw file: three suburban zips, Des Plaines 60018 at 3-8 months with rehab-kind permits, 60131 and 60176 with none', () => {
    const zips = [...new Set(rows.map((r) => r.zip))].sort();
    expect(zips).toEqual(['60018', '60131', '60176']);
    expect(rows.filter((r) => r.zip === '60018').map((r) => r.months)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(rows.filter((r) => r.zip === '60018').every((r) => r.types > 0)).toBe(true);
    expect(rows.filter((r) => r.zip !== '60018').every((r) => r.types === 0)).toBe(true);
  });

  test('every such zip and window: 404, the message\'s counts equal the raw recount, and the zip\'s city is not Chicago', async () => {
    const bad: string[] = [];
    for (const r of rows) {
      const res = await api.get(`/v1/market/rehab-score?zip=${r.zip}&months=${r.months}`);
      const msg = ((await res.json()) as { message?: string }).message ?? '';
      const want = `No renovation data for zip ${r.zip}: the Chicago building permits source (chicago) places ${r.n.toLocaleString('en-US')} building permits of Chicago `
        + `in the zip by their points (no zip recorded: the nearest Census ZCTA of the permit's city) in its whole file, ${r.first} to ${r.last}; ${windowClause(r)}; but the zip's city is `;
      const city = /but the zip's city is ([^,]+), IL, and a permit whose zip is guessed counts only in a zip of its own city/.exec(msg)?.[1];
      if (res.status !== 404 || !msg.startsWith(want) || !city || city === 'Chicago') bad.push(`${r.zip} ${r.months}: ${res.status} ${msg}\n  raw: ${want}`);
    }
    expect(bad).toEqual([]);
    expect(rows.length).toBeGreaterThan(30);
  }, 120_000);
});
