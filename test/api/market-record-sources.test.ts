// What the market answers say of the records behind them, over HTTP on the shared real build, recounted from the raw
// files with the adapters' documented keep rules (pipelines/intermediate/30_market_20_permits_nashville.sql: a row with
// a date and a permit number, its number's first line, the zip's first 5 digits; 30_market_31_distress_louisville.sql:
// a row with a filing date and a case number, its case and parcel's first line):
//   - a zip whose permits are recorded but give no score: the rehab 404 counts them and says why (37240's one $13.2M
//     renovation was answered "no permit or sale is recorded there"), over the whole file and in the score's window
//     (of every type and use, and how many of a rehab type, where the file mixes residential rehab with others);
//   - each rehab and investor answer's `source` names the sources of the kinds of record it counts (sales, permits,
//     filings), with vintages recomputed from the raw files' dates: a permits-only score (37206) and a filings-only city
//     (Louisville) had no `source` at all.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, readShard } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { SOURCES } from '../../pipelines/sources/registry.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(() => srv.close());

const NASHVILLE = `read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true)`;
// the adapter's kept applications: their zip, day entered, type and subtype words, declared cost
const KEPT_PERMITS = `
  select left(trim(ZIP), 5) as zip, make_timestamp(try_cast(Date_Entered as bigint) * 1000)::date as d,
         Permit_Type_Description as t, coalesce(Permit_Subtype_Description, '') as st, try_cast(Const_Cost as double) as cost
  from (select *, row_number() over (partition by trim(Permit__) order by ObjectId::int) as k from ${NASHVILLE})
  where k = 1 and nullif(trim(Permit__), '') is not null and try_cast(Date_Entered as bigint) is not null`;
// residential rehab by the adapter's words (Rehab, Addition, Roofing, Fire Damage but a Tenant Finish Out; the subtype's
// use, else the type's; no use: a declared cost of $500,000 or less)
const REHAB_TYPE = `(t not ilike '%tenant finish out%' and (t ilike '%rehab%' or t ilike '%addition%' or t ilike '%roofing%' or t ilike '%fire damage%'))`;
const RESIDENTIAL_REHAB = `${REHAB_TYPE}
  and case when regexp_matches(lower(st), 'single family|duplex|multifamily|townhome|condominium|apartment|dwelling|mobile home|boarding house|group home|fraternity') then true
           when st = '' or regexp_matches(lower(st), '^(accessory|detached garage|addition$|master permit)') then
             case when t ilike 'building residential%' then true when t ilike 'building commercial%' then false else coalesce(cost, 0) <= 500000 end
           else false end`;

const title = (id: string) => SOURCES.find((s) => s.id === id)!.title;
const months = (a: string, b: string) => `${a.slice(0, 7)}..${b.slice(0, 7)}`;

