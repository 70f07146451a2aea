// Questions the h68ask sweep found misread (session 68), over the shared real build on the suite's pinned day: (1) a
// property type no sales source of the market records ("land price trend in Denver": Denver's deeds are classed
// single-family, rowhouse or condominium, never land) said "no month with 20 or more land sales ... too few", thin data
// where the data holds none; (2) "flip velocity jefferson county ky" said "this build has no sales of a city of
// Jefferson County; name one of them", of no city that would answer; (3) states of no sales compared ("compare texas
// and ohio home prices") were asked to name a city, and a zip of no sales compared said "no data" with no why; (4) "how
// many homes sold in pittsburgh after foreclosure" said "We have no single-family sales for Pittsburgh, PA." and no
// more, where the build holds its foreclosure filings. Each is re-read from the raw files (the deeds' classes, the
// filings) or the warehouse, never typed in.
import { describe, expect, it } from 'vitest';
import { sql } from '../../helpers/oracle-research.ts';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { CHICAGO, CHICAGO_KIND, NASHVILLE, NASHVILLE_KIND, permitCounts } from '../../helpers/oracle-raw-permits.ts';

const asked = askWithSalesOracle();
const ask = async (query: string, depth: 'quick' | 'deep' = 'quick'): Promise<string> => (await asked(query, depth)).answer;

describe('a property type no sales source of the market records', () => {
  it('"land price trend in Denver": the source records no land sale at all, and what it does record (before: "no month with 20 or more land sales ... too few")', async () => {
    // Denver's raw deeds: every class is a dwelling's, none is land
    const classes = await rawQuery<{ c: string }>(`select distinct coalesce(D_CLASS_CN, '') as c from read_csv('${dataFile('denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz')}', all_varchar = true)`);
    expect(classes.length).toBeGreaterThan(0);
    expect(classes.filter((r) => /land|vacant|lot\b/i.test(r.c))).toEqual([]);
    const [t] = await sql<{ types: string }>("select string_agg(distinct property_type, ',' order by property_type) as types from sales where source = 'denver'");
    const types = t!.types.split(',');
    expect(types).not.toContain('land');
    for (const [q, what] of [['land price trend in Denver', 'price trend'], ['how many land sales in denver', 'sales count'], ['denver land prices', 'median sale price']] as const) {
      const a = await ask(q);
      expect(a, q).toMatch(new RegExp(`^We have no land ${what} for Denver, CO: its sales source, Denver real property sales and transfers 2018-2019, records no land sale at all \\(its sales are `));
      for (const k of types) expect(a, q).toContain({ sfr: 'single-family', condo: 'condo', multi: 'multi-family', commercial: 'commercial' }[k]!);
      expect(a, q).not.toMatch(/too few for|no month with|\$/);
    }
    // a type the sources do record keeps its figures
    expect(await ask('denver condo prices')).toMatch(/^In Denver, CO, the median condo sale price was \$[\d,]+ in \d{4}-\d{2}/);
  });

  it('"sacramento commercial prices": Sacramento\'s file types no sale commercial, said so', async () => {
    const kinds = await rawQuery<{ t: string }>(`select distinct type as t from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)`);
    expect(kinds.filter((r) => /commercial/i.test(r.t))).toEqual([]);
    const a = await ask('sacramento commercial prices');
    expect(a).toMatch(/^We have no commercial median sale price for Sacramento, CA: its sales source, .*, records no commercial sale at all/);
    expect(a).not.toMatch(/too few for|no month with/);
  });
});

