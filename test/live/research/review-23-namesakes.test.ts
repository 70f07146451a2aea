// Review 23: a city name several states share is read by one rule wherever it is given (typed in the question, as
// context.city, on one side of a comparison): a state named with it decides it, else its most populous namesake, said
// first ("Reading "Kansas City" as Kansas City, MO (the most populous of 2 ..."), so a state rule is never silently
// another place's. Oracle: the notice days of each state from ../shared/reference/legal-facts.csv (read here with
// csv-parse), the namesakes' states the Census's (Kansas City, MO 508,090 people against Kansas City, KS 156,607 in
// the 2020 census; Portland, OR against Portland, ME; Franklin, TN the largest Franklin; Springfield, MO the largest
// Springfield); the city of zip 98103 the build's zip table.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { legalFacts, type Fact } from '../../helpers/oracle-geo.ts';
import type { Context } from '../../../live/research/places.ts';

let engine: ResearchEngine;
let facts: Map<string, Fact>;
beforeAll(() => {
  engine = new ResearchEngine(researchData(), null, PINNED_TODAY);
  facts = legalFacts();
});
const ask = async (query: string, context?: Context): Promise<string> => (await engine.answer({ query, ...(context ? { context } : {}) })).answer;

/** How an answer says a state's nonpayment notice, from the CSV: "no statutory notice" for 0, else "N days". */
function notice(state: string): RegExp {
  const days = facts.get(state)!.eviction_notice_nonpayment_days.trim();
  expect(days).toMatch(/^\d+$/);
  return days === '0' ? /no statutory (?:pre-filing )?notice/i : new RegExp(`\\b${days} days\\b`);
}
const reading = (name: string, city: string, state: string): RegExp =>
  new RegExp(`^Reading "${name}" as ${city}, ${state} \\(the most populous of \\d+ US places of that name; name the state for another\\): `);

describe('context.city read as a typed city is', () => {
  const cases: [city: string, state: string][] = [['Kansas City', 'MO'], ['Franklin', 'TN'], ['Springfield', 'MO'], ['Portland', 'OR']];
  for (const [city, state] of cases) {
    it(`{city: "${city}"}: ${city}, ${state}, said, with ${state}'s notice, as the same city typed`, async () => {
      const a = await ask('eviction notice', { city });
      expect(a).toMatch(reading(city, city, state));
      expect(a).toMatch(notice(state));
      expect(a).toBe(await ask(`eviction notice in ${city}`));
    });
  }

  it('{city: "Kansas City", state: "KS"}: the context state decides it (3 days), no reading to say', async () => {
    const a = await ask('eviction notice', { city: 'Kansas City', state: 'KS' });
    expect(a).toMatch(notice('KS'));
    expect(a).toMatch(/^In Kansas\b/);
    expect(a).not.toMatch(/Reading/);
  });

  it('{city: "Washington"}: Washington, DC, said as not the state', async () => {
    const a = await ask('eviction notice', { city: 'Washington' });
    expect(a).toMatch(/^Reading "Washington" as Washington, DC \(the most populous US place of that name, not the state; /);
    expect(a).toMatch(notice('DC'));
  });
});

describe('a comparison of a bare city with a named namesake', () => {
  it('"Kansas City, Kansas vs Kansas City": both, the bare one as Kansas City, MO, said', async () => {
    const a = await ask('eviction notice in Kansas City, Kansas vs Kansas City');
    expect(a).toMatch(reading('Kansas City', 'Kansas City', 'MO'));
    expect(a).toMatch(new RegExp(`Kansas City, KS ${notice('KS').source}`));
    expect(a).toMatch(/Kansas City, MO no statutory pre-filing notice/);
    expect(facts.get('MO')!.eviction_notice_nonpayment_days).toBe('0');
  });

  it('"Compare ... Portland and Portland, Maine": both, the bare one as Portland, OR, said', async () => {
    const a = await ask('Compare eviction notice in Portland and Portland, Maine');
    expect(a).toMatch(reading('Portland', 'Portland', 'OR'));
    expect(a).toMatch(new RegExp(`Portland, OR ${notice('OR').source}`));
    expect(a).toMatch(new RegExp(`Portland, ME ${notice('ME').source}`));
  });

  it('"Portland, Oregon vs Portland": said to be the same place', async () => {
    const a = await ask('eviction notice in Portland, Oregon vs Portland');
    expect(a).toMatch(/^Reading "Portland" as Portland, OR \(the most populous of \d+ US places of that name; name the state for another\), the same place as the other side: /);
    expect(a).toMatch(notice('OR'));
  });
});

describe('one reading for one name', () => {
  it('"Is Franklin landlord friendly?" reads Franklin, TN, as "eviction notice in Franklin" does', async () => {
    const a = await ask('Is Franklin landlord friendly?');
    expect(a).toMatch(reading('Franklin', 'Franklin', 'TN'));
    expect(a).toMatch(/Tennessee/);
    expect(await ask('eviction notice in Franklin')).toMatch(reading('Franklin', 'Franklin', 'TN'));
  });

  it('"median sale price in Washington" says it read the state and how to ask for DC', async () => {
    const a = await ask('median sale price in Washington');
    expect(a).toMatch(/^Reading "Washington" as Washington State \(say "Washington DC" for the District of Columbia\): /);
    // a state named outright, or beside its city, needs no reading
    expect(await ask('eviction notice in Washington state')).not.toMatch(/Reading/);
    expect(await ask('median price in Seattle, Washington')).not.toMatch(/Reading/);
  });

  it('"981O3" (a letter O) is zip 98103, said', async () => {
    const zip = researchData().zips.get('98103')!;
    const a = await ask('median price in 981O3');
    const right = await ask('median price in 98103');
    expect(a).toBe(`Reading "981O3" as zip 98103 (${zip.city}, ${zip.state}; a letter O read as a zero): ${right}`);
    expect(right).toMatch(/^In zip 98103 /);
  });

  it('a place named many times is said once', async () => {
    const q = Array.from({ length: 40 }, (_, i) => (i % 2 ? 'and in kansas city?' : 'What is the eviction notice in Kansas City?')).join(' ');
    const a = await ask(q);
    expect(a.match(/as Kansas City, MO/g)).toHaveLength(1);
    expect(a.length).toBeLessThan(1000);
  });
});