describe('rehab 404 of a zip whose permits give no score', () => {
  test('every zip the raw Nashville file keeps permits in and the build does not score: the 404 counts them (37240: 1, a $13.2M renovation)', async () => {
    // the file's first and last day entered, and each zip's permits of the 12 months to the last (the score's permit
    // window, (last - 12 months, last]: market.md mart_rehab "Window"; review 24: the 404 counted the whole file alone)
    const [file] = await rawQuery<{ a: string; b: string }>(`select min(d)::varchar as a, max(d)::varchar as b from (${KEPT_PERMITS})`);
    const inW12 = `d > date '${file!.b}' - interval 12 month and d <= date '${file!.b}'`;
    const raw = await rawQuery<{ zip: string; n: number; rehab: number; cost: number | null; w12: number; w12types: number; w12rehab: number }>(`
      select zip, count(*)::int as n, count(*) filter (where ${RESIDENTIAL_REHAB})::int as rehab, max(cost) as cost,
             count(*) filter (where ${inW12})::int as w12, count(*) filter (where ${inW12} and ${REHAB_TYPE})::int as w12types,
             count(*) filter (where ${inW12} and ${RESIDENTIAL_REHAB})::int as w12rehab
      from (${KEPT_PERMITS}) where regexp_full_match(zip, '\\d{5}') group by zip order by zip`);
    expect(file).toEqual({ a: '2021-09-16', b: '2024-09-19' });
    expect(raw.find((r) => r.zip === '37240')).toEqual({ zip: '37240', n: 1, rehab: 0, cost: 13_200_000, w12: 1, w12types: 1, w12rehab: 0 });
    expect(raw.find((r) => r.zip === '37027')!.w12).toBeLessThan(raw.find((r) => r.zip === '37027')!.n);
    // 37027: 76 permits, 26 residential rehab; 32 in the window, 15 of a rehab type, 14 of them residential rehab
    expect(raw.find((r) => r.zip === '37027')).toMatchObject({ n: 76, rehab: 26, w12: 32, w12types: 15, w12rehab: 14 });
    const unscored: string[] = [];
    for (const r of raw) {
      const res = await srv.get(`/v1/market/rehab-score?zip=${r.zip}&months=12`, key);
      if (res.status === 200) continue;
      expect(res.status, r.zip).toBe(404);
      unscored.push(r.zip);
      if (r.zip === '37240') continue; // a unique zip (no Census ZCTA): its own words (below; rehab-unaddressed.test.ts)
      const msg = ((await res.json()) as { message: string }).message;
      const rehab = r.rehab === r.n ? (r.n === 1 ? 'a residential rehab permit' : 'all residential rehab permits')
        : r.rehab === 0 ? (r.n === 1 ? 'not a residential rehab permit' : 'none of them a residential rehab permit')
        : `${r.rehab} of them ${r.rehab === 1 ? 'a residential rehab permit' : 'residential rehab permits'}`;
      const inWindow = r.n === 1 ? `it falls ${r.w12 ? 'in' : 'before'}` : `${r.w12 === 0 ? 'none' : r.w12 === r.n ? 'all' : r.w12} of them ${r.w12 === 1 ? 'falls' : 'fall'} in`;
      // where the file mixes residential rehab permits with others, the 404 says how many of the window's are
      // residential rehab permits (the score's own count) and how many rehab-type permits are on other buildings (h25:
      // 37027's "32 of them" of 76, 26 rehab, read as rehab; h26: said by type alone, not by the score's count)
      const which = r.w12rehab === 0 ? (r.w12 === 1 ? 'not a residential rehab permit' : 'none of them a residential rehab permit')
        : r.w12rehab === r.w12 ? (r.w12 === 1 ? 'a residential rehab permit' : 'all of them residential rehab permits')
        : `${r.w12rehab} of them ${r.w12rehab === 1 ? 'a residential rehab permit' : 'residential rehab permits'}`;
      const other = r.w12types - r.w12rehab;
      const mixed = r.w12 === 0 || r.rehab === 0 || r.rehab === r.n ? ''
        : ` (${which}${r.w12rehab ? ': renovation, addition or repair on a residential building, the permits a score counts' : ''}${
          other > 0 ? `; ${other} ${other === 1 ? 'renovation, addition or repair permit is' : 'renovation, addition or repair permits are'} on other buildings, which no score counts` : ''})`;
      expect(msg, r.zip).toContain(`No renovation data for zip ${r.zip}: the Nashville building permit applications source (nashville) records ${r.n === 1 ? '1 building permit' : `${r.n} building permits`} in the zip (${rehab}) in its whole file, ${file!.a} to ${file!.b}; ${inWindow} the 12 months to ${file!.b}, the window a score counts${mixed}; but `);
      expect(msg, r.zip).toMatch(/(under half, so no permit component|the zip has no housing unit count: no permit rate, so no permit component); and no sales source of this build covers the zip, so no rehab resale share: no rehab score can be computed$/);
      expect(msg, r.zip).not.toContain('no permit or sale is recorded');
    }
    // the six zips mostly outside Davidson County (market.md "Permit source area") and two without housing units
    expect(unscored).toEqual(['37015', '37027', '37086', '37122', '37135', '37143', '37232', '37240']);
    const [vandy] = [await (await srv.get('/v1/market/rehab-score?zip=37240&months=12', key)).json()] as { message: string }[];
    // before: "no building permit source and no sales source of this build covers the zip (no permit or sale is recorded
    // there)"; then (h27) "... but the zip has no housing unit count: ...", unlike the other PO-box and unique zips
    expect(vandy!.message).toBe("No renovation data for zip 37240: it is a PO-box or unique zip of Nashville, TN (no Census ZCTA): it has no area of its own, so no housing unit count and no permit rate, and no home sale is recorded in it, though the Nashville building permit applications source (nashville) covers Davidson County, TN, the zip's area; it records 1 building permit in the zip (not a residential rehab permit) in its whole file, 2021-09-16 to 2024-09-19; it falls in the 12 months to 2024-09-19, the window a score counts; no rehab score can be computed for this zip: ask for the zip of a home's street address");
    // its one permit (entered 2024-04-23 in the raw file) is before the 3 months to the file's last day
    const [day] = await rawQuery<{ d: string }>(`select d::varchar as d from (${KEPT_PERMITS}) where zip = '37240'`);
    expect(day!.d < '2024-06-19').toBe(true);
    const [short] = [await (await srv.get('/v1/market/rehab-score?zip=37240&months=3', key)).json()] as { message: string }[];
    expect(short!.message).toContain('records 1 building permit in the zip (not a residential rehab permit) in its whole file, 2021-09-16 to 2024-09-19; it falls before the 3 months to 2024-09-19, the window a score counts; no rehab score can be computed');
  });
});

