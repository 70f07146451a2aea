// The market tier of a seeded sample of 40 cities and towns of the six sales sources (h78 audit, gap a): investor
// overview `market_tier` and, where the city is a Census place, the geo lookup's `market_tier` and
// `is_investor_active`, over HTTP against the RAW files (test/helpers/oracle-raw-town-tier.ts: the county most of the
// city's raw sales lie in, its CBSA of the 2023 delineation, the CBSA's ACS 2023 population; geo.md "Market tier
// rule", market.md mart_investor `market_tier`). Before, six towns were checked through the build's own `cities`.
// `is_investor_active` is false everywhere (geo.md: no community data yet).
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { tierOfCounty, townCounties, townRecords, type SalesSource, type TownTier } from '../helpers/oracle-raw-town-tier.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 78;
const QUOTA: Record<SalesSource, number> = { connecticut: 20, king_county: 8, sacramento: 7, nyc: 3, philadelphia: 1, denver: 1 };
const api = serveSharedBuild('pro', 100_000);
const sample: { source: SalesSource; state: string; city: string; raw: TownTier }[] = [];
// the Connecticut towns with no ZCTA of their own and no sale with a zip (market.md "Zips guessed from coordinates"):
// rural by rule at the build of 2026-12-03 (/tmp/b76), though the raw points of four of them place them
const NO_ZCTA_TOWNS = ['Griswold', 'Lisbon', 'Lyme', 'North Canaan', 'Sprague', 'Union', 'Warren', 'Winchester'];
const towns = new Map<string, TownTier>();

beforeAll(() => {
  const records = townRecords().filter((r) => r.city);
  const counties = townCounties(records);
  for (const t of NO_ZCTA_TOWNS) towns.set(t, tierOfCounty(counties.get(`CT|${t}`) ?? null));
  const rnd = rng(SEED);
  for (const [source, n] of Object.entries(QUOTA) as [SalesSource, number][]) {
    const left = [...new Set(records.filter((r) => r.source === source).map((r) => `${r.state}|${r.city}`))].sort();
    for (let i = 0; i < n && left.length; i++) {
      const k = left.splice(Math.floor(rnd() * left.length), 1)[0]!;
      const [state, city] = k.split('|') as [string, string];
      sample.push({ source, state, city, raw: tierOfCounty(counties.get(k) ?? null) });
    }
  }
}, 300_000);

describe(`seeded sample ${SEED}: market tier of 40 sales cities and towns against the raw Census files`, () => {
  test('investor overview and geo lookup tiers equal the raw rule', async () => {
    expect(sample.length).toBe(40);
    const bad: string[] = [];
    for (const s of sample) {
      const q = `city=${encodeURIComponent(s.city)}&state=${s.state}`;
      const inv = await api.get(`/v1/market/investor-overview?${q}&months=12`);
      const b = (await inv.json()) as { market_tier?: string };
      if (inv.status !== 200 || b.market_tier !== s.raw.tier) bad.push(`${s.city}, ${s.state} (${s.source}): investor ${inv.status} ${b.market_tier}, raw ${JSON.stringify(s.raw)}`);
      const geo = await api.get(`/v1/geo/lookup?${q}`);
      const g = (await geo.json()) as { market_tier?: string; is_investor_active?: boolean; message?: string };
      if (geo.status === 404 && /no Census place/.test(g.message ?? '')) continue; // a town of the sales files only
      if (geo.status !== 200 || g.market_tier !== s.raw.tier || g.is_investor_active !== false) bad.push(`${s.city}, ${s.state}: geo ${geo.status} ${g.market_tier} ${g.is_investor_active} ${g.message ?? ''}, raw ${s.raw.tier}`);
    }
    console.log(sample.map((s) => `${s.city}, ${s.state}: ${s.raw.tier} (${s.raw.county}, CBSA ${s.raw.cbsa}, ${s.raw.population})`).join('\n'));
    expect(bad).toEqual([]);
    expect(new Set(sample.map((s) => s.raw.tier)).size, 'the sample reaches several tiers').toBeGreaterThanOrEqual(3);
  }, 300_000);

  test('the Connecticut towns without a zip: the tier of the county their raw sales\' points lie in, rural only with no point', async () => {
    const got = new Map<string, string>();
    for (const t of NO_ZCTA_TOWNS) got.set(t, ((await (await api.get(`/v1/market/investor-overview?city=${encodeURIComponent(t)}&state=CT&months=12`)).json()) as { market_tier: string }).market_tier);
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries([...towns].map(([t, x]) => [t, x.tier])));
    // Griswold, Lisbon (Southeastern Connecticut), Lyme (Lower Connecticut River Valley), Warren (Northwest Hills)
    expect([...towns.values()].filter((x) => x.tier !== 'rural').map((x) => x.county)).toEqual(['09180', '09180', '09130', '09160']);
  }, 120_000);
});
