// The sixteenth research review's misreadings, over the shared real build on the suite's pinned clock: a month name
// next to a year is that month, never a place ("sales in may of 2014 in seattle", "2014 may median seattle" read the
// year, or no market topic, and "2014 May, Texas" read May, TX); a ranking of zips by a year's or a month's sales
// count or median (zip-years.ts); a Chicago community area is that area, answered from its permits (permit-areas.ts),
// never Austin, TX or Logan, UT. Expected figures are our own SQL over the canonical tables (oracle_arms: the
// arm's-length rule re-derived, oracle-research-market.ts).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { buildDir } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { removeTmpDirs, tmp } from '../../helpers/tmp.ts';
import { ResearchData, type PlacesData } from '../../../live/research/data.ts';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { permitAreas } from '../../../live/research/permit-areas-build.ts';
import { openWarehouse } from '../../../warehouse/db.ts';
import { redfinSnapshots } from '../../../live/research/redfin-build.ts';
import { redfinFile } from '../../../live/research/redfin-index.ts';

const ask = askWithSalesOracle();
afterAll(removeTmpDirs);
const usd = (v: number): string => `$${Math.round(v).toLocaleString('en-US')}`;

describe('a month name next to a year', () => {
  it('"sales in may of 2014 in seattle" and "2014 may median seattle" are Seattle\'s May 2014', async () => {
    const [m] = await sql<{ n: number; median: number }>(`select count(*)::int as n, quantile_cont(sale_price, 0.5) as median from oracle_arms
      where state_code = 'WA' and lower(city) = 'seattle' and property_type = 'sfr' and strftime(sale_date, '%Y-%m') = '2014-05'`);
    expect(m!.n).toBeGreaterThan(100);
    for (const q of ['sales in may of 2014 in seattle', '2014 may median seattle', 'Seattle 2014, May median price']) {
      const r = await ask(q);
      expect(r.answer, q).toContain(`In Seattle, WA, in May 2014 there were ${m!.n.toLocaleString('en-US')} arm's-length single-family sales, at a median sale price of ${usd(m!.median)}`);
      expect(r.answer, q).not.toMatch(/May, TX/);
    }
  });
  it('"sales 2014 May, Texas" reads no town of May', async () => {
    const r = await ask('home sales 2014 May, Texas');
    expect(r.answer).not.toMatch(/May, TX/);
  });
});

/** Per zip, the arm's-length sales of one type in the months `months` (YYYY-MM prefix match) kept as the trends keep
 *  them (5 or more sales in a month): the summed count and the middle of the months' medians, most sales first. */
async function zipMonths(where: string, type: string, monthLike: string): Promise<{ zip: string; n: number; mid: number }[]> {
  return sql<{ zip: string; n: number; mid: number }>(`
    with m as (select zip, strftime(sale_date, '%Y-%m') as month, count(*)::int as n, quantile_cont(sale_price, 0.5) as med
               from oracle_arms where ${where} and property_type = $type and zip is not null and strftime(sale_date, '%Y-%m') like $like group by all)
    select zip, sum(n)::int as n, median(med) as mid from m where n >= 5 group by zip order by n desc, zip`, { type, like: monthLike });
}

/** Each zip's arm's-length sales of one year together (5 or more): count and median, the highest median first. */
async function zipYear(where: string, type: string, year: number): Promise<{ zip: string; n: number; med: number }[]> {
  return sql<{ zip: string; n: number; med: number }>(`
    select zip, count(*)::int as n, quantile_cont(sale_price, 0.5) as med from oracle_arms
    where ${where} and property_type = $type and zip is not null and year(sale_date) = $year group by zip having count(*) >= 5 order by med desc, zip`, { type, year });
}

