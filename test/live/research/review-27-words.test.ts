// Review 27's wording leftovers, over the shared real build on the suite's pinned day. (1) "Kensington 19134
// Philadelphia" was read as Brooklyn's Kensington beside zip 19134: a zip (and city) named next to a neighbourhood of
// another city win, and a neighbourhood read as its city with one of its zips says the zip's figures. (2) "remodel"
// counted renovation permits and "rehab" renovation, addition and repair, with no word of it: each now says its kinds
// (permits re-counted from the raw Nashville file by the adapter's keep rules, oracle-raw-permits.ts). (3) "mid 2014",
// "mid-2014", "the middle of 2015" were not read as a period (the whole year answered): now May to August, said.
// (4) "from spring 2014 to spring 2015" gave the change of sale counts alone: now each period's median too (its last
// month recorded whole, with its sales) and the change. (5) A village the USPS mails under another name (Storrs, CT:
// "Storrs Mansfield"; Rockville, CT: "Vernon Rockville") had "no sales": now read as those zips, and the postal name as
// well (the Census Gazetteer's CDPs against the us-zip-reference USPS names and simplemaps' zips of each place). Sales
// counted by the research oracle's arm's-length rule over the canonical tables (oracle-research-*.ts), never the
// code's output.
import { describe, expect, it } from 'vitest';
import { writeWindows } from '../../../live/research/period-windows.ts';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { NASHVILLE, NASHVILLE_KIND, permitCounts } from '../../helpers/oracle-raw-permits.ts';

const answer = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await answer(query)).answer;

describe('review 27 #3: the middle of a year', () => {
  it('"home prices in 98103 mid 2014" (and "mid-2014", "the middle of 2014"): May to August 2014, said, counted as the raw sales', async () => {
    const s = await salesOf({ zip: '98103' }, 'sfr', '2014-05', '2014-08');
    for (const [q, said] of [['home prices in 98103 mid 2014', 'mid 2014'], ['median price 98103 mid-2014', 'mid-2014'], ['sales in 98103 in the middle of 2014', 'the middle of 2014']] as const) {
      const a = await ask(q);
      expect(a, q).toContain(`Reading "${said}" as May to August 2014`);
      expect(a, q).toContain(`In zip 98103 (Seattle, WA), from May to August 2014 there were ${s.n} arm's-length single-family sales (2014-05 to 2014-08)`);
    }
    expect(writeWindows('prices middle of 2015', [])).toBe('prices 2015-05..2015-08');
    expect(writeWindows('prices from mid 2014 to mid-2015', [])).toBe('prices from 2014-05..2014-08 to 2015-05..2015-08');
  });
});

