// Review 29's research readings, over the shared real build on the suite's pinned day, each figure recomputed from the
// raw files of ../shared/data (never the build's output): (1) "residential rehab permits" counted every building use
// (Nashville 37206's 19 renovation permits where 18 are residential); (2) "Pittsburg PA" was headed Pittsburg, CA and
// answered for Pittsburgh, PA; (3) every distress answer said "pre-foreclosure, tax-delinquent or lien filings", where
// Louisville's are lien suits only and Allegheny's mortgage foreclosures only; (4) Allegheny County's 24 months summed
// its municipalities' 1,312 where 1,310 properties are; (5) "chicago's Residential Landlord and Tenant Ordinance".
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { NASHVILLE_KIND } from '../../helpers/oracle-raw-permits.ts';
import { ALLEGHENY_OPEN, LOUISVILLE_FILINGS } from '../../helpers/oracle-distress.ts';

const answer = askWithSalesOracle();
/** Allegheny's open properties with their case (a case naming no parcel is a property of its own). */
const withCase = (open: string): string => open.replace('select p.m, p.pin from', 'select p.m, p.pin, p.case_id from');
const ask = async (query: string): Promise<string> => (await answer(query, 'deep')).answer;

/** Nashville's applications kept (a permit number's first row), with kind, building use by the adapter's reading of the
 *  subtype and type (30_market_20_permits_nashville.sql) and the declared cost (0: none). */
const NASHVILLE_USE = `(select *, ${NASHVILLE_KIND} as kind,
    case when regexp_matches(lower(st), 'single family|duplex|multifamily|townhome|condominium|apartment|dwelling|mobile home|boarding house|group home|fraternity') then 'residential'
         when st = '' or regexp_matches(lower(st), '^(accessory|detached garage|addition$|master permit)') then
           case when t ilike 'building residential%' then 'residential' when t ilike 'building commercial%' then 'nonresidential' end
         else 'nonresidential' end as use
  from (select trim("Permit__") as permit, trim("ZIP") as zip, "Permit_Type_Description" as t, coalesce("Permit_Subtype_Description", '') as st,
          nullif(try_cast("Const_Cost" as double), 0) as cost, make_timestamp(try_cast("Date_Entered" as bigint) * 1000)::date as d,
          row_number() over (partition by trim("Permit__") order by rn) as k
        from (select *, row_number() over () as rn from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true)))
  where k = 1 and d is not null and permit is not null)`;

describe('review 29 #1: residential permits of a window', () => {
  it('Nashville 37206: residential renovation and rehab permits by the rehab score\'s test (use, else cost <= $500,000)', async () => {
    const [c] = await rawQuery<{ last: string; reno: number; reno_all: number; rehab: number }>(`
      with w as (select *, case when use is null then coalesce(cost, 0) <= 500000 else use = 'residential' end as res from ${NASHVILLE_USE}
                 where d > (select max(d) from ${NASHVILLE_USE}) - interval 12 month)
      select (select max(d) from ${NASHVILLE_USE})::varchar as last, count(*) filter (where zip = '37206' and kind = 'renovation' and res)::int as reno,
             count(*) filter (where zip = '37206' and kind = 'renovation')::int as reno_all,
             count(*) filter (where zip = '37206' and kind in ('renovation', 'addition', 'repair') and res)::int as rehab from w`);
    expect(c!.reno).toBeLessThan(c!.reno_all); // the reviewer's case: a use asked changes the count
    const reno = await ask('How many residential renovation permits were filed in Nashville 37206 in the last 12 months?');
    expect(reno).toContain(`In zip 37206 (Nashville, TN), ${c!.reno} residential renovation/alteration permits were applied for in the 12 months to ${c!.last}`);
    expect(reno).toContain(`of ${c!.reno_all} renovation/alteration permits of every use`);
    expect(reno).toContain('residential as the rehab momentum score counts its permits');
    expect(reno).not.toContain('these are permits of every building use');
    const rehab = await ask('How many residential rehab permits in Nashville 37206 over 12 months?');
    expect(rehab).toContain(`In zip 37206 (Nashville, TN), ${c!.rehab} residential renovation/alteration, addition or repair permits were applied for in the 12 months to ${c!.last}`);
    expect(rehab).toContain("(the zip's rehab score counts these same permits)");
  });
});

