// A metro area asked a sale price or a sales count (POST /v1/research/query; live/research/metro.ts): answered over the
// counties of its CBSA the build has sales for, naming the covered and the uncovered ones, the window and the type,
// never a one-county figure as the metro's. Over the shared real build; every figure and county list is recomputed
// from the raw files: the OMB delineation (census-cbsa-delineation-2023), King County's and Sacramento's sales files
// and the HUD zip -> county crosswalk. Before metro.ts, "Seattle metro" answered Seattle's own month.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

let engine: ResearchEngine;
const ask = async (query: string) => (await engine.answer({ query, depth: 'quick' })).answer;
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The counties of a CBSA by the raw delineation file. */
const cbsaCounties = async (code: string): Promise<string[]> => (await rawQuery<{ n: string }>(`
  select "County/County Equivalent" as n from read_csv('${dataFile('census-cbsa-delineation-2023/list1_Jul_2023.csv')}', all_varchar = true)
  where "CBSA Code" = '${code}'`)).map((r) => r.n);

/** Sacramento's raw sales (residential, $10,000 or more, exact copies once, a near copy (same street, zip and day,
 *  prices within 0.5%) once: warehouse/docs/market.md), each with its zip's HUD county (most addresses) and its city. */
const SAC = `
  x as (select ZIP as zip, COUNTY as county, row_number() over (partition by ZIP order by TOT_RATIO::double desc) as k
        from read_csv('${dataFile('hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz')}', all_varchar = true)),
  s0 as (select distinct upper(street) as street, zip, upper(city) as city, sale_date_iso as d, price::double as p
         from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
         where "type" = 'Residential' and price::double >= 10000),
  g as (select street, zip, d, max(p) - min(p) <= 0.005 * max(p) as near from s0 group by all),
  s as (select s0.* from s0 join g using (street, zip, d) where not g.near
        union all select any_value(s0.street), s0.zip, any_value(s0.city), s0.d, max(s0.p) from s0 join g using (street, zip, d) where g.near group by s0.street, s0.zip, s0.d),
  j as (select s.*, x.county from s join x on x.zip = s.zip and x.k = 1)`;

beforeAll(() => {
  engine = new ResearchEngine(researchData(), null, PINNED_TODAY);
});