describe('zips ranked by a year\'s or a month\'s count or median', () => {
  it('"Which NYC zip had the most sales in 2023?": the zips by their 2023 single-family sales, the months the source covers said', async () => {
    const rows = await zipMonths("source = 'nyc'", 'sfr', '2023-%');
    const r = await ask('Which NYC zip had the most sales in 2023?');
    expect(r.answer).toContain('the data holds 10 months of 2023, 2023-03 to 2023-12');
    expect(r.answer).toContain('2023-01 to 2023-02 are not covered by the source');
    expect(r.answer).toContain(`1. zip ${rows[0]!.zip} (Staten Island) ${rows[0]!.n} sales; 2. zip ${rows[1]!.zip} (Staten Island) ${rows[1]!.n} sales`);
    expect(r.answer).toMatch(/zips of the \d+ \(none of those listed\) have months with fewer than 5 sales/);
  });
  it('"top 5 zips in Brooklyn by number of sales in 2022": Brooklyn\'s five, of 2022-01..03 (the file ends 2022-03)', async () => {
    const rows = await zipMonths("source = 'nyc' and split_part(parcel_id, '-', 1) = '3'", 'sfr', '2022-%');
    const r = await ask('top 5 zips in Brooklyn by number of sales in 2022');
    expect(r.answer).toContain('the data holds 3 months of 2022, 2022-01 to 2022-03');
    expect(r.answer).toContain(rows.slice(0, 5).map((x, i) => `${i + 1}. zip ${x.zip} ${x.n} sales`).join('; '));
  });
  it('"which Seattle zip had the highest median price in 2014" (and in June 2014): ranked by 2014\'s months, not the latest 12', async () => {
    // one year: each zip's 2014 sales together (market.json years; before h75 the middle of its monthly medians)
    const year = await zipYear("state_code = 'WA' and lower(city) = 'seattle'", 'sfr', 2014);
    const r = await ask('which Seattle zip had the highest median price in 2014');
    expect(r.answer).toContain(`1. zip ${year[0]!.zip} ${usd(year[0]!.med)} (${year[0]!.n} sales of 2014 together)`);
    expect(r.answer).toContain('by median single-family sale price of each zip\'s sales together in 2014');
    const june = (await zipMonths("state_code = 'WA' and lower(city) = 'seattle'", 'sfr', '2014-06')).sort((a, b) => b.mid - a.mid);
    const m = await ask('which Seattle zip had the highest median price in June 2014');
    expect(m.answer).toContain(`1. zip ${june[0]!.zip} ${usd(june[0]!.mid)} (${june[0]!.n} sales over 1 month)`);
  });
});

let indexed: Promise<ResearchData> | null = null;
/** The shared build's research index with Chicago's community areas and the Redfin snapshots in it: the build's own
 *  when it has them, else the index step's functions (permit-areas-build.ts, redfin-build.ts) run over the build's
 *  warehouse, beside the build's shards (a build made before these steps). */
function withPermitAreas(): Promise<ResearchData> {
  indexed ??= makeIndex();
  return indexed;
}
async function makeIndex(): Promise<ResearchData> {
  const src = buildDir();
  const own = ResearchData.fromBuild(src)!;
  if (own.permitAreas.length && fs.existsSync(path.join(src, 'live', 'research', 'redfin.json'))) return own;
  const dst = tmp('reii-h16-areas-');
  fs.mkdirSync(path.join(dst, 'live', 'research'), { recursive: true });
  fs.symlinkSync(path.join(src, 'shards'), path.join(dst, 'shards'));
  fs.copyFileSync(path.join(src, 'manifest.json'), path.join(dst, 'manifest.json'));
  for (const f of fs.readdirSync(path.join(src, 'live', 'research'))) fs.copyFileSync(path.join(src, 'live', 'research', f), path.join(dst, 'live', 'research', f));
  const wh = await openWarehouse(path.join(src, 'warehouse.duckdb'), { readOnly: true });
  const conn = await wh.connect();
  try {
    const places = JSON.parse(fs.readFileSync(path.join(dst, 'live', 'research', 'places.json'), 'utf8')) as PlacesData;
    places.permit_areas = await permitAreas(conn);
    fs.writeFileSync(path.join(dst, 'live', 'research', 'places.json'), JSON.stringify(places));
    fs.writeFileSync(path.join(dst, 'live', 'research', 'redfin.json'), JSON.stringify(redfinFile(await redfinSnapshots(conn))));
  } finally { conn.closeSync(); wh.close(); }
  return ResearchData.fromBuild(dst)!;
}

/** Per community area of the raw Chicago permits file, the permits kept (first row of a permit number, not cancelled or
 *  revoked) issued in the 12 months to the file's last such permit: all, renovation/alteration and its reported cost. */
async function rawAreas(): Promise<Map<string, { asOf: string; all: number; reno: number; cost: number }>> {
  const rows = await rawQuery<{ n: string; a: string; all: number; reno: number; cost: number }>(`
    with r as (select row_number() over () as ln, * from read_csv('${dataFile('chicago-building-permits/chicago_building_permits_2023-01_2026-07.csv.gz')}', all_varchar = true)),
    k as (select * from (select *, row_number() over (partition by permit_number order by ln) as rn from r where permit_number is not null and try_cast(issue_date as date) is not null)
          where rn = 1 and coalesce(permit_status, '') not in ('CANCELLED', 'REVOKED') and community_area_name is not null),
    e as (select max(issue_date::date) as as_of from k)
    select community_area_name as n, strftime(e.as_of, '%Y-%m-%d') as a, count(*)::int as "all",
           count(*) filter (where permit_type like '%RENOVATION/ALTERATION%')::int as reno,
           coalesce(sum(try_cast(reported_cost as double)) filter (where permit_type like '%RENOVATION/ALTERATION%' and try_cast(reported_cost as double) > 0), 0) as cost
    from k cross join e where issue_date::date > e.as_of - interval 12 month group by all`);
  return new Map(rows.map((r) => [r.n, { asOf: r.a, all: r.all, reno: r.reno, cost: Number(r.cost) }]));
}

