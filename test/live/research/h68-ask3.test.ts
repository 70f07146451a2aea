// Questions the h68ask3 sweep found answered with a figure that did not say what it is not, over the shared real
// build on the suite's pinned day: a Denver neighbourhood ("capitol hill denver home prices": Denver's whole-city
// figure, unsaid), a zip asked of Denver (its sales carry no zip), King County since 2020 (every sale is of 2014-2015:
// before, "name one of them"), a Zillow value asked (our sales median, unsaid), an address with no street suffix ("1
// broadway": not read, unsaid) and a hurricane's risk (before, "I don't have data": the county's composite NRI kept).
// Each is re-read from the raw files.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle, researchData } from '../../helpers/research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { lookupsOf, ResearchEngine } from '../../../live/research/endpoint.ts';
import { buildDir } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

const asked = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await asked(query)).answer;
const DENVER = dataFile('denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz');
const KC = dataFile('king-county-wa-house-sales/kc_house_data.csv.gz');

describe('Denver: whole-city figures, said so', () => {
  it('"capitol hill denver home prices", "five points denver": neighbourhoods of the source, not broken out; the figure said to be Denver\'s whole-city one', async () => {
    const hoods = (await rawQuery<{ h: string }>(`select distinct upper(trim(NBHD_1_CN)) as h from read_csv('${DENVER}', all_varchar = true)`)).map((r) => r.h);
    expect(hoods).toContain('CAPITOL HILL');
    expect(hoods).toContain('FIVE POINTS');
    const city = await ask('denver home prices');
    expect(city).toMatch(/^In Denver, CO, the median single-family sale price was \$[\d,]+/);
    for (const [q, words] of [['capitol hill denver home prices', 'capitol hill'], ['five points denver home prices', 'five points']] as const) {
      expect(await ask(q), q).toBe(`Reading "${words}" as a neighbourhood of Denver, CO: we do not resolve neighbourhoods, so the figures are for Denver as a whole: ${city}`);
    }
    // named alone with Denver, no topic: Denver's figures, said as the neighbourhood's city (before: "I don't have data")
    expect(await ask('five points denver')).toMatch(/^Reading "five points" as a neighbourhood of Denver, CO: we do not resolve neighbourhoods, so the figures are for Denver as a whole: In Denver, CO, /);
    expect(city).not.toContain('neighbourhood');
    // Washington's, never Denver's: the build's sales sources, named as what is covered (h74ask), include Denver's file
    const dc = await ask('capitol hill dc home prices');
    expect(dc).toMatch(/^Reading "capitol hill" as a neighbourhood of Washington, DC: /);
    expect(dc).not.toMatch(/Denver, CO|neighbourhood of Denver|In Denver/);
  });

  it('"best zip for flipping in denver": Denver\'s sales carry no zip, said beside its city figures', async () => {
    const [head] = await rawQuery<{ cols: string }>(`select string_agg(column_name, ',') as cols from (describe select * from read_csv('${DENVER}', all_varchar = true))`);
    expect(head!.cols.toLowerCase()).not.toMatch(/zip|postal/);
    const a = await ask('best zip for flipping in denver');
    expect(a).toMatch(/^In Denver, CO, investors bought/);
    expect(a).toMatch(/No zip of Denver is given or ranked: Denver's [\d,]+ arm's-length single-family sales in the 12 months to \d{4}-\d{2}-\d{2} carry no zip code in the source/);
    expect(await ask('flips in denver')).not.toContain('No zip of Denver');
  });
});

