// The 30-day direction of New York City's and Connecticut's markets against the RAW files (audit h75): the trends'
// `summary.direction_30d`, `direction_30d_pct`, `direction_30d_end` (zips and cities) and the rehab score's `trend`,
// `trend_pct`, `trend_end`, `counts.trend_last_30d` / `trend_prior_30d` (zips). Before, only King County's direction
// (h74-market-sample.test.ts) and Denver's (market-direction-build.test.ts) were recomputed from raw files. A seeded
// sample of 12 NYC zips, 12 Connecticut zips, 12 Connecticut towns and the five boroughs and New York, asked of a real
// server over the shared build; the oracle (oracle-raw-direction.ts) recounts the residential quick resales at a gain
// in the 30 days to the window end and the 30 before from the raw files by market.md "mart_market_direction", and a
// market whose sales show no resale at all has no direction (null, with `direction_30d_note`).
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { schemaErrors } from '../helpers/server.ts';
import { directionPct, directionWord, rawCtDirections, rawNycDirections, type RawDirection } from '../helpers/oracle-raw-direction.ts';
import { roundTo } from '../helpers/oracle-raw-changes.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 75_004;
const PER_GROUP = 12;

interface Summary { direction_30d: string | null; direction_30d_pct: number | null; direction_30d_end: string | null; direction_30d_note?: string | null }
interface Rehab { trend: string; trend_pct: number; trend_end: string; counts: { trend_last_30d: number | null; trend_prior_30d: number | null } }

const api = serveSharedBuild('builder', 100_000);
const sample: RawDirection[] = [];

beforeAll(async () => {
  const [nyc, ct] = await Promise.all([rawNycDirections(), rawCtDirections()]);
  const draw = rng(SEED);
  const pick = (pool: RawDirection[]): RawDirection[] => {
    const p = [...pool].sort((a, b) => (a.market < b.market ? -1 : 1)), out: RawDirection[] = [];
    while (out.length < PER_GROUP && p.length) out.push(p.splice(Math.floor(draw() * p.length), 1)[0]!);
    return out;
  };
  sample.push(...nyc.filter((d) => d.market.startsWith('city/')));
  sample.push(...pick(nyc.filter((d) => d.market.startsWith('zip/'))));
  sample.push(...pick(ct.filter((d) => d.market.startsWith('zip/'))));
  sample.push(...pick(ct.filter((d) => d.market.startsWith('city/'))));
}, 600_000);

/** The query of a market: a zip, or a city by name (a town's slug read back to words; the boroughs by name). */
function query(market: string): string {
  const [kind, a, b] = market.split('/') as [string, string, string?];
  if (kind === 'zip') return `zip=${a}`;
  return `city=${encodeURIComponent(b!.replaceAll('-', ' '))}&state=${a}`;
}

describe(`seeded sample ${SEED}: the 30-day direction of NYC and Connecticut markets against the raw files`, () => {
  test('the sample: New York and its five boroughs, 12 NYC zips, 12 Connecticut zips, 12 towns', () => {
    expect(sample).toHaveLength(6 + 3 * PER_GROUP);
    console.info(`sample ${SEED}: ${sample.map((d) => d.market).join(' ')}`);
  });

  test('trends summary and rehab trend: direction, percent, end and the two counts', async () => {
    const bad: string[] = [];
    let given = 0, none = 0;
    for (const d of sample) {
      const pct = directionPct(d);
      const res = await api.get(`/v1/market/trends?${query(d.market)}&property_type=sfr`);
      if (res.status !== 200) { bad.push(`${d.market}: trends ${res.status}`); continue; }
      const body = (await res.json()) as { summary: Summary };
      expect(schemaErrors('MarketTrends', body)).toEqual([]);
      const s = body.summary;
      const want = d.observes ? [directionWord(pct), roundTo(pct, 1), d.end] : [null, null, d.end];
      if (JSON.stringify([s.direction_30d, s.direction_30d_pct, s.direction_30d_end]) !== JSON.stringify(want)) {
        bad.push(`${d.market}: trends ${s.direction_30d} ${s.direction_30d_pct} to ${s.direction_30d_end}; raw ${JSON.stringify(want)} (${d.last}/${d.prior})`);
      }
      if (!d.observes && !/no rehab event source/.test(s.direction_30d_note ?? '')) bad.push(`${d.market}: no direction_30d_note saying why: ${s.direction_30d_note}`);
      if (d.observes) given++; else none++;
      if (!d.market.startsWith('zip/')) continue;
      // the rehab score of a zip: 404 where it has no source of rehab events (no resale, no permit), else the same trend
      const r = await api.get(`/v1/market/rehab-score?${query(d.market)}&months=12`);
      if (!d.observes) { if (r.status !== 404) bad.push(`${d.market}: rehab-score ${r.status}, raw: no rehab event source`); continue; }
      if (r.status !== 200) { bad.push(`${d.market}: rehab-score ${r.status}`); continue; }
      const b = (await r.json()) as Rehab;
      const got = [b.trend, b.trend_pct, b.trend_end, b.counts.trend_last_30d, b.counts.trend_prior_30d];
      const exp = [directionWord(pct), roundTo(pct, 1), d.end, d.last, d.prior];
      if (JSON.stringify(got) !== JSON.stringify(exp)) bad.push(`${d.market}: rehab trend ${JSON.stringify(got)}, raw ${JSON.stringify(exp)}`);
    }
    expect(bad).toEqual([]);
    expect(given).toBeGreaterThan(10);
    expect(none).toBeGreaterThan(3);
    expect(sample.filter((d) => d.observes && d.last + d.prior > 0).length).toBeGreaterThan(5); // events, not only 0 against 0
    console.info(`${given} directions equal, ${none} markets without a rehab event source`);
  }, 600_000);
});