describe('Chicago community areas', () => {
  let engine: ResearchEngine;
  beforeAll(async () => { engine = new ResearchEngine(await withPermitAreas(), null, PINNED_TODAY); }, 600_000);
  const said = (name: string, r: { asOf: string; all: number; reno: number; cost: number }): string =>
    `in ${name} (Chicago, IL), ${r.all.toLocaleString('en-US')} building permits were issued in the 12 months to ${r.asOf}: ${r.reno.toLocaleString('en-US')} renovation/alteration permits (reported cost ${usd(r.cost)})`;
  it('"Austin vs Humboldt Park", "permits in Logan Square", "Pilsen rehab": the areas\' permits, never Austin, TX, Logan, UT or Humboldt, TN', async () => {
    const raw = await rawAreas();
    const [austin, humboldt, logan, lws] = ['Austin', 'Humboldt Park', 'Logan Square', 'Lower West Side'].map((n) => raw.get(n)!);
    const a = await engine.answer({ query: 'Austin vs Humboldt Park', depth: 'quick' });
    expect(a.answer).toContain(said('Austin', austin!));
    expect(a.answer).toContain(said('Humboldt Park', humboldt!));
    expect(a.answer).toContain(`so ${austin!.reno > humboldt!.reno ? 'Austin' : 'Humboldt Park'} had the most renovation/alteration permits`);
    expect((await engine.answer({ query: 'permits in Logan Square', depth: 'quick' })).answer).toContain(said('Logan Square', logan!));
    expect((await engine.answer({ query: 'permits in Logan Square', depth: 'deep' })).answer).toContain(`Sources: reii warehouse: Chicago building permits by community area (City of Chicago Department of Buildings), 12 months to ${logan!.asOf}`);
    const p = await engine.answer({ query: 'Pilsen rehab', depth: 'quick' });
    expect(p.answer).toContain('"Pilsen" as Lower West Side, the Chicago community area that holds it');
    expect(p.answer).toContain(said('Lower West Side', lws!));
    for (const r of [a, p]) expect(r.answer).not.toMatch(/, TX|, UT|, TN/);
    // a price asked of an area: said not kept per community area; a legal topic: Chicago's rules
    expect((await engine.answer({ query: 'median price in Logan Square', depth: 'quick' })).answer).toContain('not per community area, so only permits are answered');
    expect((await engine.answer({ query: 'eviction notice in Logan Square', depth: 'quick' })).answer).toMatch(/as Chicago, IL .*In Illinois/);
    // "Austin" alone, with no Chicago word, stays Austin, TX
    expect((await engine.answer({ query: 'Austin home prices', depth: 'quick' })).answer).toContain('Austin, TX');
  });
});

describe('days on market asked past the sales', () => {
  it('"days on market in 98103 in August 2025": Redfin\'s figure, the 90 days and month it is from, never "no figure"', async () => {
    const raw = await rawQuery<{ e: string; d: number; s: number }>(`select period_end as e, median_dom::double as d, homes_sold::int as s
      from read_csv('${dataFile('redfin-zip-market-snapshots/redfin_zip_latest_2025-05_to_2025-09.csv.gz')}', all_varchar = true)
      where zip_code = '98103' and period_end like '2025-0%' order by period_end`);
    const aug = raw.find((r) => r.e === '2025-08-31')!, sep = raw.find((r) => r.e === '2025-09-30')!;
    const [{ last }] = await sql<{ last: string }>("select strftime(max(sale_date), '%Y-%m') as last from oracle_arms where zip = '98103'") as [{ last: string }];
    const engine = new ResearchEngine(await withPermitAreas(), null, PINNED_TODAY);
    const a = await engine.answer({ query: 'days on market in 98103 in August 2025', depth: 'quick' });
    expect(a.answer).toContain(`the sales records of zip 98103 (Seattle, WA) end ${last} and carry no listing dates`);
    expect(a.answer).toContain(`a median ${Number(aug.d)} days on market over the 90 days to 2025-08-31 (so from 2025-08 and the two months before it`);
    expect(a.answer).toContain(`only ${aug.s} homes sold, too few to stand for the zip`);
    expect(a.answer).not.toMatch(/price per sqft for the latest months/);
    const s = await engine.answer({ query: 'days on market in 98103 in September 2025', depth: 'quick' });
    expect(s.answer).toContain(`a median ${Number(sep.d)} days on market over the 90 days to 2025-09-30`);
    const m = await engine.answer({ query: 'days on market 98103 in March 2016', depth: 'quick' });
    expect(m.answer).toContain('has no days-on-market figure for March 2016');
    expect(m.answer).toContain(`the Redfin zip tracker snapshots we keep end in ${raw.map((r) => r.e.slice(0, 7)).join(', ')}`);
  });
});
