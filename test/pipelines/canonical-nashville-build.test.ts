// A canonical folder of real records (review 22): Nashville's building permit applications written as permits.csv (no
// parcel_id column, no declared area), a parcels.csv row and two sales of one Nashville parcel, and Louisville filings
// as distress.csv, through a real build until the marts over the real geography (symlinks into ../shared/data). The
// expected values are read from the raw files with plain DuckDB SQL (and test/helpers/oracle-permit-area.ts):
//   - the permits' area is the county they lie in (warehouse/docs/market.md "Permit source area"), so a zip mostly
//     outside it is not scored as covered (La Vergne 37086 read 3.6 "Cold" with no note);
//   - a permit without a parcel id joins the parcel's property at its street line and zip (warehouse/docs/property.md
//     "Identity": 929 CAHAL AVE's permit was a property of its own beside the parcel's sales).
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PINNED_NOW } from '../helpers/clock.ts';
import { canonicalSources, linkGeography, PROPERTY_STEPS } from '../helpers/canonical-sources.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { SHARED_DATA } from '../helpers/paths.ts';
import { dataFile } from '../helpers/oracle-raw-comps.ts';
import { permitAreaOracle } from '../helpers/oracle-permit-area.ts';
import { runBuild } from '../../pipelines/build.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';
import { salesCover } from '../../live/research/sales-cover-build.ts';
import { ShardStore } from '../../api/shards.ts';
import { rehabReply } from '../../api/rehab-not-found.ts';
import type { LoadedBuild } from '../../api/builds.ts';

afterAll(removeTmpDirs);

const FILTER = [...PROPERTY_STEPS, 'rehab'].join(',');
const NASHVILLE = `read_csv('${path.join(SHARED_DATA, 'nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true)`;
const LOUISVILLE = `read_csv('${path.join(SHARED_DATA, 'louisville-metro-lien-foreclosures/foreclosures.csv.gz')}', all_varchar = true)`;

async function query<T>(db: string, sql: string): Promise<T[]> {
  const inst = await DuckDBInstance.create(db, db === ':memory:' ? {} : { access_mode: 'READ_ONLY' });
  const c = await inst.connect();
  try { return (await c.runAndReadAll(sql)).getRowObjectsJson() as T[]; } finally { c.closeSync(); inst.closeSync(); }
}

