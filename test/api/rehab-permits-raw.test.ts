// GET /v1/market/rehab-score's permit counts (`counts.rehab_permits`, `trend_last_30d`, `trend_prior_30d`) and its
// permit window against a recount from the RAW permit files (h67 audit): the residential rehab rule and, for Chicago,
// whose file has no zip, the zip of each permit's point are the test's own (test/helpers/oracle-rehab-use.ts), never the
// build's permits, zips or marts. Before this file the counts were checked against the build's own zip placement and
// windows only (test/pipelines/market-rehab-use-build.test.ts), so a wrong zip or window end could not show.
import { describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { rawRehabCounts, type RawRehabCount } from '../helpers/oracle-rehab-use.ts';

const api = serveSharedBuild('pro');
const MONTHS = [6, 12];

interface RehabAnswer { zip_code: string; counts: { rehab_permits: number | null; trend_last_30d: number | null; trend_prior_30d: number | null };
  permits_window: { window_end: string } | null; source: { id: string } }

async function answers(want: RawRehabCount[]): Promise<string[]> {
  const bad: string[] = [];
  for (const w of want) {
    const res = await api.get(`/v1/market/rehab-score?zip=${w.zip}&months=${w.months}`);
    expect(res.status, `${w.zip} ${w.months}`).toBe(200);
    const body = (await res.json()) as RehabAnswer;
    const got = [body.permits_window?.window_end, body.counts.rehab_permits, body.counts.trend_last_30d, body.counts.trend_prior_30d];
    const exp = [w.end, w.rehab, w.last30, w.prior30];
    if (JSON.stringify(got) !== JSON.stringify(exp)) bad.push(`${w.zip} ${w.months} months: api ${JSON.stringify(got)}, raw ${JSON.stringify(exp)}`);
  }
  return bad;
}

describe('rehab permit counts equal a recount from the raw permit files', () => {
  test('Nashville 37206, 37207, 37209 (the file\'s own ZIP column), 6 and 12 months to its last application', async () => {
    const want = await rawRehabCounts('nashville', ['37206', '37207', '37209'], MONTHS);
    expect(want).toHaveLength(6);
    expect(want.every((w) => w.end === '2024-09-19' && w.rehab > 0)).toBe(true); // SOURCE.md: entered 2021-09-16 … 2024-09-19
    expect(await answers(want)).toEqual([]);
  }, 120_000);

  test('Chicago 60614, 60647, 60618 (each permit placed by its point in a Chicago ZCTA), 6 and 12 months to its last permit', async () => {
    const want = await rawRehabCounts('chicago', ['60614', '60647', '60618'], MONTHS);
    expect(want).toHaveLength(6);
    expect(want.every((w) => w.end === '2026-07-15' && w.rehab >= 50)).toBe(true); // SOURCE.md: issued 2023-01-01 … 2026-07-15
    expect(await answers(want)).toEqual([]);
  }, 180_000);
});
