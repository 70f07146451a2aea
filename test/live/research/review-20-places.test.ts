// The twentieth research review's place readings (live/research/places.ts and its word lists): a town named like a
// state read as the state, short forms and neighbourhoods not read. Over the shared real build on the suite's pinned
// clock; figures recomputed here from the raw files in ../shared/data, or the answer must be the one for the place
// written out (the context's place).
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { understand } from '../../../live/research/intent.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import type { Context } from '../../../live/research/places.ts';
import { rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';
import { CT_RATED } from '../../helpers/oracle-ct.ts';

let data: ResearchData;
let engine: ResearchEngine;
beforeAll(() => { data = researchData(); engine = new ResearchEngine(data, null, PINNED_TODAY); });
const ask = async (query: string, context?: Context): Promise<string> => (await engine.answer({ query, context, depth: 'quick' })).answer;
const places = (q: string, context: Context = {}): string[] => understand(q, context, data).targets.map((t) => [t.state, t.city, t.area?.name].filter(Boolean).join(' '));
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const CT = `(select distinct * exclude (filename) from ${CT_RATED})`;

describe('a town named like a state, followed by its state, is the town (review 20 #1)', () => {
  it('"Washington CT median price": the town Washington, CT, as the context {Washington, CT} answers; never Washington State', async () => {
    // the town's last sale and its 3 months before, from the raw Connecticut files: residential (the 2022 file has no
    // subtype; single-family in the other), no Non Use Code, $10,000 or more
    const [raw] = await rawQuery<{ last: string; n: number; m: number }>(`with s as (
        select strptime("Date Recorded", '%m/%d/%Y')::date as d, replace("Sale Amount", ',', '')::double as p from ${CT}
        where "Town" = 'Washington' and "Property Type" = 'Residential' and coalesce("Residential Type", 'Single Family') = 'Single Family'
          and coalesce("Non Use Code", '') = '' and not ratio_out and replace("Sale Amount", ',', '')::double >= 10000)
      select max(d)::varchar as last, count(*) filter (where d > (select max(d) from s) - interval 3 month)::int as n,
             median(p) filter (where d > (select max(d) from s) - interval 3 month) as m from s`);
    expect(raw!.last).toBe('2022-09-29');
    const context = await ask('median price', { city: 'Washington', state: 'CT' });
    expect(context).toContain(`the median of the ${raw!.n} arm's-length single-family sales in the 3 months to ${raw!.last} was ${usd(raw!.m)}`);
    for (const q of ['Washington CT median price', 'median price Washington, CT']) {
      expect(places(q), q).toEqual(['CT Washington']);
      const r = await ask(q);
      expect(r, q).toMatch(/^Reading "Washington,? CT" as the town Washington, CT, not the state of Washington: In Washington, CT, /);
      expect(r, q).toContain(context);
    }
  });

  it('"sales in Washington CT", "Washington, Connecticut sales": the town\'s sales, not the tax sale rule of two states', async () => {
    // (a place and "sales" alone ask its sale prices: research.md "Cities")
    const context = await ask('sales', { city: 'Washington', state: 'CT' });
    expect(context).toMatch(/^In Washington, CT, .* the 3 months to 2022-09-29 was \$/);
    for (const q of ['sales in Washington CT', 'Washington, Connecticut sales']) {
      expect(places(q), q).toEqual(['CT Washington']);
      const r = await ask(q);
      expect(r, q).toContain(context);
      // no tax sale rule ("tax deed state"); the 2022 extract's caveat names its missing "deed type" (ct-caveat.test.ts)
      expect(r, q).not.toMatch(/deed(?! type)|lien|redeem/);
    }
    // "sales in <place>" is "<place> sales" (before, Washington's "tax deed state" for both)
    for (const place of ['Seattle', '98103']) expect(await ask(`sales in ${place}`), place).toBe(await ask(`${place} sales`));
    expect(await ask('sales in Seattle')).toMatch(/^In Seattle, WA, the median single-family sale price was/);
  });

  it('a state named with another state stays a state: a list of states, a namesake too small, Washington DC', () => {
    expect(places('eviction notice Washington and Connecticut')).toEqual(['WA', 'CT']);
    expect(places('compare Kansas, Oklahoma and Texas eviction')).toEqual(['KS', 'OK', 'TX']);
    // Kansas, OK has 822 people and no sales: the two states
    expect(places('Kansas, Oklahoma eviction notice')).toEqual(['KS', 'OK']);
    expect(places('rent control Washington, DC')).toEqual(['DC']);
    // a town of 10,000 people or more: Wyoming, MI (76,865)
    expect(places('median price Wyoming, MI')).toEqual(['MI Wyoming']);
  });
});

describe('short forms of city names with dots or without vowels (review 20 #2)', () => {
  it('N.Y.C., S.F., Phila., Pgh, KCMO are the cities NYC, SF, Philly, Pittsburgh and Kansas City, MO name', async () => {
    const pairs: [string, string, string][] = [
      ['median price N.Y.C.', 'median price NYC', 'NY New York'],
      ['median price in S.F.', 'median price in SF', 'CA San Francisco'],
      ['Phila. median price', 'Philly median price', 'PA Philadelphia'],
      ['Pgh median price', 'Pittsburgh median price', 'PA Pittsburgh'],
      ['KCMO median price', 'Kansas City, MO median price', 'MO Kansas City'],
      ['eviction notice KCMO', 'eviction notice Kansas City, MO', 'MO Kansas City'],
    ];
    for (const [short, long, place] of pairs) {
      expect(places(short), short).toEqual([place]);
      expect(await ask(short), short).toBe(await ask(long));
    }
    // a unit is no San Francisco: "price per s.f." stays a price per square foot
    expect(places('price per s.f. in 98103')).toEqual(['WA Seattle']);
  });

  it('"KC" (capitals) is Kansas City, MO, said as read; "KC, KS" and "KCK" the Kansas one; "kc" in lower case too since review 27', async () => {
    expect(places('KC median price')).toEqual(['MO Kansas City']);
    expect(await ask('median price in KC')).toMatch(/^Reading "KC" as Kansas City, MO \(say "Kansas City, KS" for the other\): /);
    expect(places('median price KC, KS')).toEqual(['KS Kansas City']);
    expect(places('KCK median price')).toEqual(['KS Kansas City']);
    expect(places('kc median price')).toEqual(['MO Kansas City']);
    expect(places('kc, ks median price')).toEqual(['KS Kansas City']);
  });
});

describe('a town written with a territory is outside coverage, never a US namesake (review 20 #3)', () => {
  it('"San Juan PR median price", "San Juan Puerto Rico median price": Puerto Rico said, no San Juan, TX', async () => {
    const alone = await ask('median price in Puerto Rico');
    expect(alone).toBe("We don't have data for Puerto Rico: coverage is the 50 states and DC, their cities and zip codes.");
    for (const q of ['San Juan PR median price', 'San Juan Puerto Rico median price', 'median price San Juan, Puerto Rico']) {
      expect(places(q), q).toEqual([]);
      expect(await ask(q), q).toBe(alone);
    }
    // San Juan, TX named with its state is still that town; another place named with it still answers
    expect(places('San Juan TX median price')).toEqual(['TX San Juan']);
    expect(places('Miami vs San Juan PR median price')).toEqual(['FL Miami']);
  });
});

describe('a misspelt town with sales, and a person\'s-name town before its state code (review 20 #6)', () => {
  it('"Kirkand" is Kirkland, WA (92,000 people, sales in the King County file), said; a word near no town with sales stays none', async () => {
    const written = await ask('Kirkland median price');
    expect(written).toMatch(/^In Kirkland, WA, the median single-family sale price was/);
    for (const q of ['Kirkand median price', 'median price in Kirkand']) {
      expect(places(q), q).toEqual(['WA Kirkland']);
      expect(await ask(q), q).toBe(`Reading "Kirkand" as Kirkland, WA (the closest name of a town with recorded sales): ${written}`);
    }
    expect(places('median price in Zorbaville')).toEqual([]);
    // a state named: that state's towns, as before
    expect(places('median price in Kirkand WA')).toEqual(['WA Kirkland']);
  });

  it('"Franklin MA median price" is Franklin, MA as "median price Franklin MA" is', async () => {
    expect(places('Franklin MA median price')).toEqual(places('median price Franklin MA'));
    expect(places('Franklin MA median price')[0]).toMatch(/^MA Franklin/);
    expect(await ask('Franklin MA median price')).toBe(await ask('median price Franklin MA'));
  });
});

describe('a county and "permits" ask its building permits (review 20 #7)', () => {
  it('"Cook County permits", "Davidson County TN permits" answer as "building permits in ..." does (before: no data, and Tennessee)', async () => {
    const pairs: [string, string][] = [
      ['Cook County permits', 'building permits in Cook County'],
      ['permits in Cook County', 'building permits in Cook County'],
      ['Davidson County TN permits', 'building permits Davidson County TN'],
    ];
    for (const [q, full] of pairs) {
      const r = await ask(q);
      expect(r, q).toMatch(/^Across \d+ zips of (Cook County, IL|Davidson County, TN) with a rehab momentum score/);
      expect(r, q).toBe(await ask(full));
    }
  });
});

describe('a county named without its County word, and a county named like a state (review 20 #5)', () => {
  it('"Miami-Dade ...", "Miami Dade ..." are Miami-Dade County, as "Miami-Dade County ..." is (before: Miami, FL)', async () => {
    for (const topic of ['median price', 'flood risk']) {
      const full = await ask(`Miami-Dade County ${topic}`);
      expect(full, topic).toMatch(/Miami-Dade County, FL/);
      for (const q of [`Miami-Dade ${topic}`, `Miami Dade ${topic}`, `${topic} in Miami-Dade`]) expect(await ask(q), q).toBe(full);
    }
    expect(places('median price in Miami')).toEqual(['FL Miami']);
  });

  it('"Washington County median price": a county of that name, its namesakes in other states said, never Washington State', async () => {
    const r = await ask('Washington County median price');
    expect(r).toMatch(/^Reading "Washington County" as Washington County, [A-Z]{2} \(the most populous county of that name we hold; others are in [A-Z]{2}(, [A-Z]{2}){3,}; name the state for another\)/);
    expect(r).not.toMatch(/name one in Washington/);
    expect(await ask('Washington County, PA median price')).toMatch(/Washington County, PA/);
  });
});

describe('a well-known neighbourhood of a city whose sources name none is the city as a whole, said (review 20 #4)', () => {
  it('Fishtown, Northern Liberties, LoDo Denver, Fremont Seattle, Georgetown DC, Capitol Hill DC: the city\'s answer after the reading', async () => {
    const cases: [string, string, string, string][] = [
      ['Fishtown median price', 'Fishtown', 'Philadelphia, PA', 'Philadelphia median price'],
      ['Northern Liberties median price', 'Northern Liberties', 'Philadelphia, PA', 'Philadelphia median price'],
      ['Fishtown Philly median price', 'Fishtown', 'Philadelphia, PA', 'Philadelphia median price'],
      ['LoDo Denver median price', 'LoDo', 'Denver, CO', 'Denver median price'],
      ['Fremont Seattle median price', 'Fremont', 'Seattle, WA', 'Seattle median price'],
      ['Georgetown DC median price', 'Georgetown', 'Washington, DC', 'Washington DC median price'],
      ['Capitol Hill DC median price', 'Capitol Hill', 'Washington, DC', 'Washington DC median price'],
    ];
    for (const [q, hood, city, whole] of cases) {
      const r = await ask(q);
      const name = city.split(',')[0];
      expect(r, q).toBe(`Reading "${hood}" as a neighbourhood of ${city}: we do not resolve neighbourhoods, so the figures are for ${name} as a whole: ${await ask(whole)}`);
    }
    // the District's legal rules for a neighbourhood of it (before: Texas's, Georgetown, TX)
    expect(await ask('Georgetown DC eviction notice')).toMatch(/In the District of Columbia, a landlord must give/);
    // alone or with their own state, the towns of those names stay towns
    expect(places('Fremont median price')).toEqual(['CA Fremont']);
    expect(places('Georgetown TX median price')).toEqual(['TX Georgetown']);
  });
});
