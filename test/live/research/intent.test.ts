// Question understanding (live/research/intent.ts) with the shared real build's places (its research index's states,
// cities and zips): state names and codes, DC and Washington, cities, zips and context, intents. The same rules over a
// small hand-made gazetteer: intent.unit.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResearchData } from '../../../live/research/data.ts';
import { understand, detectIntents } from '../../../live/research/intent.ts';
import { researchData } from '../../helpers/research.ts';

let data: ResearchData;
beforeAll(() => {
  data = researchData();
});

describe('understanding', () => {
  const u = (q: string, ctx = {}) => understand(q, ctx, data);
  const states = (q: string, ctx = {}) => u(q, ctx).targets.map((t) => t.state);

  it('does not read English words as state codes', () => {
    expect(states('Is it OK to raise the rent in Texas?')).toEqual(['TX']);
    expect(states('Can I evict a tenant in Texas OR California')).toEqual(['TX', 'CA']);
    expect(states('what notice do I give in texas')).toEqual(['TX']);
    expect(states('Tell ME about eviction notice IN Texas')).toEqual(['TX']);
    expect(states('HOW LONG IS AN EVICTION IN TEXAS')).toEqual(['TX']);
    expect(states('ID needed for an eviction filing in Georgia?')).toEqual(['GA']);
    expect(states('is a 3 day notice OK?')).toEqual([]);
  });

  it('reads codes with a cue', () => {
    expect(states('eviction notice in OR?')).toEqual(['OR']);
    expect(states('Portland, OR rent control')).toEqual(['OR']);
    expect(u('Portland, ME rent control').targets).toMatchObject([{ state: 'ME', city: 'Portland' }]);
    expect(states('security deposit limit MA')).toEqual(['MA']);
    expect(states('TX vs CA eviction timeline')).toEqual(['TX', 'CA']);
    expect(states('Compare foreclosure in NY and NJ')).toEqual(['NY', 'NJ']);
  });

  it('reads an ambiguous code right after a city of that state as that state (finding 1)', () => {
    // the build's own gazetteer must hold the city in the state named, and the reading must be that city
    const city = (q: string) => u(q).targets.map((t) => `${t.city}, ${t.state}`);
    for (const [q, name, st] of [['Is Lancaster PA landlord friendly?', 'Lancaster', 'PA'], ['Is Portland ME landlord friendly?', 'Portland', 'ME'],
      ['investor activity in Portland ME', 'Portland', 'ME'], ['Is Columbus IN landlord friendly?', 'Columbus', 'IN']] as const) {
      expect(data.citiesByName.get(name.toLowerCase())?.some((c) => c.state === st)).toBe(true);
      expect(city(q)).toEqual([`${name}, ${st}`]);
      expect(u(q).readAs).toEqual([]);
    }
    expect(city('Pittsburg PA foreclosures')).toEqual(['Pittsburgh, PA']);
    expect(states('Is it OK to raise the rent in Denver?')).toEqual(['CO']);
  });

  it('handles DC and the ambiguous Washington', () => {
    expect(states('rent control in Washington DC')).toEqual(['DC']);
    expect(states('rent control in Washington, D.C.')).toEqual(['DC']);
    expect(states('District of Columbia eviction notice')).toEqual(['DC']);
    expect(states('eviction notice in DC')).toEqual(['DC']);
    expect(states('eviction notice in Washington state')).toEqual(['WA']);
    const w = u('eviction notice in Washington');
    expect(w.targets.map((t) => t.state)).toEqual(['WA']);
    expect(w.readAs.join(' ')).toMatch(/Washington State.*Washington DC/); // said in every answer (review 23)
    expect(states('eviction notice in Washington', { state: 'DC' })).toEqual(['DC']);
  });

  it('finds cities, zips and context', () => {
    expect(u('rent control in Seattle').targets).toMatchObject([{ state: 'WA', city: 'Seattle' }]);
    expect(u('comps for 98103').targets).toMatchObject([{ zip: '98103', state: 'WA' }]);
    expect(u('Kansas City eviction notice').targets).toMatchObject([{ city: 'Kansas City' }]);
    expect(u('Springfield, Illinois foreclosure').targets).toMatchObject([{ state: 'IL', city: 'Springfield' }]);
    expect(u('Deposit limits in New York?').targets).toEqual([{ state: 'NY', from: 'query' }]);
    expect(u('what is the price of a $12345 house in Texas').targets.map((t) => t.zip)).toEqual([undefined]);
    expect(u('eviction notice', { zip: '37206' }).targets).toMatchObject([{ zip: '37206', state: 'TN', from: 'context' }]);
    expect(u('eviction notice', { city: 'Denver', state: 'CO' }).targets).toMatchObject([{ city: 'Denver', state: 'CO' }]);
    expect(u('eviction notice in Ohio', { state: 'TX' }).targets.map((t) => t.state)).toEqual(['OH']);
    expect(u('rules in Puerto Rico').unknown).toEqual(['Puerto Rico']);
    expect(u('rehab activity in Nashville 37206').targets).toMatchObject([{ zip: '37206', city: 'Nashville', state: 'TN' }]); // one place, not two
  });

  it('detects intents', () => {
    expect(detectIntents('How long does an eviction take in Texas?')).toEqual(['eviction_timeline']);
    expect(detectIntents('How many days notice to evict in Texas?')).toEqual(['eviction_notice']);
    expect(detectIntents('tax lien interest rate')).toEqual(['tax_sale']);
    expect(detectIntents('redemption period after a tax sale')).toEqual(['redemption']);
    expect(detectIntents('Is it a judicial foreclosure state')).toEqual(['foreclosure']);
    expect(detectIntents('squatters rights')).toEqual(['adverse_possession']);
    expect(detectIntents('flood zone')).toEqual(['location']);
    expect(detectIntents('price per square foot')).toEqual(['comps']);
    expect(detectIntents('rehab momentum')).toEqual(['rehab']);
    expect(detectIntents('investor activity')).toEqual(['investor']);
    expect(detectIntents('legal risk score')).toEqual(['legal_risk']);
    expect(detectIntents('Does Texas permit rent control?')).toEqual(['rent_control']);
  });
});