describe('review 29 #2: a close spelling of a city of the state written', () => {
  it('"Pittsburg PA" is headed and answered as Pittsburgh, PA, not Pittsburg, CA', async () => {
    const [o] = await rawQuery<{ n: number }>(`select count(distinct coalesce(pin, 'case:' || case_id))::int as n from ${withCase(ALLEGHENY_OPEN)} where m = 'Pittsburgh'`);
    const a = await ask('How many foreclosure filings are there in Pittsburg PA over the last 12 months?');
    expect(a).toMatch(/^Question read as: investor activity for Pittsburgh, PA\. Note: "Pittsburg PA" as Pittsburgh, PA \(the closest city name in Pennsylvania, the state written/);
    expect(a).not.toContain('Pittsburg, CA');
    expect(a).toContain(`In Pittsburgh, PA, ${o!.n} distressed properties`);
  });
});

describe('review 29 #3: what kind of filing a distress count counts, by the source', () => {
  it('Louisville: the lien suits its file holds, no mortgage foreclosure; Pittsburgh: mortgage foreclosures only', async () => {
    const kinds = (await rawQuery<{ kind: string }>(`select distinct kind from ${LOUISVILLE_FILINGS} order by 1`)).map((r) => r.kind);
    expect(kinds).toEqual(['lien_foreclosure', 'tax_delinquent']);
    const lou = await ask('distressed properties in Louisvile KY');
    expect(lou).toContain('distressed properties (tax-lien foreclosure and code-enforcement or vacant-property lien foreclosure filings, the only kinds its records hold: no mortgage foreclosure is counted)');
    const pit = await ask('Pittsburgh PA foreclosure count');
    expect(pit).toContain('distressed properties (mortgage foreclosure filings, the only kind its records hold: no tax-lien or other lien foreclosure is counted');
    for (const a of [lou, pit]) expect(a).not.toContain('pre-foreclosure, tax-delinquent or lien filings');
  });
});

describe('review 29 #4: a county\'s distinct properties', () => {
  it('Allegheny County over 24 months: each property once, not the sum of its municipalities', async () => {
    const open24 = withCase(ALLEGHENY_OPEN.replace('interval 12 month', 'interval 24 month'));
    const [o] = await rawQuery<{ distinct_n: number; sum_n: number }>(`
      with p as (select m, coalesce(pin, 'case:' || case_id) as k from ${open24})
      select (select count(distinct k) from p)::int as distinct_n, (select sum(n) from (select count(distinct k) as n from p group by m))::int as sum_n`);
    expect(o!.sum_n).toBeGreaterThan(o!.distinct_n); // the reviewer's case: two properties named in two municipalities
    const a = await ask('Allegheny County foreclosure pipeline over the last 24 months');
    expect(a).toContain(`In Allegheny County, PA, ${o!.distinct_n} distressed properties`);
    expect(a).toContain(`their municipalities' counts sum to ${o!.sum_n}, as ${o!.sum_n - o!.distinct_n} properties are named in the filings of more than one municipality`);
  });
});

describe('review 29 #5: a place\'s name keeps its capital', () => {
  it('"security deposit limit in Illinois": Chicago\'s ordinance, capitalised', async () => {
    const a = await ask('What is the security deposit limit in Illinois?');
    expect(a).toContain("Illinois sets no statutory cap on residential security deposits; Chicago's Residential Landlord and Tenant Ordinance");
    expect(a).not.toContain("chicago's");
  });
});
