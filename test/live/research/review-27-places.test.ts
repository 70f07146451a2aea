// Review 27: place readings of a research question. Villages no sales source names (Connecticut's Cos Cob, Riverside,
// Southport, Niantic: the sales file names the town) answered "no sales" though their zips have sales; "median price
// 98004 Seattle" compared Bellevue's zip with Seattle; "Long Island" was Long Island, KS; "kc" was read as no place;
// "is Fairfield or Milford cheaper" read Fairfield, CA and Milford, MA (no sales) over Connecticut's two towns. The
// villages and their zips come from the raw Census Gazetteer (CDPs), the us_geo ZCTA table (each ZCTA's primary place
// and county subdivision) and GeoNames (the zip's postal place); the figures from the research oracle's arm's-length
// sales (oracle_arms) and the raw Connecticut file; each reading is checked against the answer to the place written
// out in full. The pinned clock's shared build.
import { describe, expect, it } from 'vitest';
import { afterReading as readAfter, askWithSalesOracle } from '../../helpers/research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

const asked = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await asked(query)).answer;
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

const afterReading = (query: string, lead: RegExp): Promise<string> => readAfter(ask, query, lead);

const CT_FILES = ['Real_Estate_Sales_2001-2022_GL.head9999.csv.gz', 'real_estate_sales_2022-01_2022-09_listyear2021.csv.gz']
  .map((f) => `select "Town" as town from read_csv('${dataFile(`connecticut-real-estate-sales/${f}`)}', all_varchar = true)`).join(' union ');

/** Connecticut's villages by the raw files: an unincorporated place of simplemaps (a CDP: the build's city list) that no
 *  row of the Connecticut sales files names as its town, with the zips whose GeoNames postal place bears its name and
 *  that no town of the sales files lists in simplemaps; with
 *  its town: the sales files' town that is the postal place of a ZCTA of the same county subdivision (us_geo zctas:
 *  Greenwich's 06830 for Cos Cob's 06807). */
async function rawVillages(): Promise<{ name: string; zip: string; town: string | null }[]> {
  return rawQuery(`
    with towns as (select distinct town from (${CT_FILES})),
         cdp as (select city as name from read_csv('${dataFile('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true)
                 where state_id = 'CT' and incorporated = 'FALSE' and city not in (select town from towns)),
         z as (select ZCTA5 as zip, "Primary County Subdivision" as cousub
               from read_csv('${dataFile('usgeo-census-tables/zctas.csv.gz')}', all_varchar = true) where ZCTA5 like '06%'),
         g as (select zipcode as zip, place from read_csv('${dataFile('geonames-us-postal-codes/zipcodes.us.csv.gz')}', all_varchar = true) where state_code = 'CT'),
         -- the zips a town of the sales files lists (simplemaps: Cornwall's 06796): that town's, no village's alone
         listed as (select unnest(string_split(zips, ' ')) as zip from read_csv('${dataFile('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true)
                    where state_id = 'CT' and city in (select town from towns))
    select cdp.name, g.zip,
           (select min(g2.place) from z z1 join z z2 using (cousub) join g g2 on g2.zip = z2.zip where z1.zip = g.zip and g2.place in (select town from towns)) as town
    from cdp join g on g.place = cdp.name where g.zip not in (select zip from listed) order by cdp.name, g.zip`);
}