describe('places of no sales say why and what the build holds there', () => {
  it('"flip velocity jefferson county ky": no sales source covers the county, its lien foreclosure filings named, no figure (before: "name one of them")', async () => {
    const [s] = await sql<{ n: number }>("select count(*)::int as n from sales s join zips z using (zip) where z.county_fips = '21111'");
    expect(s!.n).toBe(0);
    const [f] = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${dataFile('louisville-metro-lien-foreclosures/foreclosures.csv.gz')}', all_varchar = true)`);
    expect(f!.n).toBeGreaterThan(0);
    for (const q of ['flip velocity jefferson county ky', 'investor share in Jefferson County, KY']) {
      const a = await ask(q);
      expect(a, q).toMatch(/^We have no investor activity \(investor share, flips and their hold or margin, all told from sales\) for Jefferson County, KY: no sales source of this build covers it/);
      expect(a, q).toContain('what it holds there is foreclosure and lien filings (Louisville Metro lien foreclosures, naming Louisville)');
      expect(a, q).not.toMatch(/name one of them|%|\bdays\b/);
    }
    // a county with cities of sales keeps its list
    expect(await ask('flip velocity king county wa')).toContain('the cities of King County with sales in this build: Seattle');
  });

  it('"compare texas and ohio home prices": no sales source has a sale in either state, said of each (before: "name one in Texas or Ohio")', async () => {
    const [s] = await sql<{ n: number }>("select count(*)::int as n from sales where state_code in ('TX', 'OH')");
    expect(s!.n).toBe(0);
    const a = await ask('compare texas and ohio home prices');
    expect(a).toMatch(/^We have no home sale prices or price trends for Texas: no sales source of this build has a sale anywhere in it \(its sales sources are .*King County WA house sales 2014-2015/);
    expect(a).toContain('Ohio');
    expect(a).not.toMatch(/name one in|\$/);
    expect(await ask('how many homes sold in ohio')).toMatch(/^We have no sales count for Ohio: no sales source of this build has a sale anywhere in it/);
    // a state with sales keeps its answer (Connecticut: its own market)
    expect(await ask('connecticut home prices')).not.toContain('no sales source of this build');
  });

  it('a zip of no sales compared says why beside the other\'s figure (before: "zip 60614 (Chicago, IL) no data")', async () => {
    const [s] = await sql<{ n: number }>("select count(*)::int as n from sales where zip in ('60614', '40211')");
    expect(s!.n).toBe(0);
    // 98103's figure beside it, as asked alone
    const [kc] = await rawQuery<{ n: number; m: number }>(`select count(*)::int as n, median(price)::double as m from read_csv_auto('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}')
      where zipcode::varchar = '98103' and left(date, 6) = '201504'`);
    const a = await ask('compare 98103 and 60614 home prices');
    expect(a).toContain(`zip 98103 (Seattle, WA) $${kc!.m.toLocaleString('en-US')} (2015-04, ${kc!.n} sales)`);
    expect(a).toContain('zip 60614 (Chicago, IL) no data (no sales source of this build covers it; what it holds there is building permits: ask "permits in 60614"');
    const b = await ask('compare 98103 and 40211 home prices');
    expect(b).toContain('zip 40211 (Louisville, KY) no data (no sales source of this build covers it; what it holds there is foreclosure and lien filings (Louisville Metro lien foreclosures): ask "foreclosures in 40211"');
  });

  it('"how many homes sold in pittsburgh after foreclosure": no sales source covers Pittsburgh, its foreclosure filings named, and that question answers', async () => {
    const [s] = await sql<{ n: number }>("select count(*)::int as n from sales where state_code = 'PA' and lower(city) = 'pittsburgh'");
    expect(s!.n).toBe(0);
    const [f] = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${dataFile('allegheny-county-mortgage-foreclosures/foreclosures.csv.gz')}', all_varchar = true) where municipality ilike 'pittsburgh%'`);
    expect(f!.n).toBeGreaterThan(0);
    const a = await ask('how many homes sold in pittsburgh after foreclosure');
    expect(a).toContain('We have no single-family sales for Pittsburgh, PA: no sales source of this build covers it');
    expect(a).toContain('what it holds there is foreclosure and lien filings (Allegheny County mortgage foreclosure filings): ask "foreclosures in Pittsburgh, PA"');
    expect(await ask('foreclosures in Pittsburgh, PA')).toMatch(/^In Pittsburgh, PA, [\d,]+ distressed properties/);
  });
});

describe('the sweep\'s own finds', () => {
  it('"least landlord friendly states": the lowest scores, never the friendliest (before: Texas 99.3 first)', async () => {
    const rows = await sql<{ name: string; score: number }>('select state_name as name, landlord_friendliness_score::double as score from state_legal where landlord_friendliness_score is not null order by score asc');
    const a = await ask('least landlord friendly states');
    expect(a).toMatch(/^By our landlord friendliness composite \(0-100, higher is friendlier to landlords\), the most tenant-friendly \(lowest scores\)/);
    expect(a).toContain(`${rows[1]!.name} ${rows[1]!.score}`);
    expect(a).not.toContain(`${rows.at(-1)!.name} ${rows.at(-1)!.score}`);
    // the friendliest still first when asked so; "least tenant friendly" is the most landlord-friendly
    for (const q of ['most landlord friendly states', 'least tenant friendly states']) expect(await ask(q), q).toContain(`the most landlord-friendly of the ${rows.length} jurisdictions with a score are: ${rows.at(-1)!.name} ${rows.at(-1)!.score}`);
  });

  it('"demolitions in nashville 2023" / "demolitions in chicago": demolition permits counted from the raw files (before: the rehab score, or no topic read)', async () => {
    const nash = await permitCounts(NASHVILLE, NASHVILLE_KIND, "upper(city) = 'NASHVILLE' and year(d) = 2023");
    expect(nash.of('demolition')).toBeGreaterThan(0);
    expect(await ask('demolitions in nashville 2023')).toMatch(new RegExp(`^In Nashville, TN, ${nash.of('demolition')} demolition permits were applied for in 2023, of ${nash.all.toLocaleString('en-US')} permits of every kind`));
    const all = await permitCounts(CHICAGO, CHICAGO_KIND, 'true');
    const chi = await permitCounts(CHICAGO, CHICAGO_KIND, `d > date '${all.last}' - interval 12 month and d <= date '${all.last}'`);
    const a = await ask('demolitions in chicago');
    expect(a).toMatch(new RegExp(`^In Chicago, IL, ${chi.of('demolition')} demolition permits were issued in the 12 months to ${all.last}`));
    expect(a).toContain(`of ${chi.all.toLocaleString('en-US')} permits of every kind`);
    expect(a).not.toContain("I don't have data");
  });
});