describe('review 27 #1: a zip and city named win over a neighbourhood of another city', () => {
  it('"median price Kensington 19134 Philadelphia" and its other wordings: zip 19134\'s figures, never Brooklyn\'s Kensington', async () => {
    // 19134 is Philadelphia's by the raw GeoNames postal file; its November 2022 median from the oracle's sales
    const [g] = await rawQuery<{ place: string; st: string }>(`select place, state_code as st from read_csv('${dataFile('geonames-us-postal-codes/zipcodes.us.csv.gz')}', all_varchar = true) where zipcode = '19134'`);
    expect(`${g!.place}, ${g!.st}`).toBe('Philadelphia, PA');
    const nov = await salesOf({ zip: '19134' }, 'sfr', '2022-11', '2022-11');
    const own = await ask('median price in 19134');
    expect(own).toContain(`In zip 19134 (Philadelphia, PA), the median single-family sale price was $${nov.median!.toLocaleString('en-US')} in 2022-11 (${nov.n} sales)`);
    const asHood = 'Reading "Kensington" as a neighbourhood of Philadelphia, PA, not Kensington, CT: we do not resolve neighbourhoods, so the figures are zip 19134\'s, as named: ';
    const asZip = (w: string): string => `Reading "${w}": zip 19134 is in Philadelphia, PA, not in Kensington, CT, so the figures are the zip's own; name Kensington, CT alone for its figures: `;
    for (const [q, lead] of [
      ['median price Kensington 19134 Philadelphia', asHood], ['median price Kensington, Philadelphia 19134', asHood],
      ['median price 19134 Kensington Philadelphia', asHood], ['median price in Kensington, Philadelphia, PA 19134', asHood],
      ['median price Kensington 19134', asZip('Kensington 19134')], ['median price 19134 Kensington', asZip('19134 Kensington')],
      ['Kensington 19134 home prices', 'Reading "Kensington" beside zip 19134 (Philadelphia, PA) as a part of the zip\'s city, not the New York neighbourhood KENSINGTON (Brooklyn): the figures are the zip\'s: '],
      ['Kensington 19134 Philadelphia median price', asHood.replace(', not Kensington, CT', '')],
      ['median price Kensington, PA 19134', 'Reading "Kensington, PA" as a neighbourhood of Philadelphia, PA, the city of zip 19134 written with it (no place of that name in Pennsylvania): we do not resolve neighbourhoods, so the figures are zip 19134\'s, as named: '],
    ] as const) {
      const a = await ask(q);
      expect(a.slice(lead.length), q).not.toMatch(/Brooklyn|11218/);
      expect(a, q).toBe(`${lead}${own}`);
    }
    const flips = await ask('flips in Kensington 19134 Philadelphia');
    expect(flips).toBe(`${asHood}${await ask('flips in 19134')}`);
    // the zip in brackets or after "zip": the zip beside Kensington, CT, as written (its bracket closed: review 29)
    for (const [q, w] of [['median price Kensington (19134)', 'Kensington (19134)'], ['median price Kensington zip 19134', 'Kensington zip 19134']] as const) {
      expect(await ask(q), q).toBe(`${asZip(w)}${own}`);
    }
    // another city after "in" or before it in the possessive: that city's neighbourhood, as "Kensington Philadelphia"
    const philly = `Reading "Kensington" as a neighbourhood of Philadelphia, PA, not Kensington, CT: we do not resolve neighbourhoods, so the figures are for Philadelphia as a whole: ${await ask('median price in Philadelphia')}`;
    for (const q of ['median price in Kensington in Philadelphia', "median price in Philadelphia's Kensington", 'median price Kensington Philadelphia']) expect(await ask(q), q).toBe(philly);
    // its own borough after "in" or in the possessive: the neighbourhood the sales records name, as "Astoria Queens"
    expect(await ask('median price in Astoria in Queens')).toBe(await ask('median price in Astoria Queens'));
    expect(await ask("median price in Brooklyn's Kensington")).toBe(await ask('median price in Kensington Brooklyn'));
    // a state written with it that is not the neighbourhood's, and no zip: no place, said, never Brooklyn's figures
    expect(await ask('median price Kensington PA')).toBe(`Reading "Kensington PA": no place of that name is in Pennsylvania, and the neighbourhood KENSINGTON the sales records name is in Brooklyn (New York, NY); we do not resolve neighbourhoods, so name the city or zip of Pennsylvania it lies in: ${await ask('median price in Pennsylvania')}`);
    // a zip of the neighbourhood's own borough keeps it: Brooklyn's Kensington in 11218
    expect(await ask('median price Kensington 11218')).toMatch(/^Reading "Kensington" as the New York neighbourhood KENSINGTON \(Brooklyn\)/);
  });

  it('a neighbourhood read as its city with one of its zips named says the zip, not the city as a whole', async () => {
    const a = await ask('median price Capitol Hill 98102 Seattle');
    expect(a).toBe(`Reading "Capitol Hill" as a neighbourhood of Seattle, WA: we do not resolve neighbourhoods, so the figures are zip 98102's, as named: ${await ask('median price in 98102')}`);
    expect(await ask('median price Fishtown 19125 Philadelphia')).toContain('so the figures are zip 19125\'s, as named: In zip 19125 (Philadelphia, PA)');
    expect(await ask('median price Fishtown Philadelphia')).toContain('so the figures are for Philadelphia as a whole: In Philadelphia, PA');
  });
});

describe('review 27 #2: "remodel" and "rehab" permits say the kinds each counts', () => {
  it('"how many remodel permits in 37204 in 2023" (renovation alone) and "rehab" (renovation, addition, repair): both said, counted as the raw file', async () => {
    const c = await permitCounts(NASHVILLE, NASHVILLE_KIND, "zip = '37204' and year(d) = 2023");
    const rehab = c.of('renovation') + c.of('addition') + c.of('repair');
    expect(rehab).toBeGreaterThan(c.of('renovation'));
    for (const word of ['remodel', 'remodeling']) {
      const a = await ask(`how many ${word} permits in 37204 in 2023`);
      expect(a).toMatch(new RegExp(`^Reading "${word}" as renovation/alteration permits, the kind the permit records name for it; "rehab" permits are renovation/alteration, addition and repair permits together: `));
      expect(a).toContain(`In zip 37204 (Nashville, TN), ${c.of('renovation')} renovation/alteration permit${c.of('renovation') === 1 ? ' was' : 's were'} applied for in 2023, of ${c.all} permits of every kind`);
    }
    // "renovation" is the kind's own name: counted as it, no reading
    expect(await ask('how many renovation permits in 37204 in 2023')).toMatch(new RegExp(`^In zip 37204 \\(Nashville, TN\\), ${c.of('renovation')} renovation/alteration permit`));
    const a = await ask('how many rehab permits in 37204 in 2023');
    expect(a).toMatch(/^Reading "rehab" as renovation\/alteration, addition and repair permits together, permits of every building use \(the rehab score counts only the residential ones among them: ask "residential rehab permits" for its count\); "remodel" or "renovation" permits are the renovation\/alteration kind alone: /);
    expect(a).toContain(`In zip 37204 (Nashville, TN), ${rehab} renovation/alteration, addition or repair permits were applied for in 2023, of ${c.all} permits of every kind`);
  });
});