/** A CSV field: quoted when it holds a comma or a quote. */
const field = (v: string | null | undefined): string => (v == null ? '' : /[",]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

let warehouse: string;

beforeAll(async () => {
  // permits.csv: every application of the raw file with a 5-digit zip, once per permit number (its first line), typed by
  // the words of its type as the converter of the review did (Rehab -> renovation, Addition, New/Shell -> new, else other)
  const permits = await query<Record<string, string | null>>(':memory:', `
    select Permit__ as permit_id, Address as address, ZIP as zip,
           strftime(make_timestamp(try_cast(Date_Entered as bigint) * 1000)::date, '%Y-%m-%d') as issue_date,
           case when Permit_Type_Description ilike '%Rehab%' then 'renovation' when Permit_Type_Description ilike '%Addition%' then 'addition'
                when Permit_Type_Description ilike '%New%' or Permit_Type_Description ilike '%Shell%' then 'new' else 'other' end as permit_type,
           -- a cost of 0 is the file's placeholder for none (market.md "Components"): empty, unknown, in the format
           nullif(Const_Cost, '0') as valuation, Lat as lat, Lon as lng
    from (select *, row_number() over (partition by Permit__ order by ObjectId::int) as k from ${NASHVILLE})
    where k = 1 and regexp_full_match(ZIP, '\\d{5}') and try_cast(Date_Entered as bigint) is not null and Address is not null
    order by ObjectId::int`);
  // distress.csv: 30 Louisville filings with a parcel id (no parcels.csv row: properties of filings only)
  const distress = await query<Record<string, string | null>>(':memory:', `
    select PRCLID as parcel_id, trim(concat_ws(' ', nullif(STNO, 'NA'), nullif(STNAME, 'NA'), nullif(SUFFIX, 'NA'))) as address,
           left(ZIP, 5) as zip, "Date Action Filed" as filing_date
    from ${LOUISVILLE} where PRCLID <> 'NA' and STNO <> 'NA' order by "Date Action Filed", PRCLID limit 30`);
  const csv = (header: string, rows: (string | null | undefined)[][]): string => `${[header, ...rows.map((r) => r.map(field).join(','))].join('\n')}\n`;
  const sources = canonicalSources({
    'permits.csv': csv('permit_id,address,zip,issue_date,permit_type,valuation,lat,lng',
      permits.map((p) => [p['permit_id']!, p['address']!, p['zip']!, p['issue_date']!, p['permit_type']!, p['valuation'], p['lat'], p['lng']])),
    'parcels.csv': csv('parcel_id,address,city,state,zip,property_type,beds,baths,sqft,year_built,lat,lng',
      [['07209034100', '929 CAHAL AVE', 'Nashville', 'TN', '37206', 'sfr', '', '', '', '', '36.19748739', '-86.74597006']]),
    'sales.csv': csv('address,city,state,zip,sale_date,sale_price,property_type,beds,baths,sqft,year_built,condition,lat,lng,parcel_id', [
      ['929 CAHAL AVE', 'Nashville', 'TN', '37206', '2023-08-01', '250000', 'sfr', '', '', '', '', '', '', '', '07209034100'],
      ['929 CAHAL AVE', 'Nashville', 'TN', '37206', '2024-03-01', '320000', 'sfr', '', '', '', '', '', '', '', '07209034100']]),
    'distress.csv': csv('parcel_id,address,city,state,zip,kind,filing_date,amount',
      distress.map((d) => [d['parcel_id']!, d['address']!, 'Louisville', 'KY', d['zip']!, 'lien_foreclosure', d['filing_date']!, ''])),
  });
  linkGeography(sources);
  const artifacts = tmp('reii-canon-nash-art-');
  const r = await runBuild({ settings: loadSettings({ artifacts, sources, stepFilter: FILTER }), log: silentLogger, now: PINNED_NOW, until: 'marts' });
  warehouse = path.join(r.dir, 'warehouse.duckdb');
}, 600_000);

describe('a canonical permits.csv covers the county its permits lie in', () => {
  test('the area is Davidson County, each zip its residential addresses there (HUD-USPS); under half: no permit component', async () => {
    const area = await query<{ zip: string; area_name: string; covered_share: number | null }>(warehouse,
      `select zip, area_name, covered_share from int_market_permit_area where source = 'canonical' order by zip`);
    expect(area.length).toBeGreaterThan(30);
    expect(new Set(area.map((a) => a.area_name))).toEqual(new Set(['Davidson County, TN (the county its permits lie in, by the HUD-USPS ZIP-county crosswalk: permits.csv declares no area)']));
    const want = new Map((await query<{ zip: string; share: number }>(':memory:', permitAreaOracle('nashville', area.map((a) => a.zip), dataFile)!.sql))
      .map((r) => [r.zip, Number(r.share)]));
    for (const a of area) expect(a.covered_share, a.zip).toBeCloseTo(want.get(a.zip)!, 9);
    // La Vergne: 0.4% of its residential addresses in Davidson County (the raw crosswalk)
    expect(Math.round(1000 * want.get('37086')!)).toBe(4);
    const outside = [...want].filter(([, s]) => s < 0.5).map(([z]) => z).sort();
    expect(outside).toEqual(['37015', '37027', '37086', '37122', '37135', '37143']);
    const scored = await query<{ zip: string }>(warehouse, `select distinct zip from mart_rehab where zip in (${outside.map((z) => `'${z}'`).join(', ')})`);
    expect(scored).toEqual([]); // before: 37086 12 months 3.6 "Cold", no note
    const partly = await query<{ zip: string; note: string }>(warehouse, `select zip, note from mart_rehab where zip = '37080' and months = 12`);
    expect(partly[0]!.note).toContain(`the permit source covers Davidson County, TN (the county its permits lie in, by the HUD-USPS ZIP-county crosswalk: permits.csv declares no area) only, which holds ${Math.round(100 * want.get('37080')!)}% of the zip's residential addresses (HUD-USPS 2023 Q1)`);
  });
});

describe('a canonical permit without a parcel id joins the parcel at its street line', () => {
  test("929 CAHAL AVE, 37206: the raw application T2024021799 is on the parcel's record, with its two sales", async () => {
    const [raw] = await query<{ parcel: string; address: string; zip: string }>(':memory:',
      `select Parcel as parcel, Address as address, ZIP as zip from ${NASHVILLE} where Permit__ = 'T2024021799'`);
    expect(raw).toEqual({ parcel: '07209034100', address: '929 CAHAL AVE', zip: '37206' }); // the native file's own join
    const props = await query<{ identity: string; sale_count: number; permit_count: number }>(warehouse, `
      select identity, sale_count::int as sale_count, permit_count::int as permit_count from properties
      where source = 'canonical' and zip = '37206' and address = '929 CAHAL AVE'`);
    // before: two properties, the parcel's (2 sales, 0 permits) and the permit's address (0 sales, 1 permit)
    expect(props).toEqual([{ identity: 'canonical|parcel|07209034100', sale_count: 2, permit_count: 1 }]);
    const events = await query<{ event_id: string }>(warehouse, `
      select e.event_id from int_property_events e join properties p using (property_id) where p.identity = 'canonical|parcel|07209034100'`);
    expect(events).toEqual([{ event_id: 'canonical:T2024021799' }]);
  });
});

describe('the rehab trend of a zip whose permits and sales end apart counts each kind to its own end', () => {
  test("37206: the permits' 30 days to the permits' end (not the last sale, 2024-03-01), the resale to the sales' end", async () => {
    const [d] = await query<{ permits_end: string; sales_end: string; window_end: string; last_30: number; prior_30: number }>(warehouse, `
      select permits_window_end::varchar as permits_end, sales_window_end::varchar as sales_end, window_end::varchar as window_end,
             events_last_30d::int as last_30, events_prior_30d::int as prior_30
      from mart_market_direction where market_kind = 'zip' and zip = '37206'`);
    // the sales end at the resale of 929 CAHAL AVE (250,000 -> 320,000 in 7 months: a quick resale at a gain)
    expect(d!.sales_end).toBe('2024-03-01');
    expect(d!.window_end).toBe(d!.permits_end);
    expect(d!.permits_end > d!.sales_end && d!.permits_end <= '2024-09-19').toBe(true);
    // the raw file's residential rehab in 37206 (Rehab or Addition, a declared cost of $500,000 or less or none) in the
    // 30 days to the permits' end and the 30 before, plus the one resale in the sales' last 30 days
    const [raw] = await query<{ last_30: number; prior_30: number }>(':memory:', `
      with p as (select make_timestamp(try_cast(Date_Entered as bigint) * 1000)::date as d
                 from (select *, row_number() over (partition by Permit__ order by ObjectId::int) as k from ${NASHVILLE})
                 where k = 1 and ZIP = '37206' and Address is not null
                   and (Permit_Type_Description ilike '%Rehab%' or Permit_Type_Description ilike '%Addition%')
                   and coalesce(try_cast(Const_Cost as double), 0) <= 500000)
      select count(*) filter (where d > date '${d!.permits_end}' - 30 and d <= date '${d!.permits_end}')::int as last_30,
             count(*) filter (where d > date '${d!.permits_end}' - 60 and d <= date '${d!.permits_end}' - 30)::int as prior_30 from p`);
    expect({ last_30: d!.last_30, prior_30: d!.prior_30 }).toEqual({ last_30: raw!.last_30 + 1, prior_30: raw!.prior_30 });
    const [r] = await query<{ trend_end: string; note: string }>(warehouse, `select trend_end::varchar as trend_end, note from mart_rehab where zip = '37206' and months = 12`);
    expect(r!.trend_end).toBe(d!.permits_end); // before: 2024-03-01, the last sale
    expect(r!.note).toContain(`the trend compares each kind's last 30 days with the 30 before: permits to ${d!.permits_end}, sales to 2024-03-01`);
  });
});

/** Month runs in the registry's vintage form ('2021-09..2024-09, 2025-01'). */
function monthRuns(months: string[]): string {
  const idx = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
  const sorted = [...new Set(months)].sort();
  const runs: [string, string][] = [];
  for (const m of sorted) {
    const last = runs.at(-1);
    if (last && idx(m) === idx(last[1]) + 1) last[1] = m; else runs.push([m, m]);
  }
  return runs.map(([a, b]) => (a === b ? a : `${a}..${b}`)).join(', ');
}

/** Every month from a's to b's (YYYY-MM): a permit or filing file is covered by its span (market.md "Coverage of a window"). */
function spanMonths(months: string[]): string[] {
  const idx = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
  const sorted = [...months].sort();
  const out: string[] = [];
  for (let i = idx(sorted[0]!); i <= idx(sorted.at(-1)!); i++) out.push(`${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
  return out;
}

describe('one canonical folder of permits, sales and filings: each answer names the months of the kinds it counts', () => {
  test("37206's rehab: its permits' and sales' months, not the filings' (before: every kind's, the Louisville filings' 2012-13 first); Louisville's overview: the filings'", async () => {
    const permitMonths = (await query<{ m: string }>(':memory:', `
      select distinct strftime(make_timestamp(try_cast(Date_Entered as bigint) * 1000)::date, '%Y-%m') as m
      from (select *, row_number() over (partition by Permit__ order by ObjectId::int) as k from ${NASHVILLE})
      where k = 1 and regexp_full_match(ZIP, '\\d{5}') and try_cast(Date_Entered as bigint) is not null and Address is not null`)).map((r) => r.m);
    // the two sales of 929 CAHAL AVE, 2023-08 and 2024-03: a file of one sale a month, whose empty months between are
    // a true 0 ("Coverage of a window"), so it holds 2023-08..2024-03
    const saleMonths = monthRuns(spanMonths(['2023-08', '2024-03']));
    const filingMonths = (await query<{ m: string }>(':memory:', `
      select strftime("Date Action Filed"::date, '%Y-%m') as m from ${LOUISVILLE}
      where PRCLID <> 'NA' and STNO <> 'NA' order by "Date Action Filed", PRCLID limit 30`)).map((r) => r.m);
    const [rehab] = await query<{ s: string }>(warehouse, `select to_json(source)::varchar as s from mart_answer_source where answer = 'rehab' and market_key = 'zip|37206'`);
    expect(JSON.parse(rehab!.s)).toEqual({ id: 'canonical', name: "Operator's county records in the canonical format", vintage: monthRuns([...spanMonths(permitMonths), ...spanMonths(['2023-08', '2024-03'])]),
      kinds: [{ kind: 'sales', id: 'canonical', vintage: saleMonths }, { kind: 'permits', id: 'canonical', vintage: monthRuns(spanMonths(permitMonths)) }] });
    expect(JSON.parse(rehab!.s).vintage).not.toContain(filingMonths[0]!.slice(0, 4));
    // before: the rehab answer's vintage was the source's, every kind's months (mart_market_source), the filings' first
    const [all] = await query<{ v: string }>(warehouse, `select vintage as v from int_market_source_vintage where source = 'canonical'`);
    expect(all!.v).toBe(monthRuns([...spanMonths(filingMonths), ...spanMonths(permitMonths)]));
    const [investor] = await query<{ s: string }>(warehouse, `select to_json(source)::varchar as s from mart_answer_source where answer = 'investor' and market_key = 'city|KY|louisville'`);
    expect(JSON.parse(investor!.s)).toEqual({ id: 'canonical', name: "Operator's county records in the canonical format", vintage: monthRuns(spanMonths(filingMonths)),
      kinds: [{ kind: 'distress', id: 'canonical', vintage: monthRuns(spanMonths(filingMonths)) }] });
  });

  test("37240's one permit application (a $13.2M renovation) is recorded: the rehab 404 counts it and says why no score", async () => {
    const [raw] = await query<{ n: number; cost: string }>(':memory:', `
      select count(*)::int as n, max(Const_Cost) as cost from (select *, row_number() over (partition by Permit__ order by ObjectId::int) as k from ${NASHVILLE})
      where k = 1 and ZIP = '37240' and try_cast(Date_Entered as bigint) is not null and Address is not null`);
    expect(raw).toEqual({ n: 1, cost: '13200000' });
    const inst = await DuckDBInstance.create(warehouse, { access_mode: 'READ_ONLY' });
    const conn = await inst.connect();
    const cover = await salesCover(conn);
    conn.closeSync(); inst.closeSync();
    const dir = tmp('reii-canon-nash-cover-');
    fs.mkdirSync(path.join(dir, 'live', 'research'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'shards'));
    fs.writeFileSync(path.join(dir, 'live', 'research', 'sales-cover.json'), JSON.stringify(cover));
    const build = { dir, shards: new ShardStore(path.join(dir, 'shards'), 1 << 20) } as unknown as LoadedBuild;
    const reply = (await rehabReply(build, '37240', 12)) as { notFound?: string };
    // before: "no building permit source and no sales source of this build covers the zip (no permit or sale is recorded
    // there)"; then "..., but the zip has no housing unit count: ..." (h27: a unique zip, no Census ZCTA, says it is one)
    expect(reply.notFound).toBe(`No renovation data for zip 37240: it is a PO-box or unique zip of Nashville, TN (no Census ZCTA): it has no area of its own, so no housing unit count and no permit rate, and no home sale is recorded in it, though the Operator's county records in the canonical format source (canonical) covers Davidson County, TN (the county its permits lie in, by the HUD-USPS ZIP-county crosswalk: permits.csv declares no area), the zip's area; it records ${raw!.n} building permit in the zip (not a residential rehab permit); no rehab score can be computed for this zip: ask for the zip of a home's street address`);
  });
});
