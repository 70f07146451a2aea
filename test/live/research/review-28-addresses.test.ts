// Review 28's street addresses and parcel ids, over the shared real build on the suite's pinned day. (1) A house
// number was read as a zip with its leading zero left out ("2835 Unruh Ave" as 02835, Jamestown, RI; "7921 Doe Trail
// Way" as 07921, Bedminster, NJ): now the address's zip answers. (2) "711 Greenwood Avenue in Brooklyn 11218 - what
// would it appraise at?" read Greenwood, IN and had no topic: now zip 11218's price level, the address named. (3) "sold
// comps for parcel 5393601635 in King County" detailed Medina 98039: now the parcel's zip, 98144. Each place is read
// from the raw files (DuckDB read_csv) and each figure from the research oracle (oracle_arms), never the code's output.
import { describe, expect, it } from 'vitest';
import { lookupsOf, ResearchEngine } from '../../../live/research/endpoint.ts';
import { buildDir } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { compsOracle, windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { dataFile } from '../../helpers/oracle-raw-comps.ts';
import { askWithSalesOracle, DONT_HAVE, researchData } from '../../helpers/research.ts';

askWithSalesOracle(); // opens the research oracle for this file
let engine: ResearchEngine | undefined;
const ask = async (query: string): Promise<string> => {
  engine ??= new ResearchEngine(researchData(), null, PINNED_TODAY, lookupsOf(buildDir()));
  return (await engine.answer({ query, depth: 'quick' })).answer;
};
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
/** The zips a raw file gives a street line (or a parcel id). */
const rawZips = async (file: string, where: string, zip: string): Promise<string[]> =>
  (await sql<{ z: string }>(`select distinct left(${zip}, 5) as z from read_csv('${dataFile(file)}', all_varchar = true) where ${where}`)).map((r) => r.z);

describe('review 28 #1: a house number is not a zip', () => {
  it('"Ballpark value for 2835 Unruh Ave, Philadelphia 19149?": zip 19149 alone, the address named', async () => {
    expect(await rawZips('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz', "location = '2835 UNRUH AVE'", 'zip_code')).toEqual(['19149']);
    const m = await salesOf({ zip: '19149' }, 'sfr', '2022-11', '2022-11');
    const a = await ask('Ballpark value for 2835 Unruh Ave, Philadelphia 19149?');
    expect(a).not.toContain('02835');
    expect(a).not.toContain('Jamestown');
    // the property's own estimate first (review 29: the valuation engine's; its figures are tested in value-estimate.test.ts)
    expect(a).toMatch(/^The valuation engine's estimate of 2835 UNRUH AVE, Philadelphia, PA 19149 \(property_id \w+\) is \$/);
    expect(a).toContain(`In zip 19149 (Philadelphia, PA), the median single-family sale price was ${usd(m.median!)} in 2022-11 (${m.n} sales)`);
    // another topic asked with the value keeps that topic, with no value reading
    const flood = await ask('flood risk and value of 2926 ridge ave philadelphia');
    expect(flood).not.toContain('asked its value');
    expect(flood).toContain('flood');
    // with no zip typed, the address index places it
    expect(await ask('what is 2835 Unruh Ave worth')).toContain(`"2835 Unruh Ave" as zip 19149 (2835 UNRUH AVE, Philadelphia, PA in our address index)`);
  });

  it('"comparable sales near 7921 Doe Trail Way, Antelope CA": its zip 95843, never 07921 (Bedminster, NJ)', async () => {
    expect(await rawZips('sacramento-real-estate-transactions/sacramento_transactions.csv.gz', "street = '7921 DOE TRAIL WAY'", 'zip')).toEqual(['95843']);
    const c = await compsOracle('95843', 'sfr', 6);
    const a = await ask('comparable sales near 7921 Doe Trail Way, Antelope CA');
    expect(a).not.toContain('07921');
    expect(a).toContain('"7921 Doe Trail Way" as zip 95843');
    expect(a).toContain(`In zip 95843 (Antelope, CA), ${c.n} single-family sales in the 6 months to 2008-05-21`);
    expect(a).toContain(`had a median ${usd(c.median!)} per sqft`);
  });

  it('four digits with no street after them are still a zip without its leading zero', async () => {
    expect(await ask('median price for 6830')).toContain('Reading "6830" as zip 06830 (Greenwich, CT)');
    expect(await ask('median price in 6830 and 98103')).toContain('Reading "6830" as zip 06830 (Greenwich, CT)');
    // a street's name after the number and a zip typed later: a house number, with no suffix written
    const a = await ask('ballpark value for 2835 Unruh, Philadelphia 19149');
    expect(a).not.toContain('02835');
    expect(a).toMatch(/^In zip 19149 \(Philadelphia, PA\)/);
  });
});

describe('review 28 #2: a street name is not a town', () => {
  it('"711 Greenwood Avenue in Brooklyn 11218 - what would it appraise at?": zip 11218, never Greenwood, IN', async () => {
    const w = await windowSalesOracle({ zip: '11218' }, 'sfr', 6);
    const a = await ask("I'm looking at 711 Greenwood Avenue in Brooklyn 11218 - what would it appraise at?");
    expect(a).not.toContain('Greenwood, IN');
    expect(a).not.toMatch(DONT_HAVE);
    expect(a).toMatch(/^The valuation engine's estimate of 711 GREENWOOD AVE, New York, NY 11218 \(property_id \w+\) is \$/);
    expect(a).toContain(`In zip 11218 (Brooklyn, NY)`);
    expect(a).toContain(`the median of the ${w.n} arm's-length single-family sales in the 6 months to ${w.asOf} was ${usd(w.median!)}`);
  });
});

describe('review 28 #3: a parcel id places the question', () => {
  it('"sold comps for parcel 5393601635 in King County": the parcel\'s zip 98144, said', async () => {
    const kc = 'king-county-wa-house-sales/kc_house_data.csv.gz';
    expect(await rawZips(kc, "id = '5393601635'", 'zipcode')).toEqual(['98144']);
    const c = await compsOracle('98144', 'sfr', 6);
    const a = await ask('Give me sold comps for parcel 5393601635 in King County');
    expect(a).toContain('Reading parcel 5393601635 as zip 98144');
    expect(a).toContain(`In zip 98144 (Seattle, WA), ${c.n} single-family sales in the 6 months to`);
    expect(a).toContain(`had a median ${usd(c.median!)} per sqft`);
    expect(a).not.toContain('98039');
  });

  it('a parcel id the record does not hold is said not found', async () => {
    expect(await rawZips('king-county-wa-house-sales/kc_house_data.csv.gz', "ltrim(id, '0') = '1234567899'", 'zipcode')).toEqual([]);
    const a = await ask('Give me sold comps for parcel 1234567899 in King County');
    expect(a).toContain('parcel 1234567899: no property with that parcel id in WA in the property record, so it is not placed in a zip; the answer is for');
  });
});
