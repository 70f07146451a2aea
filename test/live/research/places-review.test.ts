// The eighth research review's place findings (live/research/places.ts, place-prefer.ts, filing-places.ts), answered
// over the shared real build on the suite's pinned clock. Counts are read from the raw filings file or the build's
// investor shards (the same figure /v1/market/investor-overview answers), never from the research answer's own code.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import fs from 'node:fs';
import path from 'node:path';
import { buildDir, readShard } from '../../helpers/build.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';

let engine: ResearchEngine;
const ask = (query: string, depth: 'quick' | 'deep' = 'quick') => engine.answer({ query, depth });
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const pipeline = (city: string, months = 12): number => readShard<{ distressed_pipeline_count: number }>(`market/investor/PA/${city}/${months}.json`).distressed_pipeline_count;

describe('finding 1: "Mt. Lebanon" with no state is the Allegheny County township of the filings', () => {
  it('reads Mt. Lebanon and Mount Lebanon PA as Mount Lebanon Township, PA, never Mount Lebanon, LA or Lebanon, PA', async () => {
    const munis = (await rawQuery<{ m: string }>(`select distinct municipality as m from read_csv('${dataFile('allegheny-county-mortgage-foreclosures/foreclosures.csv.gz')}', all_varchar = true)`)).map((x) => x.m);
    expect(munis).toContain('Mt. Lebanon Township');
    for (const q of ['Mt. Lebanon foreclosures', 'eviction notice in Mt. Lebanon', 'Mt. Lebanon foreclosure filings', 'foreclosures in Mount Lebanon PA']) {
      const r = await ask(q, 'deep');
      expect(r.answer, q).toMatch(/"(Mt\.|Mount) Lebanon" as Mount Lebanon Township, PA/);
      expect(r.answer, q).not.toMatch(/Louisiana|Lebanon, (PA|LA)\b/);
    }
    expect((await ask('eviction notice in Mt. Lebanon')).answer).toContain('In Pennsylvania,');
    expect((await ask('Mt. Lebanon foreclosure filings')).answer).toContain(`In Mount Lebanon Township, PA, ${pipeline('mount-lebanon-township')} distressed properties`);
  });
});

describe('finding 2: Penn Hills in any case, and no bogus Penn, PA', () => {
  it('finds Penn Hills Township, PA lower case and capitalised', async () => {
    const r = await ask('distressed properties in penn hills');
    expect(r.answer).toContain(`In Penn Hills Township, PA, ${pipeline('penn-hills-township')} distressed properties`);
    const f = await ask('Penn Hills foreclosures');
    expect(f.answer).toMatch(/^Reading "Penn Hills" as Penn Hills Township, PA/);
    // "foreclosures" with a place and no law words is the distressed pipeline (research.md)
    expect(f.answer).toContain(`In Penn Hills Township, PA, ${pipeline('penn-hills-township')} distressed properties`);
    expect((await ask('how do foreclosures work in Penn Hills')).answer).toContain('Pennsylvania');
    const six = await ask('How many distressed properties in Penn Hills in the last 6 months');
    expect(six.answer).toContain(`${pipeline('penn-hills-township', 6)} distressed properties`);
    expect(six.answer).not.toMatch(/\bPenn, PA\b/);
  });
});

describe('finding 2: Allegheny County, where the filings come from', () => {
  it('sums its municipalities\' pipeline (every Pennsylvania municipality with filings: the county\'s file is the state\'s only source)', async () => {
    const dir = path.join(buildDir(), 'shards', 'market', 'investor', 'PA');
    const counts = (months: number) => fs.readdirSync(dir)
      .map((slug) => readShard<{ city: string; distressed_pipeline_count: number | null }>(`market/investor/PA/${slug}/${months}.json`))
      .filter((r) => r.distressed_pipeline_count !== null) as { city: string; distressed_pipeline_count: number }[];
    for (const [q, months] of [['foreclosure filings in Allegheny County, PA', 12], ['distressed properties in allegheny county over the last 6 months', 6]] as const) {
      const rows = counts(months);
      const total = rows.reduce((s, r) => s + r.distressed_pipeline_count, 0);
      const top = [...rows].sort((a, b) => b.distressed_pipeline_count - a.distressed_pipeline_count)[0]!;
      const r = await ask(q);
      expect(r.answer, q).toContain(`In Allegheny County, PA, ${total.toLocaleString('en-US')} distressed properties (mortgage foreclosure filings, the only kind its records hold`); // the file's one kind (review 29)
      expect(r.answer, q).toContain(`) are in the pipeline over the ${months} months to`);
      // the municipalities with open filings in the window (a count above 0), of every one the file names
      expect(r.answer, q).toContain(`each counted once, in the ${rows.filter((x) => x.distressed_pipeline_count > 0).length} municipalities with open filings in the window (of the ${rows.length} the filings name over the whole file; most: ${top.city} ${top.distressed_pipeline_count}`);
    }
    // "foreclosures" with no law words is the pipeline too; a legal topic of the county is its state's
    expect((await ask('foreclosures in allegheny county')).answer).toContain(`In Allegheny County, PA, ${counts(12).reduce((s, r) => s + r.distressed_pipeline_count, 0).toLocaleString('en-US')} distressed properties`);
    expect((await ask('how does foreclosure work in allegheny county')).answer).toContain('Pennsylvania');
  });
});

