// Review 25: place readings of a research question (live/research/places.ts and its steps). Each reading is checked
// against the answer to the place written out in full, and the filing count against our own SQL over Allegheny
// County's raw docket file: "Kansas Cty" was the state of Kansas, "Springfeld" no place, "NE Portland" Nebraska,
// "Ballard" Ballard, UT's no data, "Capitol Hill" a refusal to rank, "The Gulch Nashville" unsaid, "baldwin
// foreclosures" not read, "Boise Portland Oregon" Portland alone, and "37206 Memphis" two places side by side.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

/** The answer after its reading ("Reading "X" as Y (...): "), which must be `lead`. */
async function afterReading(query: string, lead: RegExp): Promise<string> {
  const a = await ask(query);
  const m = lead.exec(a);
  expect(m, `${query}: ${a}`).not.toBeNull();
  expect(m!.index, query).toBe(0);
  return a.slice(m![0].length);
}

describe('review 25: misspellings', () => {
  it('"Kansas Cty": Kansas City (MO, the most populous, said; KS when written), never the state of Kansas', async () => {
    expect(await afterReading('Kansas Cty home prices', /^Reading "Kansas Cty" as Kansas City, MO \(the closest city name; the most populous of \d+ US places of that name; name the state for another\): /))
      .toBe(await ask('Kansas City, MO home prices'));
    expect(await afterReading('Kansas Cty, KS home prices', /^Reading "Kansas Cty" as Kansas City, KS \(the closest city name\): /))
      .toBe(await ask('Kansas City, KS home prices'));
  });

  it('"Springfeld" with no state: its most populous namesake, said, as "Springfield" is read', async () => {
    const exact = await ask('Springfield home prices');
    const m = /^Reading "Springfield" as (Springfield, [A-Z]{2}) \((the most populous of \d+ US places of that name; name the state for another)\): /.exec(exact);
    expect(m, exact).not.toBeNull();
    expect(await afterReading('Springfeld home prices', new RegExp(`^Reading "Springfeld" as ${m![1]} \\(the closest city name; ${m![2]!.replace(/[()]/g, '\\$&')}\\): `)))
      .toBe(exact.slice(m![0].length));
  });
});

describe('review 25: short and state-named city names', () => {
  it('"Colorado Springs" (any case) is the city, never the state of Colorado; "Colorado Spgs" too, said', async () => {
    const city = await ask('median price in Colorado Springs');
    expect(city).toContain('Colorado Springs, CO');
    expect(city).not.toContain('name one in Colorado');
    expect(await ask('median price in colorado springs')).toBe(city);
    expect(await afterReading('median price in Colorado Spgs', /^Reading "Colorado Spgs" as Colorado Springs, CO \("Spgs" read as Springs\): /)).toBe(city);
    // a neighbourhood whose name starts with a state's stays the neighbourhood
    expect(await ask('median price in Washington Heights')).toMatch(/^Reading "Washington Heights" as the New York neighbourhood/);
  });

  it('"San Fran" is San Francisco and "Staten Is" Staten Island, as written in full', async () => {
    expect(await ask('median price in San Fran')).toBe(await ask('median price in San Francisco'));
    expect(await ask('home prices in Staten Is')).toBe(await ask('home prices in Staten Island'));
  });
});
