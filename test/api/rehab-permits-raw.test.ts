// GET /v1/market/rehab-score's permit counts (`counts.rehab_permits`, `trend_last_30d`, `trend_prior_30d`) and its
// permit window against a recount from the RAW permit files (h67 audit): the residential rehab rule and, for Chicago,
// whose file has no zip, the zip of each permit's point are the test's own (test/helpers/oracle-rehab-use.ts), never the
// build's permits, zips or marts. Before this file the counts were checked against the build's own zip placement and
// windows only (test/pipelines/market-rehab-use-build.test.ts), so a wrong zip or window end could not show.
// The score too: these zips have no sales source, so it is the two permit components of market.md mart_rehab
// "Components" and "Score" written out here, over the zip's ACS 2023 housing units (B25001) times the share of it the
// permit source covers (test/helpers/oracle-permit-area.ts), rounded to 1 decimal by the shard (within 0.05).
import { describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { permitAreaOracle } from '../helpers/oracle-permit-area.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { rawRehabCounts, type RawRehabCount } from '../helpers/oracle-rehab-use.ts';

const api = serveSharedBuild('pro');
const MONTHS = [6, 12];

interface RehabAnswer { zip_code: string; rehab_momentum_score: number | null; counts: { rehab_permits: number | null; trend_last_30d: number | null; trend_prior_30d: number | null };
  permits_window: { window_end: string } | null; source: { id: string } }

/** The score of permit components only: intensity 100 min(1, ln(1 + permits a year per 1,000 homes) / ln 51) at weight
 *  0.45, value 100 min(1, ln(1 + declared dollars a year per home) / ln 2001) at 0.35 x the declared share (left out
 *  with permits but no declared cost), renormalised. */
function score(w: RawRehabCount, homes: number): number {
  const perYear = 12 / w.months;
  const intensity = 100 * Math.min(1, Math.log(1 + (1000 * w.rehab * perYear) / homes) / Math.log(51));
  const value = 100 * Math.min(1, Math.log(1 + (w.value * perYear) / homes) / Math.log(2001));
  const vw = w.rehab === 0 ? 0.35 : 0.35 * (w.valued / w.rehab);
  return w.rehab > 0 && w.valued === 0 ? intensity : (0.45 * intensity + vw * value) / (0.45 + vw);
}

/** Each zip's homes in the source's area: ACS housing units x the covered share (market.md "Permit source area"). */
async function homesIn(source: 'nashville' | 'chicago', zips: string[]): Promise<Map<string, number>> {
  const area = permitAreaOracle(source, zips, dataFile)!;
  const rows = await rawQuery<{ zip: string; homes: number }>(`
    with share as (${area.sql}),
    hu as (select "zip code tabulation area" as zip, try_cast("B25001_001E" as double) as hu
      from read_csv('${dataFile('census-acs2023-population/acs5_2023_zcta_population.csv.gz')}', all_varchar = true))
    select zip, hu.hu * share.share as homes from share join hu using (zip) where share.share >= 0.5`);
  return new Map(rows.map((r) => [r.zip, r.homes]));
}

async function answers(want: RawRehabCount[], homes: Map<string, number>): Promise<string[]> {
  const bad: string[] = [];
  for (const w of want) {
    const res = await api.get(`/v1/market/rehab-score?zip=${w.zip}&months=${w.months}`);
    expect(res.status, `${w.zip} ${w.months}`).toBe(200);
    const body = (await res.json()) as RehabAnswer;
    const got = [body.permits_window?.window_end, body.counts.rehab_permits, body.counts.trend_last_30d, body.counts.trend_prior_30d];
    const exp = [w.end, w.rehab, w.last30, w.prior30];
    if (JSON.stringify(got) !== JSON.stringify(exp)) bad.push(`${w.zip} ${w.months} months: api ${JSON.stringify(got)}, raw ${JSON.stringify(exp)}`);
    const s = score(w, homes.get(w.zip)!);
    if (body.rehab_momentum_score === null || Math.abs(body.rehab_momentum_score - s) > 0.05 + 1e-9) bad.push(`${w.zip} ${w.months} months: api score ${body.rehab_momentum_score}, raw ${s}`);
  }
  return bad;
}

describe('rehab permit counts and scores equal a recount from the raw permit files', () => {
  test('Nashville 37206, 37207, 37209 (the file\'s own ZIP column), 6 and 12 months to its last application', async () => {
    const zips = ['37206', '37207', '37209'];
    const want = await rawRehabCounts('nashville', zips, MONTHS);
    expect(want).toHaveLength(6);
    expect(want.every((w) => w.end === '2024-09-19' && w.rehab > 0)).toBe(true); // SOURCE.md: entered 2021-09-16 … 2024-09-19
    const homes = await homesIn('nashville', zips);
    expect([...homes.keys()].sort()).toEqual(zips);
    expect(await answers(want, homes)).toEqual([]);
  }, 120_000);

  test('Chicago 60614, 60647, 60618 (each permit placed by its point in a Chicago ZCTA), 6 and 12 months to its last permit', async () => {
    const zips = ['60614', '60647', '60618'];
    const want = await rawRehabCounts('chicago', zips, MONTHS);
    expect(want).toHaveLength(6);
    expect(want.every((w) => w.end === '2026-07-15' && w.rehab >= 50)).toBe(true); // SOURCE.md: issued 2023-01-01 … 2026-07-15
    const homes = await homesIn('chicago', zips);
    expect([...homes.keys()].sort()).toEqual([...zips].sort());
    expect(await answers(want, homes)).toEqual([]);
  }, 180_000);
});