describe('finding 3: single places in lower case, at the start, or compared, answered as with their state spelled', () => {
  const body = (a: string): string => a.replace(/^Reading "[^"]+" as [^:]+: /, '');
  it('reads a lower-case state code after a city of that state, and a town of 10,000 starting the question', async () => {
    for (const [q, same] of [['median price in redmond wa', 'median price in Redmond, WA'], ['home prices in kirkland wa', 'home prices in Kirkland, WA'],
      ['home prices in greenwich ct', 'home prices in Greenwich, CT'], ['price per sqft in greenwich, ct', 'price per sqft in Greenwich, CT'],
      ['Greenwich home prices', 'home prices in Greenwich, CT']] as const) {
      const [got, want] = [await ask(q), await ask(same)];
      expect(want.answer, same).toMatch(/\$\d/);
      expect(body(got.answer), q).toBe(want.answer);
    }
    // "or" stays a word between two cities
    expect((await ask('homes in portland or seattle')).answer).toContain('Seattle, WA');
  });
  it('compares Greenwich with Stamford whatever the case, as with their states named', async () => {
    const want = await ask('Greenwich, CT vs Stamford, CT median sale price');
    for (const q of ['Greenwich vs Stamford median sale price', 'is greenwich more expensive than stamford']) {
      const r = await ask(q);
      expect(r.answer, q).toContain('Greenwich, CT $');
      expect(r.answer, q).toContain(want.answer.slice(want.answer.indexOf('Greenwich, CT $'), want.answer.indexOf(' [')));
      expect(r.answer, q).toContain('Stamford, CT $');
    }
  });
  it('declines Toronto as outside the United States, as Mexico is', async () => {
    expect((await ask('Toronto condo prices')).answer).toMatch(/^We don't have data for Toronto: it is outside the United States/);
  });
});

describe('finding 9: a street named after a state, and DC as the District\'s one city', () => {
  it('answers flood risk in DC, Washington DC and at a DC street address as for the context city Washington, DC', async () => {
    const want = await engine.answer({ query: 'flood risk', context: { city: 'Washington', state: 'DC' } });
    expect(want.answer).toContain('zips of Washington, DC');
    for (const q of ['flood risk in Washington DC', 'is DC in a flood zone']) {
      const r = await ask(q);
      expect(r.answer, q).toBe(want.answer);
      expect(r.answer, q).not.toMatch(/Pennsylvania/);
    }
    // the street address is said not placed in a zip (review r16b; addresses.ts), the District answered as a whole,
    // never Pennsylvania
    const street = await ask('is 1600 Pennsylvania Ave NW Washington DC in a flood zone');
    expect(street.answer).toMatch(/^Reading "1600 Pennsylvania Ave NW": .* so it is not placed in a zip; the answer is for Washington, DC as a whole/);
    expect(street.answer).toContain(want.answer);
    expect(street.answer.replace(/"1600 Pennsylvania Ave NW"/, '')).not.toMatch(/Pennsylvania/);
    // the law stays the District's
    expect((await ask('eviction notice in DC')).answer).toMatch(/^In the District of Columbia/);
  });
});

describe('finding 11: a neighbourhood named with its city is that city, said as not resolved; one its sales source names, with its own borough, is that neighbourhood', () => {
  it('answers Seattle as a whole, never Ballard, UT; Williamsburg, Forest Hills and Park Slope with their boroughs as the DOF neighbourhoods (review 9), never Williamsburg, VA or Forest Hills, MI', async () => {
    for (const [q, hood, part] of [
      ['Williamsburg brooklyn home prices', 'WILLIAMSBURG-CENTRAL', 'Brooklyn'],
      ['Forest Hills Queens home prices', 'FOREST HILLS', 'Queens'],
      ['Park Slope Brooklyn price per sqft', 'PARK SLOPE', 'Brooklyn'],
    ] as const) {
      const r = await ask(q);
      expect(r.answer, q).toMatch(new RegExp(`^Reading "[^"]+" as the New York neighbourhood ${hood}[^(]*\\(${part}\\), as its sales records name it`));
      expect(r.answer, q).not.toMatch(/as a whole|as (Williamsburg, VA|Forest Hills, MI)/);
    }
    for (const [q, whole, same] of [
      ['Capitol Hill Seattle home prices', 'Seattle', 'Seattle home prices'],
      ['Ballard Seattle flood risk', 'Seattle', 'Seattle flood risk'],
    ] as const) {
      const r = await ask(q);
      expect(r.answer, q).toMatch(new RegExp(`^Reading "[^"]+" as a neighbourhood of ${whole}\\b[^:]*: we do not resolve neighbourhoods, so the figures are for ${whole} as a whole: `));
      expect(r.answer.replace(/^Reading [^:]+: [^:]+: /, ''), q).toBe((await ask(same)).answer);
      // the town of the name is said only as what the words are not
      expect(r.answer, q).not.toMatch(/as (Williamsburg, VA|Forest Hills, MI|Ballard, UT)|In (Williamsburg|Forest Hills|Ballard)\b/);
    }
    // two cities side by side stay two cities
    expect((await ask('Compare Seattle and Portland home prices')).answer).toContain('Portland, OR');
  });
});
