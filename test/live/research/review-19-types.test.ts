// The nineteenth research review's type comparison (live/research/type-diff.ts): "compare condos and houses in
// brooklyn" read "compare" as a market overview and gave the condo median and an investor sentence, the houses
// dropped. Over the shared real build on the suite's pinned clock; figures from our own SQL over the build's canonical
// tables with the arm's-length rule re-derived (oracle_arms, test/helpers/oracle-research-market.ts: the raw rolling
// sales files' BOROUGH column for Brooklyn), as type-quarter.test.ts reads them. And a follow-up naming a type with a
// context period ("what about the condos", live/research/context-period.ts) answered with the latest figures.
import { describe, expect, it } from 'vitest';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import type { Context } from '../../../live/research/places.ts';
import { askWithSalesOracle, researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

const answer = askWithSalesOracle();
const ask = async (q: string): Promise<string> => (await answer(q)).answer;
let engine: ResearchEngine | undefined;
/** A follow-up with its context (askWithSalesOracle asks without one). */
const ctxAnswer = (query: string, context: Context): ReturnType<ResearchEngine['answer']> => (engine ??= new ResearchEngine(researchData(), null, PINNED_TODAY)).answer({ query, context, depth: 'quick' });
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

describe('property types compared in one place give both types\' medians and their difference', () => {
  const diff = (hi: number, lo: number): string => `${usd(hi - lo)} (${((hi - lo) / lo * 100).toFixed(1)}%)`;
  it('"compare condos and houses in brooklyn": the condo and the single-family median of 2024-02, never an investor sentence in place of one', async () => {
    const condo = await salesOf({ borough: 3 }, 'condo', '2024-02', '2024-02');
    const sfr = await salesOf({ borough: 3 }, 'sfr', '2024-02', '2024-02');
    expect(sfr.median!).not.toBe(condo.median!);
    const r = await ask('compare condos and houses in brooklyn');
    expect(r).toContain(`In Brooklyn, NY, the median condo sale price was ${usd(condo.median!)} in 2024-02 (${condo.n} sales)`);
    // the higher median is said above the lower, whichever it is (condominiums alone since F7: co-ops are no condos)
    const [hi, lo] = sfr.median! > condo.median! ? [['single-family', sfr.median!], ['condo', condo.median!]] as const : [['condo', condo.median!], ['single-family', sfr.median!]] as const;
    expect(r).toContain(`In Brooklyn, NY, the median single-family sale price was ${usd(sfr.median!)} in 2024-02 (${sfr.n} sales); the ${hi[0]} median (${usd(hi[1])}) is ${diff(hi[1], lo[1])} above the ${lo[0]} median (${usd(lo[1])}), both of 2024-02`);
    expect(r).not.toMatch(/investor/);
  });

  it('"denver condos vs single family" says the difference too', async () => {
    const condo = await salesOf({ st: 'CO', city: 'Denver' }, 'condo', '2019-05', '2019-05');
    const sfr = await salesOf({ st: 'CO', city: 'Denver' }, 'sfr', '2019-05', '2019-05');
    const r = await ask('denver condos vs single family');
    expect(r).toContain(`the median condo sale price was ${usd(condo.median!)} in 2019-05 (${condo.n} sales)`);
    expect(r).toContain(`the single-family median (${usd(sfr.median!)}) is ${diff(sfr.median!, condo.median!)} above the condo median (${usd(condo.median!)}), both of 2019-05`);
  });
});

describe('a follow-up naming a property type keeps the context period, and says it', () => {
  it('"what about the condos" after Brooklyn in March 2022: March 2022\'s condo sales, never the latest figures', async () => {
    const m = await salesOf({ borough: 3 }, 'condo', '2022-03', '2022-03');
    const r = (await ctxAnswer('what about the condos', { city: 'Brooklyn', state: 'NY', period: 'March 2022' })).answer;
    expect(r).toMatch(/^Reading the follow-up as the condo sale prices of Brooklyn, NY for March 2022, as in your previous question \(context\.period\): /);
    expect(r).toContain(`In Brooklyn, NY, in March 2022 there were ${m.n} arm's-length condo sales, at a median sale price of ${usd(m.median!)}`);
    expect(r).not.toMatch(/2024-02 \(|investor/);
  });

  it('"what about the condos" after zip 98103 in March 2015: the period said, and why King County has no condo figure', async () => {
    const r = (await ctxAnswer('what about the condos', { zip: '98103', period: 'March 2015' })).answer;
    expect(r).toMatch(/^Reading the follow-up as the condo sale prices of zip 98103 for March 2015, as in your previous question \(context\.period\): We have no condo figures for zip 98103/);
    expect(r).not.toMatch(/investor/);
  });
});

describe('a misspelled borough is read the same with or without "in" before it', () => {
  it('"qeens median price", "median price qeens": Queens, said, as "median price in qeens"; misspelled market words are no place', async () => {
    const m = await salesOf({ borough: 4 }, 'sfr', '2024-02', '2024-02');
    const withIn = await ask('median price in qeens');
    expect(withIn).toContain(`Reading "qeens" as Queens, NY (the closest city name): In Queens, NY, the median single-family sale price was ${usd(m.median!)} in 2024-02 (${m.n} sales)`);
    for (const q of ['qeens median price', 'median price qeens', 'qeens home prices']) expect(await ask(q), q).toBe(withIn);
    // five-letter words beside market words that are no town stay unread: no place, never a misspelled city
    for (const q of ['pirce median', 'hosue prices', 'slaes median', 'median prcie']) expect(await ask(q), q).not.toMatch(/closest city name/);
  });
});
