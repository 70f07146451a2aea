// GET /v1/market/rehab-score of Nashville's and Chicago's zips against the RAW permit files, a seeded sample (audit
// h75). rehab-permits-raw.test.ts checks three fixed zips of each at 6 and 12 months (counts and score); left out
// were the other zips and windows, the zips the permit source covers under half of (no permit component: a 404, as
// these zips have no sales source), the label, the trend's direction, percent and end, the confidence and the
// permit window. Here 10 zips of each source's raw rehab permits (Nashville's own ZIP column; Chicago's permit points
// placed in the nearest Chicago ZCTA) drawn with a fixed seed and 3 more each the source covers under half of, every window 3..24 months, recomputed by
// oracle-raw-rehab-permits.ts (market.md "mart_rehab"): the score to 1 decimal, the rest exactly.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { schemaErrors } from '../helpers/server.ts';
import { countConfidence, label, permitScore, rawPermitHomes, rawPermitWindows, round1, type PermitSource, type RawPermitWindow } from '../helpers/oracle-raw-rehab-permits.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 75_005;
const PER_SOURCE = 10;
const UNDER = 3;
const SOURCES: PermitSource[] = ['nashville', 'chicago'];

interface Rehab {
  rehab_momentum_score: number | null; label: string; trend: string; trend_pct: number; trend_end: string; confidence: string; as_of: string;
  permits_window: { window_start: string; window_end: string; window_days: number; records_days: number } | null;
  counts: { rehab_permits: number | null; trend_last_30d: number | null; trend_prior_30d: number | null };
}

const api = serveSharedBuild('builder', 100_000);
const windows = new Map<PermitSource, RawPermitWindow[]>();
const homes = new Map<PermitSource, Map<string, { homes: number; share: number }>>();
const sample = new Map<PermitSource, string[]>();

beforeAll(async () => {
  const draw = rng(SEED);
  for (const src of SOURCES) {
    const ws = (await rawPermitWindows(src)).filter((w) => /^\d{5}$/.test(w.zip));
    windows.set(src, ws);
    const pool = [...new Set(ws.map((w) => w.zip))].sort();
    homes.set(src, await rawPermitHomes(src, pool));
    const pick = (from: string[], n: number): string[] => {
      const out: string[] = [];
      while (out.length < n && from.length) out.push(from.splice(Math.floor(draw() * from.length), 1)[0]!);
      return out;
    };
    const random = pick(pool, PER_SOURCE);
    // and 3 of the zips the source covers under half of (few: the edges of Davidson County and of the city)
    const under = pool.filter((z) => (homes.get(src)!.get(z)?.share ?? 0) < 0.5);
    sample.set(src, [...random, ...pick(under, UNDER)].sort());
  }
}, 600_000);

describe(`seeded sample ${SEED}: rehab scores of Nashville and Chicago zips against the raw permit files`, () => {
  test('the sample: 10 zips with residential rehab permits of each source and 3 under half covered', () => {
    for (const src of SOURCES) expect(sample.get(src), src).toHaveLength(PER_SOURCE + UNDER);
    console.info(`sample ${SEED}: ${JSON.stringify(Object.fromEntries(sample))}`);
  });

  test('every sampled zip and window 3..24: 404 under half covered, else score, label, counts, trend, confidence and permit window', async () => {
    const bad: string[] = [];
    let scored = 0, unscored = 0;
    for (const src of SOURCES) {
      for (const zip of sample.get(src)!) {
        const h = homes.get(src)!.get(zip);
        for (const w of windows.get(src)!.filter((x) => x.zip === zip)) {
          const res = await api.get(`/v1/market/rehab-score?zip=${zip}&months=${w.months}`);
          // market.md "Permit source area": under half of the zip in the area (or no housing units), no permit component
          if (!h || h.share < 0.5) {
            if (res.status !== 404) bad.push(`${src} ${zip} ${w.months}: ${res.status}, raw share ${h?.share ?? 'none'}: no permit component`);
            unscored++;
            continue;
          }
          if (res.status !== 200) { bad.push(`${src} ${zip} ${w.months}: ${res.status}`); continue; }
          const b = (await res.json()) as Rehab;
          const errors = schemaErrors('RehabScore', b);
          if (errors.length) bad.push(`${zip} ${w.months}: ${errors.join('; ')}`);
          const score = permitScore(w, h.homes);
          const pct = round1(100 * (w.last30 - w.prior30) / Math.max(w.prior30, 1));
          if (b.rehab_momentum_score === null || Math.abs(b.rehab_momentum_score - score) > 0.05 + 1e-9) bad.push(`${zip} ${w.months}: score ${b.rehab_momentum_score}, raw ${score}`);
          const got = [b.label, b.counts.rehab_permits, b.counts.trend_last_30d, b.counts.trend_prior_30d, b.trend_end, b.trend, b.trend_pct, b.confidence, b.as_of,
            b.permits_window?.window_end, b.permits_window?.records_days === b.permits_window?.window_days];
          const exp = [label(round1(score)), w.rehab, w.last30, w.prior30, w.trend_end, pct > 5 ? 'up' : pct < -5 ? 'down' : 'flat', pct, countConfidence(w.rehab), w.as_of,
            w.as_of, true]; // each permit file spans its whole windows (Nashville 2021-09-16.., Chicago 2023-01-01..)
          if (JSON.stringify(got) !== JSON.stringify(exp)) bad.push(`${src} ${zip} ${w.months}: api ${JSON.stringify(got)}, raw ${JSON.stringify(exp)}`);
          scored++;
        }
      }
    }
    expect(bad.slice(0, 40)).toEqual([]);
    expect(scored).toBeGreaterThan(200);
    expect(unscored).toBeGreaterThanOrEqual(2 * UNDER * 22);
    console.info(`${scored} scored windows equal, ${unscored} unscored (404)`);
  }, 600_000);
});
