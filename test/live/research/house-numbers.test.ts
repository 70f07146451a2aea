// A five-digit house number is no zip (live/research/street-line.ts startsStreetLine, the one rule places.ts,
// state-clash.ts, area-towns.ts and place-aliases.ts read a zip by): "12345 NE 80th St, Redmond WA" was answered for zip
// 12345 (Schenectady, NY) and Nebraska, "10001 Lake City Way NE Seattle" for zip 10001 (New York), "19149 Main St
// Philadelphia PA" for zip 19149. Five digits that start no street line stay a zip. Over the shared real build on the
// pinned clock (an engine without the address index), and through a real server (with it) for a raw Sacramento street
// line whose five-digit house number is a zip of another place in the build's gazetteer.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { ADDRESS } from '../../../live/research/street-line.ts';
import type { ValuationBody } from '../../../live/valuation/endpoint.ts';
import { serveSharedBuild } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { researchData } from '../../helpers/research.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
/** The answer after the reading of the street line (`Reading "<line>" ...: `), which must start it. */
const afterLine = (a: string, line: string): string => {
  const end = "name its zip for that zip's figures: ";
  expect(a.startsWith(`Reading "${line}"`), a).toBe(true);
  expect(a, a).toContain(`"${line}": this build has no address index, so it is not placed in a zip; `);
  return a.slice(a.indexOf(end) + end.length);
};

describe('five digits that start a street line are its house number, never a zip', () => {
  it('"What is 12345 NE 80th St, Redmond WA worth?": Redmond\'s price level, never zip 12345 nor Nebraska', async () => {
    const r = await ask('What is 12345 NE 80th St, Redmond WA worth?');
    expect(r).not.toMatch(/zip 12345|Schenectady|Nebraska/);
    expect(r).toMatch(/^Reading "12345 NE 80th St" asked its value as its zip's typical sale price/);
    expect(r).toContain('the answer is for Redmond, WA as a whole');
    expect(afterLine(r, '12345 NE 80th St')).toBe(await ask('median price in Redmond, WA'));
  });

  it('"rehab activity near 10001 Lake City Way NE Seattle": Seattle\'s rehab answer, never zip 10001 (New York)', async () => {
    const r = await ask('rehab activity near 10001 Lake City Way NE Seattle');
    expect(r).not.toMatch(/zip 10001|New York/);
    expect(afterLine(r, '10001 Lake City Way NE')).toBe(await ask('rehab activity in Seattle'));
  });

  it('"value of 19149 Main St Philadelphia PA": Philadelphia\'s price level, not zip 19149\'s (the number is also a Philadelphia zip)', async () => {
    const r = await ask('value of 19149 Main St Philadelphia PA');
    expect(r).not.toMatch(/zip 19149/);
    expect(afterLine(r, '19149 Main St')).toBe(await ask('median price in Philadelphia, PA'));
  });

  it('five digits that start no street line stay a zip: "homes in 19149", "median price in 98103 per square foot"', async () => {
    expect(await ask('homes in 19149')).toMatch(/^In zip 19149 \(Philadelphia, PA\)/);
    const sqft = await ask('price per sqft in 98103');
    expect(sqft).toMatch(/^In zip 98103 \(Seattle, WA\), [\d,]+ single-family sales .* per sqft/);
    for (const q of ['median price in 98103 per square foot', 'price per sq ft 98103']) expect(await ask(q), q).toBe(sqft);
    // a zip after a street line is the zip typed
    expect(await ask('median price near 2835 Unruh Ave 19149')).toMatch(/In zip 19149 \(Philadelphia, PA\)/);
  });
});

describe('a raw street line with a five-digit house number that is a zip elsewhere: the property\'s own estimate', () => {
  const api = serveSharedBuild('pro', 100_000);
  let pick: { line: string; zip: string; number: string; elsewhere: { city: string; state: string } };
  beforeAll(async () => {
    const zips = researchData().zips;
    // the raw Sacramento file's residential rows with a living area and a price whose street line the research reads
    // whole (house number, street words, suffix), unique in its zip, its five-digit number a zip of another place
    const rows = await rawQuery<{ line: string; zip: string }>(`select trim(street) as line, zip
      from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
      where type = 'Residential' and try_cast(sq__ft as int) > 0 and try_cast(price as int) > 0 and regexp_matches(trim(street), '^[0-9]{5} ')`);
    const count = new Map<string, number>();
    for (const r of rows) count.set(`${r.zip}|${r.line}`, (count.get(`${r.zip}|${r.line}`) ?? 0) + 1);
    const hit = rows.find((r) => ADDRESS.exec(r.line)?.[0] === r.line && count.get(`${r.zip}|${r.line}`) === 1 && zips.get(r.line.slice(0, 5))?.state !== undefined
      && zips.get(r.line.slice(0, 5))!.state !== 'CA');
    expect(hit).toBeDefined();
    const number = hit!.line.slice(0, 5);
    pick = { line: hit!.line.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase()), zip: hit!.zip, number, elsewhere: zips.get(number)! };
  }, 120_000);

  it('"what is <line> worth": placed in its own zip by the address index, with the valuation engine\'s estimate', async () => {
    const v = await (await api.post('/v1/valuation/estimate', { zip: pick.zip, address: pick.line })).json() as ValuationBody;
    expect(v.subject.matched).toBe(true);
    const r = await (await api.post('/v1/research/query', { query: `what is ${pick.line} worth`, depth: 'quick' })).json() as { answer: string };
    expect(r.answer).toContain(`"${pick.line}" as zip ${pick.zip} (`);
    expect(r.answer).toContain(`(property_id ${v.subject.property_id})`);
    expect(r.answer).not.toContain(`zip ${pick.number}`);
    expect(r.answer).not.toContain(`${pick.elsewhere.city}, ${pick.elsewhere.state}`);
  });
});
