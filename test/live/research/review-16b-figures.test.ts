// The sixteenth research review's figure and wording findings (r16b #2, #3, #18, #19), over the shared real build on
// the suite's pinned clock: a distressed-properties count says how many of its properties are filings naming no parcel;
// a zone D answer says what the location endpoint says (the share of the zip inside a loaded map and its zones there, or
// that the map loaded for its county does not reach it); a days-on-market question of a zip with no sales records
// answers from its latest Redfin snapshot, naming Redfin and the month, and a price question says the snapshots give no
// price; a rehab score with no permit component says the score is the rehab resale share alone. Expected figures are
// our own SQL over the raw files in ../shared/data.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { readShard } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { ALLEGHENY_OPEN } from '../../helpers/oracle-distress.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

describe('r16b #2: a distressed-properties count names its filings without a parcel', () => {
  it('"how many distressed properties in Penn Hills": 63 = 61 distinct parcels and 2 cases naming no parcel', async () => {
    const [p] = await rawQuery<{ parcels: number; without: number }>(`select count(distinct pin)::int as parcels, count(*) filter (where pin is null)::int as without
      from ${ALLEGHENY_OPEN} where m = 'Penn Hills Township'`);
    expect([p!.parcels, p!.without]).toEqual([61, 2]);
    expect(await ask('how many distressed properties in Penn Hills')).toContain(`${p!.parcels + p!.without} distressed properties (mortgage foreclosure filings, the only kind its records hold: no tax-lien or other lien foreclosure is counted; ${p!.parcels} identified by parcel or address and ${p!.without} filings naming neither, each counted as a property of its own)`);
    // the investor overview says the same, in an additive field and its note
    const shard = readShard<{ distressed_pipeline_count: number; distressed_without_parcel: number; note: string }>('market/investor/PA/penn-hills-township/12.json');
    expect([shard.distressed_pipeline_count, shard.distressed_without_parcel]).toEqual([p!.parcels + p!.without, p!.without]);
    expect(shard.note).toContain(`${p!.without} of its ${p!.parcels + p!.without} are filings that name no parcel or address, each counted as a property of its own (${p!.parcels} identified properties)`);
  });
  it('"how many distressed properties in Allegheny County": its distinct properties (review 29), split the same way', async () => {
    const [p] = await rawQuery<{ parcels: number; without: number }>(`select count(distinct pin)::int as parcels,
      count(*) filter (where pin is null)::int as without from ${ALLEGHENY_OPEN}`);
    expect(await ask('how many distressed properties in Allegheny County')).toContain(`In Allegheny County, PA, ${(p!.parcels + p!.without).toLocaleString('en-US')} distressed properties (mortgage foreclosure filings, the only kind its records hold: no tax-lien or other lien foreclosure is counted; ${p!.parcels} identified by parcel or address and ${p!.without} filings naming neither`);
  });
});

