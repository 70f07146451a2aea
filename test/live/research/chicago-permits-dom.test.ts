// Chicago and days on market (review 16's left-overs, h17chi), over the shared real build on the suite's pinned clock:
// a zip or city with permits and no sales says its rehab score and 30-day events are its building permits alone, never
// "rehab resales" no record could show (rehab-facts.ts, city-summary.ts, freshness.ts); a city's days on market with
// no sales records (or asked for a month past its sales) is the range of its zips' Redfin snapshot medians over one
// period, never one figure of the city (redfin-city.ts). Expected figures: our own SQL over the raw Redfin tracker
// file in ../shared/data, per zip of the build's city list, and the build's rehab shards.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { readShard } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

interface Snap { zip: string; end: string; dom: number; sold: number }
/** Per zip of a city (the build's city list, its ZCTAs and HUD's zips: tested with the gazetteer), its raw Redfin
 *  snapshot whose 90 days end in `month` (of two captures, the later); `month` null: the latest period end of any of
 *  its zips. Also the city's zip count. */
async function citySnaps(city: string, state: string, month: string | null): Promise<{ zips: number; snaps: Snap[] }> {
  const zips = researchData().zipsOfCity(city, state);
  const rows = await rawQuery<{ zip: string; end: string; dom: number; sold: number; m: string }>(`
    select zip_code as zip, period_end as "end", median_dom::double as dom, homes_sold::double::int as sold, snapshot_month as m
    from read_csv('${dataFile('redfin-zip-market-snapshots/redfin_zip_latest_2025-05_to_2025-09.csv.gz')}', all_varchar = true)
    where zip_code in (${zips.map((z) => `'${z}'`).join(', ')}) and nullif(median_dom, '') is not null and nullif(period_end, '') is not null`);
  const period = month ?? rows.map((r) => r.end).sort().at(-1)!.slice(0, 7);
  const byZip = new Map<string, typeof rows[number]>();
  for (const r of rows.filter((x) => x.end.slice(0, 7) === period).sort((a, b) => a.m.localeCompare(b.m))) byZip.set(r.zip, r);
  return { zips: zips.length, snaps: [...byZip.values()].map(({ zip, end, dom, sold }) => ({ zip, end, dom, sold })) };
}
const one = (s: Snap): string => `zip ${s.zip} ${s.dom} days (${s.sold} homes sold)`;
const solidSorted = (snaps: Snap[]): Snap[] => snaps.filter((s) => s.sold >= 5).sort((a, b) => a.dom - b.dom || a.zip.localeCompare(b.zip));

describe('a city\'s days on market from its zips\' Redfin snapshots', () => {
  it('"days on market in chicago": no sales records; the range of its zips\' 2025-09 medians (5+ homes sold), never one city figure', async () => {
    const { zips, snaps } = await citySnaps('Chicago', 'IL', null);
    const solid = solidSorted(snaps);
    expect([zips, snaps.length, solid.length]).toEqual([83, 61, 50]);
    const a = await ask('days on market in chicago');
    expect(a).toMatch(/^We have no sales records for Chicago, IL, so no days on market of our own; Redfin publishes days on market per zip/);
    expect(a).toContain('so no figure of Chicago, IL as a whole is given');
    expect(a).toContain(`the Redfin zip tracker's 2025-09 snapshot gives ${snaps.length} of its ${zips} zips a median days on market over the 90 days to ${snaps[0]!.end}`);
    expect(a).toContain(`of the ${solid.length} zips with 5 or more homes sold (${snaps.length - solid.length} more had fewer, too few to stand for a zip): from ${one(solid[0]!)} to ${one(solid.at(-1)!)}`);
    expect(a).toContain('data provided by Redfin');
    expect(a).not.toMatch(/no days-on-market figure|We have no single-family comparable sales/);
    const fast = await ask('which zip in chicago sells fastest');
    expect(fast).toContain(`homes sell fastest in zip ${solid[0]!.zip} (median ${solid[0]!.dom} days)`);
  });
  it('"how fast do homes sell in cambridge ma": every zip with 5+ homes sold listed with its median', async () => {
    const { zips, snaps } = await citySnaps('Cambridge', 'MA', null);
    const solid = solidSorted(snaps);
    const a = await ask('how fast do homes sell in cambridge ma');
    expect(a).toContain(`gives ${snaps.length} of its ${zips} zips a median days on market over the 90 days to ${snaps[0]!.end}`);
    expect(a).toContain(`with 5 or more homes sold (${snaps.length - solid.length} more had fewer, too few to stand for a zip): ${solid.map(one).join('; ')} (data provided by Redfin)`);
  });
  it('"days on market in seattle in august 2025": past its sales (2015-05), the zips\' snapshots ending in August 2025', async () => {
    const { zips, snaps } = await citySnaps('Seattle', 'WA', '2025-08');
    const solid = solidSorted(snaps);
    const a = await ask('days on market in seattle in august 2025');
    expect(a).toContain("For August 2025, the figures are Redfin's, not the sales records' (the sales records of Seattle, WA end 2015-05 and carry no listing dates)");
    expect(a).toContain(`of its ${zips} zips a median days on market over the 90 days to 2025-08-31`);
    expect(a).toContain(`from ${one(solid[0]!)} to ${one(solid.at(-1)!)}`);
    expect(a).not.toContain('for the latest months of each source only, not for August 2025');
  });
});

describe('a zip or city with permits and no sales: its rehab figures are its permits alone', () => {
  it('"rehab 60614", "rehab chicago", "rehab momentum in nashville": permits alone, never rehab resales', async () => {
    // raw: no sales source in ../shared/data covers Illinois or Tennessee (the sales folders and their states)
    const fs = await import('node:fs');
    const sales = fs.readdirSync(dataFile('.')).filter((d) => /sales|transactions|properties-sample/.test(d)).sort();
    expect(sales).toEqual(['connecticut-real-estate-sales', 'denver-real-property-sales', 'king-county-wa-house-sales', 'nyc-rolling-sales', 'philadelphia-opa-properties-sample', 'sacramento-real-estate-transactions']);
    const r = readShard<{ rehab_momentum_score: number; trend: string; trend_end: string; as_of: string }>('market/rehab/60614/6.json');
    const a = await ask('rehab 60614');
    expect(a).toContain(`has a rehab momentum score of ${r.rehab_momentum_score} out of 100 (Hot) over the 6 months to ${r.as_of}, from its building permits alone; its rehab permits (residential renovation, addition and repair permits: no sales record covers this zip, so no rehab resales) in the 30 days to ${r.trend_end} were ${r.trend}`);
    expect(a).not.toContain('renovation permits and rehab resales');
    // "permits in 60614" asks the same (before: "I don't have data that answers this question")
    expect(await ask('permits in 60614')).toContain(`has a rehab momentum score of ${r.rehab_momentum_score} out of 100 (Hot) over the 6 months to ${r.as_of}, from its building permits alone`);
    const city = await ask('rehab chicago');
    expect(city).toMatch(/^Across \d+ zips of Chicago, IL with a rehab momentum score \(from building permits alone: no sales record covers its zips, so there are no rehab resales/);
    expect(city).not.toMatch(/permits and sales|renovation permits and rehab resales/);
    // Nashville's permits end 2024-09: their age is said of its permits, not of "permits and sales"
    const nash = await ask('rehab momentum in nashville');
    expect(nash).toContain('the latest permits in this source are from 2024-09');
    expect(nash).not.toMatch(/permits and sales|renovation permits and rehab resales/);
  });
});