describe('a metro area asked a sale price', () => {
  it('Seattle metro (and the Seattle area, greater Seattle): King County only, 1 of the CBSA\'s 3 counties, the others named, the 12-month figure of the raw King County file', async () => {
    const counties = await cbsaCounties('42660');
    expect(counties.sort()).toEqual(['King County', 'Pierce County', 'Snohomish County']);
    const [k] = await rawQuery<{ n: number; m: number; a: string; b: string }>(`
      with r as (select price::double as p, strptime(left(date, 8), '%Y%m%d')::date as d
                 from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))
      select count(*)::int as n, median(p) as m, cast(min(d) as varchar) as a, cast(max(d) as varchar) as b from r
      where d > (select max(d) from r) - interval 12 month`);
    for (const q of ['median sale price in the Seattle metro', 'Seattle area home prices', 'what do homes sell for in greater Seattle']) {
      const a = await ask(q);
      expect(a, q).toMatch(/as the Seattle-Tacoma-Bellevue, WA metro area \(OMB July 2023 delineation\): we have sales for King County only \(1 of its 3 counties; (Pierce County and Snohomish County|Snohomish County and Pierce County) not covered\)/);
      expect(a, q).toContain(`in the 12 months to ${k!.b} there were ${k!.n.toLocaleString('en-US')} arm's-length single-family sales, dated ${k!.a} to ${k!.b}, at a median sale price of ${usd(k!.m)}: a figure of King County alone, not of the whole metro area`);
    }
    // a part no source records is said, beside the metro's figure
    const rents = await ask('rents and the median sale price in the Seattle metro');
    expect(rents).toContain(`at a median sale price of ${usd(k!.m)}: a figure of King County alone`);
    expect(rents).toMatch(/rents?\b.*that part of the question is not answered/);
    // a year asked ("area in 2014" is the metro's, not an area within it): that year's sales of the raw file
    const [y] = await rawQuery<{ n: number; m: number; a: string; b: string }>(`
      with r as (select price::double as p, strptime(left(date, 8), '%Y%m%d')::date as d
                 from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))
      select count(*)::int as n, median(p) as m, cast(min(d) as varchar) as a, cast(max(d) as varchar) as b from r where year(d) = 2014`);
    // the months of 2014 before the file's first sale are said (review 24: metro.ts metroGap)
    const before = Number(y!.a.slice(5, 7)) - 1;
    const gap = ` (the source files cover none of 2014-01${before > 1 ? ` to 2014-${String(before).padStart(2, '0')}` : ''}, inside 2014, so these sales fall in the ${12 - before} months of it they cover: King County WA house sales 2014-2015 covers ${y!.a.slice(0, 7)} to 2015-05)`;
    expect(await ask('how many sales in the Seattle area in 2014')).toContain(`in 2014${gap} there were ${y!.n.toLocaleString('en-US')} arm's-length single-family sales, dated ${y!.a} to ${y!.b}, at a median sale price of ${usd(y!.m)}: a figure of King County alone`);
    // an area within a city, the first city's area of another metro's principal city, and a legal question: no metro figure
    for (const q of ['which area of Seattle is cheapest', 'median price in the Bellevue area', 'eviction notice in the Seattle area']) {
      expect(await ask(q), q).not.toContain('OMB July 2023 delineation');
    }
  });

  it('Sacramento MSA: all 4 counties, the metro\'s count, median and county counts, and its suburbs (outside the city of Sacramento), as the raw file gives them', async () => {
    const counties = await cbsaCounties('40900');
    expect(counties).toHaveLength(4);
    const rows = await rawQuery<{ county: string | null; n: number; m: number; sub: number; subm: number }>(`
      with ${SAC}, cb as (select "FIPS State Code" || "FIPS County Code" as f from read_csv('${dataFile('census-cbsa-delineation-2023/list1_Jul_2023.csv')}', all_varchar = true) where "CBSA Code" = '40900')
      select county, count(*)::int as n, median(p) as m, count(*) filter (where city <> 'SACRAMENTO')::int as sub, median(p) filter (where city <> 'SACRAMENTO') as subm
      from j where county in (select f from cb) group by rollup(county) order by n desc`);
    const all = rows.find((r) => r.county === null)!;
    const by = rows.filter((r) => r.county !== null);
    expect(by).toHaveLength(4);
    const a = await ask('Sacramento MSA median price');
    expect(a).toMatch(/as the Sacramento-Roseville-Folsom, CA metro area \(OMB July 2023 delineation\): we have sales for all 4 of its counties/);
    expect(a).toContain(`there were ${all.n} arm's-length single-family sales, dated 2008-05-15 to 2008-05-21, at a median sale price of ${usd(all.m)}`);
    const names: Record<string, string> = { '06067': 'Sacramento County', '06061': 'Placer County', '06017': 'El Dorado County', '06113': 'Yolo County' };
    expect(a).toContain(`by county: ${by.map((r) => `${names[r.county!]} ${r.n}`).join(', ')}`);
    const s = await ask('Sacramento suburbs median price');
    expect(s).toContain(`as the Sacramento-Roseville-Folsom, CA metro area outside the city of Sacramento`);
    expect(s).toMatch(new RegExp(`, outside the city of Sacramento \\(a sale's city as its source names it[^)]*\\), there were ${all.sub} arm's-length single-family sales, dated 2008-05-15 to 2008-05-21, at a median sale price of ${esc(usd(all.subm))}`));
  });

  it('metros the build has no sales of say so, with their counties counted from the delineation', async () => {
    for (const [q, codes, title] of [
      ['Pittsburgh metro home prices', ['38300'], 'the Pittsburgh, PA metro area'],
      ['DC metro median price', ['47900'], 'the Washington-Arlington-Alexandria, DC-VA-MD-WV metro area'],
      ['median home price in the Bay Area', ['41860', '41940'], 'the Bay Area'],
      ['Twin Cities home prices', ['33460'], 'the Twin Cities (the Minneapolis-St. Paul-Bloomington, MN-WI metro area'],
    ] as const) {
      const n = (await Promise.all(codes.map(cbsaCounties))).flat().length;
      const a = await ask(q);
      expect(a, q).toContain(`as ${title}`);
      expect(a, q).toMatch(new RegExp(`we have no sales for any of (its|their) ${n} counties \\(.*\\); so no single-family sale price or sales count of it is kept`));
      expect(a, q).not.toMatch(/\$\d/);
    }
  });

  it('Philly suburbs: the one covered county is the city itself, so no suburb is answered; NYC metro: its 5 boroughs of its counties, never a suburb\'s', async () => {
    const philly = await cbsaCounties('37980');
    const a = await ask('Philly suburbs median price');
    expect(a).toContain(`we have sales for Philadelphia County, PA only (1 of its ${philly.length} counties;`);
    expect(a).toContain('all of its sales in this build are of the city of Philadelphia itself, so none is of its suburbs');
    expect(a).not.toMatch(/\$\d/);
    const nyc = await cbsaCounties('35620');
    const b = await ask('NYC metro median price');
    expect(b).toMatch(new RegExp(`as the New York-Newark-Jersey City, NY-NJ metro area \\(OMB July 2023 delineation\\): we have sales for .* only \\(5 of its ${nyc.length} counties; the other ${nyc.length - 5}, `));
    for (const c of ['Kings County, NY (Brooklyn)', 'New York County, NY (Manhattan)', 'Queens County, NY', 'Bronx County, NY', 'Richmond County, NY (Staten Island)']) expect(b).toContain(c);
    expect(b).toContain('a figure of these 5 counties alone, not of the whole metro area');
    const d = await ask('Denver metro area median sale price');
    expect(d).toContain(`we have sales for Denver County only (1 of its ${(await cbsaCounties('19740')).length} counties;`);
  });
});