describe('r16b #3: a zone D answer says what the location endpoint says', () => {
  it('"flood zone 43912" and "flood risk Bridgeport OH": the share inside the loaded Belmont map and the zones there, as GET /v1/location/risk', async () => {
    // 43912 is a ZCTA whose polygon is not loaded: it is sampled as the circle of its equivalent radius, sqrt(ALAND / pi)
    // from the raw Gazetteer, and its notes name that circle (review 24: "this zip", "of the zip" before)
    const [g] = await rawQuery<{ aland: string }>(`select "ALAND" as aland from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_zcta_national.txt.gz')}', all_varchar = true, delim = '|') where trim("GEOID") = '43912'`);
    const circle = `the ${Math.round((Math.sqrt(Number(g!.aland) / Math.PI) / 1609.344) * 10) / 10}-mile circle around the zip's point`;
    const notes = readShard<{ flood_risk_notes: string }>('location/zip/43912.json').flood_risk_notes;
    expect(notes).toMatch(new RegExp(`^Zone D \\(undetermined\\): only 1% of ${circle} lies inside a loaded FEMA flood map \\(Belmont County, OH, around Bridgeport only \\([^)]*\\)\\): there, zone X \\(unshaded, minimal hazard\\) 1% of the circle; no flood hazard zone covers 10% or more of it`));
    for (const q of ['flood zone 43912', 'flood risk Bridgeport OH']) {
      const a = await ask(q);
      // review 18: the zone is said undetermined, not "is in flood zone D"
      expect(a, q).toContain(`Zip 43912 (Bridgeport, OH): only 1% of ${circle} lies inside a loaded FEMA flood map (Belmont County, OH, around Bridgeport only`);
      expect(a, q).toContain('there, zone X (unshaded, minimal hazard) 1% of the circle; no flood hazard zone covers 10% or more of it, so its flood zone is undetermined (FEMA zone D)');
      expect(a, q).not.toMatch(/no FEMA flood map was loaded/);
    }
  });
  it('43950 and 43906, Belmont County zips the Bridgeport map does not reach: the county\'s map is named, not "no map loaded for this area"', async () => {
    // raw: both zips are Belmont County's, whose flood file is loaded
    const rows = await rawQuery<{ zip_code: string; county: string }>(`select zip_code, county from read_csv('${dataFile('us-zip-reference/zip_reference.csv.gz')}', all_varchar = true) where zip_code in ('43950', '43906') order by 1`);
    expect(rows.map((r) => r.county)).toEqual(['Belmont', 'Belmont']);
    for (const zip of ['43950', '43906']) {
      const notes = readShard<{ flood_risk_notes: string }>(`location/zip/${zip}.json`).flood_risk_notes;
      expect(notes, zip).toContain('no FEMA flood map was loaded for this zip: the one loaded for its county (Belmont County, OH, around Bridgeport only');
      const a = await ask(`flood zone ${zip}`);
      expect(a, zip).toContain('no FEMA flood map is loaded for this zip: the one loaded for its county (Belmont County, OH, around Bridgeport only');
      expect(a, zip).toContain('so its flood zone is undetermined (FEMA zone D)');
      expect(a, zip).not.toContain('for this area');
    }
  });
});

describe('r16b #18: a zip with no sales records, and the Redfin zip snapshots', () => {
  const latest = (zip: string): Promise<{ snapshot_month: string; period_end: string; median_dom: string; homes_sold: string }[]> => rawQuery(`
    select snapshot_month, period_end, median_dom, homes_sold from read_csv('${dataFile('redfin-zip-market-snapshots/redfin_zip_latest_2025-05_to_2025-09.csv.gz')}', all_varchar = true)
    where zip_code = '${zip}' and nullif(median_dom, '') is not null order by period_end desc, snapshot_month desc limit 1`);
  it('"days on market in 60614" and "median days on market 02139": the zip\'s latest snapshot, named as Redfin\'s, with its month', async () => {
    for (const [zip, q] of [['60614', 'days on market in 60614'], ['02139', 'median days on market 02139']] as const) {
      const [r] = await latest(zip);
      const start = `${r!.period_end.slice(0, 5)}${String(Number(r!.period_end.slice(5, 7)) - 2).padStart(2, '0')}-01`;
      const a = await ask(q);
      expect(a, q).toContain(`We have no sales records for zip ${zip}, so no days on market of our own; the Redfin zip tracker's ${r!.snapshot_month} snapshot gives a median ${Number(r!.median_dom)} days on market over ${start} to ${r!.period_end}`);
      expect(a, q).toContain(`${Number(r!.homes_sold)} homes sold; data provided by Redfin`);
    }
    expect((await latest('60614'))[0]).toMatchObject({ snapshot_month: '2025-09', median_dom: '34', homes_sold: '31' });
  });
  it('"days on market in 60614 in August 2025": the snapshot whose 90 days end in August (one field serves both questions), not the latest', async () => {
    const [r] = await rawQuery<{ snapshot_month: string; median_dom: string; homes_sold: string }>(`
      select snapshot_month, median_dom, homes_sold from read_csv('${dataFile('redfin-zip-market-snapshots/redfin_zip_latest_2025-05_to_2025-09.csv.gz')}', all_varchar = true)
      where zip_code = '60614' and period_end = '2025-08-31' order by snapshot_month desc limit 1`);
    const a = await ask('days on market in 60614 in August 2025');
    expect(a).toContain(`the Redfin zip tracker's ${r!.snapshot_month} snapshot gives a median ${Number(r!.median_dom)} days on market over 2025-06-01 to 2025-08-31`);
    expect(a).toContain(`${Number(r!.homes_sold)} homes sold; data provided by Redfin`);
  });
  it('"median home price in Chicago": no sales, and the snapshots are said to give no price (never a Redfin median)', async () => {
    const a = await ask('median home price in Chicago');
    // why first (h67ask2: no sales source covers it; its building permits named), then the snapshots
    expect(a).toContain('We have no single-family sales for a median sale price in Chicago, IL: no sales source of this build covers it (');
    expect(a).toContain('what it holds there is building permits: ask "permits in Chicago, IL"; the Redfin zip tracker snapshots this build loads (');
    expect(a).toContain('are used for days on market only, not for prices');
  });
});