describe('review 27 #1: a village no sales source names is read as its zip', () => {
  it('every Connecticut village of the raw files whose zip has sales: its zip\'s answer, said (Cos Cob, Riverside, Southport, Niantic among them)', async () => {
    const zipsSold = new Set((await sql<{ zip: string }>(`select distinct zip from oracle_arms where state_code = 'CT' and zip is not null`)).map((r) => r.zip));
    const villages = (await rawVillages()).filter((v) => zipsSold.has(v.zip));
    expect(villages.map((v) => `${v.name} ${v.zip}`)).toEqual(expect.arrayContaining(['Cos Cob 06807', 'Riverside 06878', 'Southport 06890', 'Niantic 06357']));
    for (const v of villages) {
      const rest = await afterReading(`median price in ${v.name}, CT`, new RegExp(`^Reading "${v.name}" as zip ${v.zip} \\(${v.name}, CT is a village, a census-designated place no sales source of this build names: its sales are recorded under the town it lies in, so the figures are those of the zip mailed as ${v.name}\\): `));
      expect(rest, v.name).toBe(await ask(`median price in ${v.zip}`));
    }
  });

  it('"home prices in Cos Cob": zip 06807\'s 6-month median from the sales of Greenwich the raw file names (never "Cos Cob")', async () => {
    const cosCob = (await rawVillages()).find((v) => v.name === 'Cos Cob')!;
    expect(cosCob.town).toBe('Greenwich'); // 06807 lies in the county subdivision of Greenwich's 06830
    const [raw] = await rawQuery<{ village: number; town: number }>(`
      select count(*) filter (where town = 'Cos Cob')::int as village, count(*) filter (where town = 'Greenwich')::int as town from (${CT_FILES})`);
    expect(raw!.village).toBe(0);
    expect(raw!.town).toBeGreaterThan(0);
    const w = await windowSalesOracle({ zip: '06807' }, 'sfr', 6);
    const a = await ask('home prices in Cos Cob');
    expect(a).toMatch(/^Reading "Cos Cob" as zip 06807 \(/);
    expect(a).toContain(`the median of the ${w.n} arm's-length single-family sales in the 6 months to ${w.asOf}`);
    expect(a).toContain(`was ${usd(w.median!)}`);
    expect(a).not.toMatch(/We have no single-family sales/);
  });

  it('an incorporated village with no sales of its own, or one whose zip is shared, is not read as its zip (Floral Park, NY; Shingle Springs, CA)', async () => {
    expect(await ask('median price in Floral Park, NY')).not.toMatch(/as zip 11001/);
    // nor one whose zip another place with sales lists (95682: the raw Sacramento file names it Cameron Park's mostly)
    const [sac] = await rawQuery<{ cameron: number; shingle: number }>(`select count(*) filter (where city = 'CAMERON PARK')::int as cameron,
      count(*) filter (where city = 'SHINGLE SPRINGS')::int as shingle from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true) where zip = '95682'`);
    expect(sac!.cameron).toBeGreaterThan(sac!.shingle);
    expect(await ask('median price in Shingle Springs')).not.toMatch(/as zip 95682/);
  });
});

describe('review 27 #2: a zip beside a city of its county that is not its own', () => {
  it('"median price 98004 Seattle": zip 98004, said to be Bellevue\'s (GeoNames), never compared with Seattle', async () => {
    const [g] = await rawQuery<{ place: string }>(`select place from read_csv('${dataFile('geonames-us-postal-codes/zipcodes.us.csv.gz')}', all_varchar = true) where zipcode = '98004'`);
    expect(g!.place).toBe('Bellevue');
    expect(await afterReading('median price 98004 Seattle', /^Reading "98004 Seattle": zip 98004 is in Bellevue, WA, not in Seattle, WA, so the figures are the zip's own; name Seattle, WA alone for its figures: /))
      .toBe(await ask('median price 98004'));
    // a zip of the city's own stays one place with it, and 98168, mailed as Seattle, is no clash
    expect(await ask('median price 98103 Seattle')).toBe(await ask('median price 98103'));
    expect(await ask('median price 98168 Seattle')).not.toMatch(/not in Seattle/);
  });
});

describe('review 27 #3: names read elsewhere', () => {
  it('"Long Island home prices": New York\'s Long Island asked back (Nassau and Suffolk), never Long Island, KS; "Long Island, KS" stays the town', async () => {
    for (const q of ['Long Island home prices', 'long island home prices', 'Long Island NY median price']) {
      const a = await ask(q);
      expect(a, q).toMatch(/"long island" is Long Island, NY: Nassau County and Suffolk County \(Brooklyn and Queens, boroughs of New York City, lie on it too\)/i);
      expect(a, q).not.toMatch(/sales for a median sale price in Long Island, KS|read as Long Island, KS/);
    }
    expect(await ask('Long Island, KS home prices')).toMatch(/Long Island, KS/);
    expect(await ask('Long Island City condos')).toMatch(/^Reading "Long Island City" as the New York neighbourhood LONG ISLAND CITY/);
  });

  it('"kc home prices": Kansas City, MO, said, as "KC" is read', async () => {
    const caps = await afterReading('KC home prices', /^Reading "KC" as Kansas City, MO \(say "Kansas City, KS" for the other\): /);
    expect(await afterReading('kc home prices', /^Reading "kc" as Kansas City, MO \(say "Kansas City, KS" for the other\): /)).toBe(caps);
    expect(await afterReading('home prices in kc', /^Reading "kc" as Kansas City, MO \(say "Kansas City, KS" for the other\): /)).toBe(caps);
  });

  it('"Cherry Creek" alone: Denver\'s neighbourhood, Denver as a whole, not Cherry Creek, CO', async () => {
    expect(await afterReading('Cherry Creek home prices', /^Reading "Cherry Creek" as a neighbourhood of Denver, CO, not Cherry Creek, CO: [^:]*: /))
      .toBe(await ask('Denver home prices'));
  });

  it('"is Fairfield or Milford cheaper": both Connecticut towns (the one state where both have sales), said; figures from the oracle', async () => {
    const rest = await afterReading('is Fairfield or Milford cheaper', /^Reading "Fairfield" as Fairfield, CT \(the one state where it and Milford are towns with recorded sales; name the state for another\); "Milford" as Milford, CT \(the one state where it and Fairfield are towns with recorded sales; name the state for another\): /);
    expect(rest).toBe(await ask('is Fairfield, CT or Milford, CT cheaper'));
    for (const town of ['Fairfield', 'Milford']) {
      const w = await windowSalesOracle({ state: 'CT', city: town }, 'sfr', 3);
      expect(rest, town).toContain(`${town}, CT ${usd(w.median!)} (${w.n} sales, 3 months to ${w.asOf})`);
    }
    // names read in one state already, or a major city, keep their reading
    expect(await ask('is Portland or Salem cheaper')).toMatch(/"Portland" as Portland, OR .*"Salem" as Salem, OR/);
  });
});