describe('review 27 #4: the change between periods of several months gives their medians', () => {
  it('"how did prices change from spring 2014 to spring 2015 in 98103": each period\'s median (month and sales named) and the change', async () => {
    // the oracle's months of zip 98103: a month's median of 20 or more sales, the month its source's files end inside
    // (the zip's last sale) being no whole month; each period's last such month
    const months = await sql<{ m: string; n: number; median: number }>(`
      with s as (select * from oracle_arms where zip = '98103' and property_type = 'sfr'),
           e as (select strftime(max(sale_date), '%Y-%m') as last from oracle_arms where source = (select any_value(source) from s))
      select strftime(sale_date, '%Y-%m') as m, count(*)::int as n, quantile_cont(sale_price, 0.5) as median from s, e
      where strftime(sale_date, '%Y-%m') < e.last group by 1 having count(*) >= 20 order by 1`);
    const last = (a: string, b: string) => months.filter((r) => r.m >= a && r.m <= b).at(-1)!;
    const [a, b] = [last('2014-03', '2014-05'), last('2015-03', '2015-05')];
    expect([a.m, b.m]).toEqual(['2014-05', '2015-04']);
    const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
    const pct = (x: number, y: number): string => { const v = Math.round((y / x - 1) * 1000) / 10; return `${v > 0 ? '+' : ''}${v}%`; };
    const r = await ask('how did prices change from spring 2014 to spring 2015 in 98103');
    expect(r).toContain(`a median over several months together is not kept, so each period's median is its last month recorded whole with one and 20 or more sales: the median sale price went from ${usd(a.median)} (2014-05, ${a.n} sales) to ${usd(b.median)} (2015-04, ${b.n} sales) (${pct(a.median, b.median)})`);
    expect(r).not.toContain('no change of the median is given');
  });
});

describe('review 27 #5: a village the USPS mails under another name', () => {
  it('the Connecticut CDPs of the Gazetteer whose zips the USPS names otherwise, with sales: read as those zips, and their postal name too', async () => {
    const zipsSold = new Set((await sql<{ zip: string }>(`select distinct zip from oracle_arms where state_code = 'CT' and zip is not null`)).map((r) => r.zip));
    // a CDP of the Gazetteer, its zips by simplemaps, mailed by us-zip-reference under a longer name holding its own
    const raw = await rawQuery<{ name: string; zip: string; usps: string }>(`
      with cdp as (select regexp_replace("NAME", ' CDP$', '') as name from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_place_national.txt.gz')}', delim = '|', all_varchar = true)
                   where "USPS" = 'CT' and "NAME" like '% CDP'),
           sm as (select city, unnest(string_split(zips, ' ')) as zip from read_csv('${dataFile('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true) where state_id = 'CT'),
           z as (select zip_code as zip, city as usps from read_csv('${dataFile('us-zip-reference/zip_reference.csv.gz')}', all_varchar = true) where state = 'CT')
      select cdp.name, z.zip, z.usps from cdp join sm on sm.city = cdp.name join z on z.zip = sm.zip
      where z.usps <> cdp.name and (' ' || z.usps || ' ') like ('% ' || cdp.name || ' %') order by 1, 2`);
    // a CDP named as a town by the sales themselves (Cornwall, whose 06796 is mailed as West Cornwall) is no village
    const towns = new Set((await sql<{ city: string }>(`select distinct city from oracle_arms where state_code = 'CT' and city is not null`)).map((r) => r.city.toLowerCase()));
    const villages = raw.filter((v) => zipsSold.has(v.zip) && !towns.has(v.name.toLowerCase()));
    expect(villages.map((v) => `${v.name} ${v.zip} ${v.usps}`)).toEqual(['Rockville 06066 Vernon Rockville', 'Storrs 06268 Storrs Mansfield', 'Storrs 06269 Storrs Mansfield']);
    const storrs = await ask('home prices in Storrs, CT');
    expect(storrs).toMatch(/^Reading "Storrs" as its zips 06268, 06269 \(Storrs, CT is a village, a census-designated place no sales source of this build names: its sales are recorded under the town it lies in, so the figures are those of the zips mailed as Storrs Mansfield\): /);
    for (const zip of ['06268', '06269']) {
      const w = await windowSalesOracle({ zip }, 'sfr', 12);
      expect(storrs).toContain(`zip ${zip} (Storrs Mansfield, CT) $${w.median!.toLocaleString('en-US')} (${w.n} sales, 12 months to ${w.asOf})`);
    }
    const rest = storrs.slice(storrs.indexOf('): ') + 3);
    expect(await ask('median price in Storrs Mansfield')).toBe(`Reading "Storrs Mansfield" as the zips 06268, 06269, mailed by the USPS as Storrs Mansfield, CT (a postal name, no town of its own): ${rest}`);
    const rockville = await ask('median price in Rockville CT');
    expect(rockville).toMatch(/^Reading "Rockville" as zip 06066 \(Rockville, CT is a village, .*mailed as Vernon Rockville\): /);
    expect(rockville.slice(rockville.indexOf('): ') + 3)).toBe(await ask('median price in 06066'));
    expect(await ask('median price in Vernon Rockville')).toBe(`Reading "Vernon Rockville" as zip 06066, mailed by the USPS as Vernon Rockville, CT (a postal name, no town of its own): ${await ask('median price in 06066')}`);
  });
});