describe('the source of a rehab and an investor answer: the kinds of record it counts', () => {
  test('37206 (permits alone): the Nashville permit source, its months recomputed from the raw days entered', async () => {
    const [span] = await rawQuery<{ a: string; b: string }>(`select min(d)::varchar as a, max(d)::varchar as b from (${KEPT_PERMITS})`);
    const vintage = months(span!.a, span!.b);
    expect(vintage).toBe('2021-09..2024-09');
    const body = (await (await srv.get('/v1/market/rehab-score?zip=37206&months=12', key)).json()) as Record<string, unknown>;
    // before: no `source` key
    expect(body['source']).toEqual({ id: 'nashville', name: title('nashville'), vintage, kinds: [{ kind: 'permits', id: 'nashville', vintage }] });
    expect(Object.keys(body).at(-1)).toBe('source');
  });

  test('Louisville (filings alone): the lien foreclosure source, its years recomputed from the raw filing dates', async () => {
    const [span] = await rawQuery<{ a: string; b: string }>(`
      select min(d)::varchar as a, max(d)::varchar as b from (
        select try_cast("Date Action Filed" as date) as d, row_number() over (partition by "Civil Case Number", PRCLID) as k
        from read_csv('${dataFile('louisville-metro-lien-foreclosures/foreclosures.csv.gz')}', all_varchar = true)
        where nullif(trim("Civil Case Number"), '') is not null) where d is not null and k = 1`);
    const vintage = `${span!.a.slice(0, 4)}..${span!.b.slice(0, 4)}`;
    expect(vintage).toBe('2012..2016');
    const body = (await (await srv.get('/v1/market/investor-overview?city=Louisville&state=KY&months=12', key)).json()) as Record<string, unknown>;
    expect(body['distressed_pipeline_count']).toBeGreaterThan(0);
    // before: no `source` key
    expect(body['source']).toEqual({ id: 'louisville', name: title('louisville'), vintage, kinds: [{ kind: 'distress', id: 'louisville', vintage }] });
  });

  test('Seattle 98103 and Seattle: the King County sales only, as before, now with their kind', () => {
    const kc = SOURCES.find((s) => s.id === 'king_county')!;
    const want = { id: 'king_county', name: kc.title, vintage: kc.vintage, kinds: [{ kind: 'sales', id: 'king_county', vintage: kc.vintage }] };
    expect(readShard<Record<string, unknown>>('market/rehab/98103/12.json')['source']).toEqual(want);
    expect(readShard<Record<string, unknown>>('market/investor/WA/seattle/12.json')['source']).toEqual(want);
  });
});
