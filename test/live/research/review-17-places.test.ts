// The seventeenth research review's place readings (r17c B, C, G, H: live/research/places.ts, place-aliases.ts,
// place-words.ts, sales-facts.ts, build.ts market windows): a context state other than New York ignored for a borough's
// word ("Brooklyn" with context CT answered New York City's figure), a Connecticut window's count of sales from the 2022
// file counted over whole months (12 where 2 are), bare town names and a zip without its leading zero read as a ranking
// request, "Bklyn". Over the shared real build on the suite's pinned clock; figures from the raw files in ../shared/data.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { understand } from '../../../live/research/intent.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import { rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData, withoutCoverage } from '../../helpers/research.ts';
import { CT_RATED } from '../../helpers/oracle-ct.ts';

let data: ResearchData;
let engine: ResearchEngine;
beforeAll(() => { data = researchData(); engine = new ResearchEngine(data, null, PINNED_TODAY); });
const ask = async (query: string, context?: Record<string, string>): Promise<string> => (await engine.answer({ query, ...(context ? { context } : {}), depth: 'quick' })).answer;
const places = (q: string, context: Record<string, string> = {}): string[] => understand(q, context, data).targets.map((t) => [t.state, t.city, t.zip, t.area?.name].filter(Boolean).join(' '));
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

/** Brooklyn, CT's single-family sales from the two raw Connecticut files (a record listed twice once; no Non Use Code; no assessment-ratio outlier, oracle-ct.ts;
 *  $10,000 or more; the 2022 file's "Residential" has no subtype and counts as single-family, market.md) in the 12 months
 *  to the town's latest such sale of any type: count, median, and how many come from the 2022 file. */
async function brooklynCt(): Promise<{ end: string; n: number; m: number; from2022: number }> {
  const [r] = await rawQuery<{ end: string; n: number; m: number; from2022: number }>(`
    with s as (select filename like '%real_estate_sales_2022-%' as f22, "Property Type" as pt, "Residential Type" as rt,
                      strptime("Date Recorded", '%m/%d/%Y')::date as d, replace("Sale Amount", ',', '')::double as p
      from (select distinct on ("Serial Number", "Date Recorded", "Address", "Sale Amount") *
            from ${CT_RATED})
      where "Town" = 'Brooklyn' and coalesce("Non Use Code", '') = '' and not ratio_out and replace("Sale Amount", ',', '')::double >= 10000
        and "Property Type" is not null),
    e as (select max(d) as e from s),
    sfr as (select s.* from s, e where pt = 'Residential' and coalesce(rt, 'Single Family') = 'Single Family' and d > e.e - interval 12 month and d <= e.e)
    select (select e from e)::varchar as "end", count(*)::int as n, median(p) as m, count(*) filter (where f22)::int as from2022 from sfr`);
  return r!;
}

describe('B: a context state other than New York names its own town of a borough\'s name', () => {
  it('"Brooklyn" with context CT is Brooklyn, CT (the raw files\' figure), said as read; rent control is Connecticut\'s', async () => {
    const raw = await brooklynCt();
    expect(raw).toMatchObject({ end: '2023-09-26', n: 37, m: 332000 });
    expect(places('median sale price in Brooklyn', { state: 'CT' })).toEqual(['CT Brooklyn']);
    const r = await ask('median sale price in Brooklyn', { state: 'CT' });
    expect(r).toMatch(/^Reading "Brooklyn" as Brooklyn, CT \(the context's state; say "Brooklyn, NY" for New York City's borough\)/);
    expect(withoutCoverage(r)).toContain(`the median of the ${raw.n} arm's-length single-family sales in the 12 months to ${raw.end} was ${usd(raw.m)}`);
    expect(r).not.toMatch(/In Brooklyn, NY|New York City has/);
    const rent = await ask('rent control in Brooklyn', { state: 'CT' });
    expect(rent).toContain('Connecticut law');
    expect(rent).not.toMatch(/New York City has local rent control/);
  });

  it('OH and KS read their own Brooklyn and Manhattan (no sales there: said), never silently New York City', async () => {
    expect(places('median sale price in Brooklyn', { state: 'OH' })).toEqual(['OH Brooklyn']);
    const ks = await ask('median sale price in Manhattan', { state: 'KS' });
    expect(ks).toMatch(/^Reading "Manhattan" as Manhattan, KS .*We have no single-family sales for a median sale price in Manhattan, KS/);
    expect(ks).not.toMatch(/Manhattan, NY,/);
  });

  it('a context state with no town of the name keeps the borough and says so; a state written, or NY, keeps it silently', async () => {
    expect(places('median sale price in the Bronx', { state: 'CT' })).toEqual(['NY New York the Bronx']);
    expect(await ask('median sale price in the Bronx', { state: 'CT' })).toMatch(/^Reading "the Bronx" as New York City's Bronx \(no place of that name in CT, the context's state\)/);
    expect(places('median sale price in Brooklyn NY', { state: 'CT' })).toEqual(['NY New York Brooklyn']);
    expect(places('median sale price in Brooklyn', { state: 'NY' })).toEqual(['NY New York Brooklyn']);
    expect(await ask('median sale price in Brooklyn', { state: 'NY' })).not.toMatch(/^Reading/);
  });
});