describe('r16b #19: a rehab score with no permit component says so', () => {
  it('"rehab momentum 98103": no permit source covers King County; the score is 3 renovated resales of 210 arm\'s-length sales', async () => {
    const kc = dataFile('king-county-wa-house-sales/kc_house_data.csv.gz');
    const [w] = await rawQuery<{ n: number; r: number }>(`with s as (select id, zipcode, strptime(left(date, 8), '%Y%m%d')::date as d, price::double as p,
        yr_renovated::int as yr from read_csv('${kc}', all_varchar = true)),
      e as (select max(d) as as_of from s),
      z as (select *, lag(d) over (partition by id order by d) as pd, lag(p) over (partition by id order by d) as pp from s where zipcode = '98103')
      select count(*)::int as n, count(*) filter (where yr between year(d) - 1 and year(d) or (date_diff('day', pd, d) between 1 and 365 and p >= pp * 1.10))::int as r
      from z, e where z.d > e.as_of - interval 6 month and z.d <= e.as_of`);
    expect([w!.r, w!.n]).toEqual([3, 210]);
    const clause = `no building permit source covers this zip: no renovation permit data: the score is the rehab resale share alone (${w!.r} of the window's ${w!.n} residential arm's-length sales are renovated resales or quick resales at a gain)`;
    expect(readShard<{ note: string }>('market/rehab/98103/6.json').note).toContain(clause);
    const a = await ask('rehab momentum 98103');
    expect(a).toContain(`has a rehab momentum score of ${Math.round(1000 * Math.min(1, w!.r / w!.n / 0.1)) / 10} out of 100 (Cold) over the 6 months to 2015-05-27; ${clause}; its rehab events (rehab resales) in the 30 days`);
    expect(a).not.toContain('renovation permits and rehab resales');
  });
  it('"rehab momentum seattle": the city summary says its zips score from rehab resales alone (no permit source covers King County)', async () => {
    // raw: the permit sources are Chicago's and Nashville's only
    const fs = await import('node:fs');
    const permitFolders = fs.readdirSync(dataFile('.')).filter((d) => /permit/.test(d));
    expect(permitFolders.sort()).toEqual(['chicago-building-permits', 'nashville-building-permit-applications']);
    const a = await ask('rehab momentum seattle');
    expect(a).toMatch(/^Across \d+ zips of Seattle, WA with a rehab momentum score \(from rehab resales alone: no building permit source covers its zips, so there is no renovation permit data\)/);
    expect(a).not.toContain('from its building permits and sales');
  });
});