describe('what a figure is, and the dates a source covers', () => {
  it('"how many houses sold in king county since 2020": the months its sales run, from the raw file, and no count (before: "name one of them")', async () => {
    const [r] = await rawQuery<{ a: string; b: string; late: number }>(`select min(left(date, 6)) as a, max(left(date, 6)) as b, count(*) filter (where left(date, 4) >= '2020')::int as late from read_csv_auto('${KC}', all_varchar = true)`);
    expect(r!.late).toBe(0);
    const month = (x: string): string => `${x.slice(0, 4)}-${x.slice(4, 6)}`;
    const a = await ask('how many houses sold in king county since 2020');
    expect(a).toBe(`I don't have single-family sales for King County, WA since 2020: the monthly single-family sales we keep for its zips run from ${month(r!.a)} to ${month(r!.b)}, so 2020 is outside the data.`);
    // a year the file holds keeps its count
    expect(await ask('how many houses sold in king county in 2015')).toMatch(/^In King County, WA, in 2015 there were [\d,]+ arm's-length single-family sales/);
  });

  it('"median home value zillow 98103": the median of recorded sales, its source named, no Zillow figure', async () => {
    expect(fs.readdirSync('/work/shared/data').filter((d) => /zillow|zhvi/i.test(d))).toEqual([]);
    const [kc] = await rawQuery<{ n: number; m: number }>(`select count(*)::int as n, median(price)::double as m from read_csv_auto('${KC}') where zipcode::varchar = '98103' and left(date, 6) = '201504'`);
    const a = await ask('median home value zillow 98103');
    expect(a).toContain(`In zip 98103 (Seattle, WA), the median single-family sale price was $${kc!.m.toLocaleString('en-US')} in 2015-04 (${kc!.n} sales)`);
    expect(a).toContain('No Zillow figure is used: this build holds no Zillow estimate or index, and the figure above is the median of recorded sales (King County WA house sales 2014-2015), not a Zillow home value.');
    expect(await ask('median home value 98103')).not.toContain('Zillow');
  });

  it('"flood risk at 1 broadway cambridge ma": the address said not placed, the city\'s zips answered as the city\'s', async () => {
    // the address index is read from the build's files: an engine with them, as the server's
    const engine = new ResearchEngine(researchData(), null, PINNED_TODAY, lookupsOf(buildDir()));
    const a = (await engine.answer({ query: 'flood risk at 1 broadway cambridge ma' })).answer;
    expect(a).toMatch(/^Reading "1 broadway": the address is not in our address index .*the answer is for Cambridge, MA as a whole/);
  });

  it('"hurricane risk miami dade county": the county\'s composite NRI from the raw county table, said not a hurricane score (before: "I don\'t have data" for Miami)', async () => {
    const nri = dataFile('fema-nri/NRI_Table_Counties_summary.csv');
    const [c] = await rawQuery<{ s: number; cols: string }>(`select RISK_SCORE::double as s from read_csv_auto('${nri}') where STCOFIPS::int = 12086`);
    const cols = (await rawQuery<{ c: string }>(`select column_name as c from (describe select * from read_csv_auto('${nri}'))`)).map((r) => r.c);
    expect(cols.filter((x) => /^HRCN_/.test(x))).toEqual([]); // the county file keeps no hurricane column
    const engine = new ResearchEngine(researchData(), null, PINNED_TODAY, lookupsOf(buildDir()));
    const a = (await engine.answer({ query: 'hurricane risk miami dade county' })).answer;
    expect(a).toMatch(/^FEMA's National Risk Index scores hurricane risk apart, but this build keeps only each county's composite score of all natural hazards, not its hurricane score/);
    expect(a).toContain(`Miami-Dade County, FL (12086) ${c!.s.toFixed(1)}, out of 100`);
    expect((await engine.answer({ query: 'hurricane risk miami-dade county' })).answer).toBe(a);
  });
});

describe('topics read where none was', () => {
  it('"population of austin tx", "population of king county wa": the ACS 2023 5-year population from the raw files, its source named (before: "I don\'t have data")', async () => {
    const [p] = await rawQuery<{ n: number }>(`select B01003_001E::int as n from read_csv('${dataFile('census-acs2023-population/acs5_2023_place_population.csv.gz')}', all_varchar = true) where NAME = 'Austin city, Texas'`);
    const [c] = await rawQuery<{ n: number }>(`select B01003_001E::int as n from read_csv('${dataFile('census-acs2023-population/acs5_2023_county_population.csv')}', all_varchar = true) where geoid = '53033'`);
    const lead = 'Population (US Census Bureau, American Community Survey 2019-2023 5-year estimates, total population (table B01003)): ';
    expect(await ask('population of austin tx')).toBe(`${lead}Austin, TX: ${p!.n.toLocaleString('en-US')} people. It is the survey's estimate over 2019-2023, not a count of this year.`);
    expect(await ask('population of king county wa')).toBe(`${lead}King County, WA: ${c!.n.toLocaleString('en-US')} people. It is the survey's estimate over 2019-2023, not a count of this year.`);
    expect(await ask('population growth in austin tx')).toMatch(/^This build keeps one population estimate per place, no population growth or change over time\. Population /);
  });

  it('"sheriff sales in pittsburgh": Allegheny County\'s foreclosure filings counted, the sales themselves said not recorded (before: no topic read)', async () => {
    const [f] = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${dataFile('allegheny-county-mortgage-foreclosures/foreclosures.csv.gz')}', all_varchar = true) where municipality ilike 'pittsburgh%'`);
    expect(f!.n).toBeGreaterThan(0);
    const filings = await ask('foreclosures in pittsburgh');
    expect(filings).toMatch(/^In Pittsburgh, PA, [\d,]+ distressed properties \(mortgage foreclosure filings/);
    const a = await ask('sheriff sales in pittsburgh');
    expect(a).toBe(`${filings} The figures above are foreclosure filings where a source covers the place; the sheriff or foreclosure sales themselves (their dates, buyers and prices) are recorded by no source of this build.`);
  });

  it('"foreclosure sales in bridgeport ct": no foreclosure filings source covers Connecticut, said (before: the legal rule alone)', async () => {
    // the build's filings sources: Allegheny County PA and Louisville KY, none in Connecticut
    const dirs = fs.readdirSync('/work/shared/data').filter((d) => /foreclos|lien|distress|sheriff/i.test(d));
    for (const d of dirs) expect(fs.readFileSync(`/work/shared/data/${d}/SOURCE.md`, 'utf8')).not.toMatch(/Connecticut|Bridgeport/);
    const a = await ask('foreclosure sales in bridgeport ct');
    expect(a).toMatch(/^We have no foreclosure or lien filings for Bridgeport, CT: this build's filing sources are Allegheny County mortgage foreclosure filings and Louisville Metro lien foreclosures, and none covers it/); // the sources named (h74ask)
    expect(a).toContain('the sheriff or foreclosure sales themselves (their dates, buyers and prices) are recorded by no source of this build');
  });
});