describe('H: "Bklyn" and "Bkln" are Brooklyn', () => {
  it('read as the borough, with its own figures (the answer "Brooklyn" gives)', async () => {
    for (const w of ['Bklyn', 'Bkln', 'bklyn']) expect(places(`median sale price in ${w}`), w).toEqual(['NY New York Brooklyn']);
    expect(places('Bklyn vs Queens median price')).toEqual(['NY New York Brooklyn', 'NY New York Queens']);
    expect(await ask('median sale price in Bklyn')).toBe(await ask('median sale price in Brooklyn'));
  });
});

describe('G: bare town names, a zip without its leading zero, curly apostrophes are places, never a ranking request', () => {
  it('Franklin, Madison, Clinton, Greenville after "in": the most populous namesake, said as read (as Springfield)', async () => {
    const biggest = (name: string): { state: string; n: number } => { const c = data.citiesByName.get(name.toLowerCase())!; return { state: c[0]!.state, n: c.length }; };
    for (const name of ['Madison', 'Greenville']) {
      const { state, n } = biggest(name);
      const r = await ask(`median sale price in ${name}`);
      expect(r, name).toMatch(new RegExp(`^Reading "${name}" as ${name}, ${state} \\(the most populous of ${n} US places of that name; name the state for another\\)`));
      expect(r, name).not.toMatch(/ranking/);
    }
    // review 19 (C17): a price question whose most populous namesake (no large city) has no sales while one namesake
    // has reads that one, said (Franklin, TN and Clinton, MD have no sales; the Connecticut towns do)
    for (const name of ['Franklin', 'Clinton']) {
      const { state, n } = biggest(name);
      const r = await ask(`median sale price in ${name}`);
      expect(r, name).toMatch(new RegExp(`^Reading "${name}" as ${name}, CT \\(the only one of ${n} US places of that name with recorded sales; the most populous, ${name}, ${state}, has none; name the state for another\\)`));
      expect(r, name).not.toMatch(/have a ranking|no ranking/); // (its partial-extract note says "rankings describe that extract")
    }
    // a person's name is no place: no place word before it
    expect(places('Benjamin Franklin rent control')).toEqual([]);
  });

  it('"6830" after a place word is zip 06830 (a zip of the build), said as read; a year is not', async () => {
    expect(data.zips.get('06830')).toMatchObject({ city: 'Greenwich', state: 'CT' });
    expect(places('median price in 6830')).toEqual(['CT Greenwich 06830']);
    const r = await ask('median price in 6830');
    expect(r).toMatch(/^Reading "6830" as zip 06830 \(Greenwich, CT\): a zip code's leading zero left out: /);
    expect(r).toContain((await ask('median price in 06830')).split(';')[0]!);
    expect(await ask('rehab score for 6830')).toMatch(/^Reading "6830" as zip 06830 .*zip 06830/);
    expect(places('median price in 2023')).toEqual([]);
  });

  it('"Coeur d’Alene" (a curly apostrophe) and "Coeur dAlene ID" are Coeur d\'Alene, ID; "Sac" ending the question is Sacramento', async () => {
    for (const q of ['median price in Coeur d’Alene', 'median price in Coeur dAlene ID', "median price in Coeur d'Alene"]) {
      expect(places(q), q).toEqual(["ID Coeur d'Alene"]);
      expect(await ask(q), q).toMatch(/Coeur d'Alene, ID/);
    }
    expect(places('median sale price Sac')).toEqual(['CA Sacramento']);
    expect(await ask('median sale price Sac')).toBe(await ask('median sale price in Sacramento'));
  });
});

describe('C: a Connecticut window says how many of its sales come from the 2022 file by the window\'s own days', () => {
  it('Brooklyn, CT\'s 12 months to 2023-09-26 hold 2 sales of the 2022 file (both 2022-09-27), not all 12 of September 2022', async () => {
    const raw = await brooklynCt();
    expect(raw.from2022).toBe(2);
    const r = await ask('median sale price in Brooklyn, CT');
    // (a share of 1-4 sales said "fewer than 5": warehouse/docs/market.md "Minimum cohort", review 30)
    const share = raw.from2022 < 5 ? 'fewer than 5' : String(raw.from2022);
    expect(withoutCoverage(r)).toContain(`the median of the ${raw.n} arm's-length single-family sales in the 12 months to ${raw.end} was ${usd(raw.m)} (${share} of these sales come from Connecticut's 2022 sales file`);
    const count = await ask('how many homes sold in Brooklyn, CT in the last 12 months');
    expect(count).toContain(`(${share} of these sales come from Connecticut's 2022 sales file`);
  });
});
