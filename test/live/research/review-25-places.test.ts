// Review 25: place readings of a research question (live/research/places.ts and its steps). Each reading is checked
// against the answer to the place written out in full, and the filing count against our own SQL over Allegheny
// County's raw docket file: "Kansas Cty" was the state of Kansas, "Springfeld" no place, "NE Portland" Nebraska,
// "Ballard" Ballard, UT's no data, "Capitol Hill" a refusal to rank, "The Gulch Nashville" unsaid, "baldwin
// foreclosures" not read, "Boise Portland Oregon" Portland alone, and "37206 Memphis" two places side by side.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { afterReading as readAfter, researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { ALLEGHENY_OPEN } from '../../helpers/oracle-distress.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

const afterReading = (query: string, lead: RegExp): Promise<string> => readAfter(ask, query, lead);

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

describe('review 25: parts and neighbourhoods of cities', () => {
  it('"NE Portland", "SE Portland", "NW Denver": the city as a whole, said, never Nebraska', async () => {
    for (const [q, city, full] of [['NE Portland home prices', 'Portland, OR', 'Portland, OR home prices'], ['SE Portland home prices', 'Portland, OR', 'Portland, OR home prices'],
      ['NW Denver home prices', 'Denver, CO', 'Denver home prices']] as const) {
      const words = q.split(' ').slice(0, 2).join(' ');
      const rest = await afterReading(q, new RegExp(`^Reading "${words}" as ${city} as a whole \\([^)]*no source of this build maps "${words}" or any part of a city named by a direction; name a zip code for part of it\\): `));
      expect(rest, q).toBe(await ask(full));
      expect(rest, q).not.toMatch(/Nebraska|, NE\b/);
    }
    // Nebraska's code after a city or alone stays the state
    expect(await ask('median price in Omaha NE')).toBe(await ask('median price in Omaha, Nebraska'));
  });

  it('"Ballard" alone: Seattle as a whole, not Ballard, UT (no data); "Ballard, UT" written stays the town', async () => {
    const seattle = await ask('Seattle home prices');
    for (const q of ['Ballard home prices', 'ballard home prices']) {
      expect(await afterReading(q, new RegExp(`^Reading "${q.split(' ')[0]}" as a neighbourhood of Seattle, WA, not Ballard, UT: we do not resolve neighbourhoods, so the figures are for Seattle as a whole: `)), q).toBe(seattle);
    }
    expect(await ask('median price in Ballard, UT')).toMatch(/Ballard, UT/);
    expect(await ask('median price in Ballard, UT')).not.toContain('Seattle');
  });

  it('"Capitol Hill" alone: asked which city (Seattle, Denver, Washington DC), never a ranking refusal; with its city, that city', async () => {
    const a = await ask('Capitol Hill home prices');
    expect(a).toContain('"Capitol Hill" is a neighbourhood of several cities (Seattle, WA; Denver, CO; Washington, DC): name the city');
    expect(a).not.toMatch(/ranking/);
    expect(await afterReading('median price in Capitol Hill, Denver', /^Reading "Capitol Hill" as a neighbourhood of Denver, CO: [^:]*: /)).toBe(await ask('median price in Denver'));
  });

  it('"The Gulch Nashville": Nashville as a whole, said', async () => {
    expect(await afterReading('The Gulch Nashville home prices', /^Reading "The Gulch" as a neighbourhood of Nashville, TN: we do not resolve neighbourhoods, so the figures are for Nashville as a whole: /))
      .toBe(await ask('Nashville home prices'));
  });
});

describe('review 25: which town of a name', () => {
  it('"baldwin foreclosures": Baldwin, PA, the only Baldwin the filings name, said; its count from the raw docket file', async () => {
    const [r] = await rawQuery<{ n: number }>(`select count(*)::int as n from ${ALLEGHENY_OPEN} where m = 'Baldwin Boro'`);
    expect(r!.n).toBeGreaterThan(5);
    for (const w of ['baldwin', 'Baldwin']) {
      const rest = await afterReading(`${w} foreclosures`, new RegExp(`^Reading "${w}" as Baldwin, PA \\(the only one of \\d+ US places of that name the foreclosure and lien filings name; the most populous, Baldwin, NY, has none; name the state for another\\): `));
      expect(rest).toMatch(new RegExp(`^In Baldwin, PA, ${r!.n} distressed properties`));
    }
    // a price question is no filings question: the most populous Baldwin, as before
    expect(await ask('Baldwin home prices')).toMatch(/^Reading "Baldwin" as Baldwin, NY/);
  });

  it('"Boise Portland Oregon", "Boise Portland, OR": two cities, never Boise as a neighbourhood of Portland', async () => {
    for (const q of ['Boise Portland Oregon home prices', 'Boise Portland, OR home prices']) {
      const a = await ask(q);
      expect(a, q).toContain('Boise, ID');
      expect(a, q).toContain('Portland, OR');
      expect(a, q).not.toContain('as part of Portland');
    }
    // a small town before a city and its zip is still its neighbourhood (review 24)
    expect(await ask('how hot is rehab in Inglewood nashville 37216')).toMatch(/^Reading "Inglewood" as part of Nashville, TN/);
  });

  it('a zip next to a city or borough it is not in ("37206 Memphis", "98103 Denver", "Brooklyn 10001"): the zip, said', async () => {
    for (const [q, written, zip, place, not, plain] of [['37206 Memphis home prices', '37206 Memphis', '37206', 'Nashville, TN', 'Memphis, TN', '37206 home prices'],
      ['median price in 98103 Denver, CO', '98103 Denver, CO', '98103', 'Seattle, WA', 'Denver, CO', 'median price in 98103'],
      ['Brooklyn 10001 home prices', 'Brooklyn 10001', '10001', 'Manhattan \\(New York, NY\\)', 'Brooklyn', '10001 home prices']] as const) {
      const rest = await afterReading(q, new RegExp(`^Reading "${written}": zip ${zip} is in ${place}, not in ${not}, so the figures are the zip's own; name ${not} alone for its figures: `));
      expect(rest, q).toBe(await ask(plain));
    }
    // its own city, or two places compared, stay as they were
    expect(await ask('Nashville 37206 home prices')).not.toContain('is in Nashville');
    expect(await ask('37206 vs Memphis home prices')).toContain('Memphis');
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
