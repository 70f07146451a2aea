// The investor overview of the cities known only from distress filings (Allegheny County's municipalities and
// Louisville: no sales file covers them), every figure besides the distressed pipeline's count, over HTTP against the
// RAW files (h77 audit, gap a). Before this file only `distressed_pipeline_count` / `distressed_without_parcel` were
// checked against the raw dockets (distress-raw-oracle.test.ts, h74-market-sample.test.ts); `confidence`, `as_of`,
// the coverage object, `market_tier` and the three sales figures' nulls were not. The rules (warehouse/docs/market.md
// "mart_investor"): `confidence` = the lower of confidence_by_count(open filings filed in the window: openFilings,
// test/helpers/oracle-distress.ts) and the coverage band of the window's days inside the filing file's span (high from
// 90%, medium from 50%); the window is the `months` to the file's last filing; `market_tier` is the CBSA tier of the
// file's county (Allegheny 42003, Jefferson KY 21111: test/helpers/oracle-raw-town-tier.ts tierOfCounty, geo.md "Market tier rule");
// no sale, so no purchase rate, flip velocity or margin (null, never 0). A seeded sample (scripts/rng.ts) of the
// covered Allegheny cities, with Pittsburgh and Louisville always, each asked for every `months` 3-24.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { filingCities, openFilings, type FilingCity } from '../helpers/oracle-distress.ts';
import { tierOfCounty } from '../helpers/oracle-raw-town-tier.ts';
import { band, type InvestorAnswer } from '../helpers/oracle-market.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 77;
const MONTHS = Array.from({ length: 22 }, (_, i) => i + 3);
const api = serveSharedBuild('pro', 100_000);
let cities: FilingCity[];
let filings: Map<string, number>;
const tiers = new Map<string, string>();

beforeAll(async () => {
  const all = await filingCities();
  const rnd = rng(SEED);
  const pa = all.filter((c) => c.state === 'PA' && c.city !== 'Pittsburgh').map((c) => ({ c, k: rnd() })).sort((a, b) => a.k - b.k).map((x) => x.c);
  cities = [...all.filter((c) => c.city === 'Pittsburgh' || c.city === 'Louisville'), ...pa.slice(0, 16)];
  filings = new Map((await openFilings(MONTHS)).map((r) => [`${r.state}|${r.city}|${r.months}`, r.filings]));
  tiers.set('PA', tierOfCounty('42003').tier);
  tiers.set('KY', tierOfCounty('21111').tier);
}, 180_000);

/** `iso` minus `months` calendar months, the day clamped to the month's last (DuckDB's date - interval). */
function minusMonths(iso: string, months: number): Date {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last)));
}
const DAY = 86_400_000;
const iso = (t: Date): string => t.toISOString().slice(0, 10);
const days = (a: string, b: string): number => Math.round((Date.parse(b) - Date.parse(a)) / DAY) + 1;
const coverageBand = (covered: number, asked: number): string => (covered >= 0.9 * asked ? 'high' : covered >= 0.5 * asked ? 'medium' : 'low');
const lower = (a: string, b: string): string => (a === 'low' || b === 'low' ? 'low' : a === 'medium' || b === 'medium' ? 'medium' : 'high');

describe('investor overview of the distress-only cities against the raw filing and Census files', () => {
  test('the raw files: Allegheny County and Jefferson County, KY lie in CBSAs of a million or more (primary)', async () => {
    const [pa, ky] = [tierOfCounty('42003'), tierOfCounty('21111')];
    expect([pa.cbsa, ky.cbsa]).toEqual(['38300', '31140']);
    expect(pa.population).toBeGreaterThan(1_000_000);
    expect(ky.population).toBeGreaterThan(1_000_000);
  });

  test('a seeded sample of cities, months 3-24: confidence, as_of, coverage, tier and the null sales figures', async () => {
    expect(cities.length).toBe(18);
    const bad: string[] = [];
    const seen = new Set<string>();
    for (const c of cities) {
      for (const months of MONTHS) {
        const path = `/v1/market/investor-overview?city=${encodeURIComponent(c.city)}&state=${c.state}&months=${months}`;
        const res = await api.get(path);
        if (res.status !== 200) { bad.push(`${path}: ${res.status}`); continue; }
        const b = (await res.json()) as InvestorAnswer;
        const start = iso(new Date(minusMonths(c.last, months).getTime() + DAY));
        const recordsStart = start > c.first ? start : c.first;
        const n = filings.get(`${c.state}|${c.city}|${months}`) ?? 0;
        const want = {
          investor_purchase_rate_pct: null, flip_velocity_days: null, gross_flip_margin_pct: null, platform_active_deals: 0,
          market_tier: tiers.get(c.state), as_of: c.last, distress_as_of: c.last,
          confidence: lower(band(n), coverageBand(days(recordsStart, c.last), days(start, c.last))),
          coverage: { window_start: start, window_end: c.last, window_days: days(start, c.last), records_start: recordsStart, records_end: c.last, records_days: days(recordsStart, c.last) },
        };
        const got = Object.fromEntries(Object.keys(want).map((k) => [k, (b as unknown as Record<string, unknown>)[k]]));
        if (JSON.stringify(got) !== JSON.stringify(want)) bad.push(`${path} (${n} open filings): got ${JSON.stringify(got)}, raw ${JSON.stringify(want)}`);
        if (!b.note?.startsWith('no sale for value in the window: no investor purchase rate, flip velocity or flip margin')) bad.push(`${path}: note ${b.note}`);
        seen.add(b.confidence);
      }
    }
    expect(bad.slice(0, 20)).toEqual([]);
    // the sample reaches each band: the small boroughs' low, a township's medium, Pittsburgh's high
    expect([...seen].sort()).toEqual(['high', 'low', 'medium']);
  }, 300_000);
});
