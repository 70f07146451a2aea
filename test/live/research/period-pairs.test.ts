// Two months of one year named with the year once ("queens prices march and june 2022", "brooklyn median sale price in
// march vs june 2023", "98103 sales in jan and feb 2015") are those two months, each its own count and median and the
// change between them (before: all of 2022, June 2023 alone, no answer); "Q1 vs Q2 2022" is both quarters (before: Q2
// alone); a range stays a range; a follow-up comparing a period with the context's (context.period: "compare to 2021"
// after 2022) gives both side by side with the change (before: 2021 alone), or says why not. Over the shared real build
// on the suite's pinned clock; expected figures are our own SQL over the raw files in ../shared/data and the canonical
// tables (oracle_arms: the arm's-length rule re-derived; a New York City borough by the raw files' BOROUGH column).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithSalesOracle, researchData } from '../../helpers/research.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { artifactsDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { ResearchEngine, type ResearchBody } from '../../../live/research/endpoint.ts';

const ask = askWithSalesOracle();
const followUp = (query: string, context: Record<string, string>) => new ResearchEngine(researchData(), null, PINNED_TODAY).answer({ query, depth: 'quick', context });
const count = (n: number): string => n.toLocaleString('en-US');
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const pct = (a: number, b: number): string => { const x = Math.round((b / a - 1) * 1000) / 10; return `${x > 0 ? '+' : ''}${x}%`; };
const QUEENS = { borough: 4 }, BROOKLYN = { borough: 3 };
const month = (m: { st?: string; city?: string; zip?: string; borough?: number }, ym: string) => salesOf(m, 'sfr', ym, ym);

describe('two months of one year are those two months, each with its figure, and the change between them', () => {
  it('"brooklyn median sale price in march vs june 2023" (and "march/june", "in march and in june"): March and June 2023 and the change (was June alone)', async () => {
    const a = await month(BROOKLYN, '2023-03'), b = await month(BROOKLYN, '2023-06');
    for (const q of ['brooklyn median sale price in march vs june 2023', 'brooklyn prices march/june 2023', 'brooklyn prices in march and in june 2023']) {
      const r = (await ask(q)).answer;
      expect(r, q).toContain(`In Brooklyn, NY, in March 2023 there were ${count(a.n)} arm's-length single-family sales, at a median sale price of ${usd(a.median!)}`);
      expect(r, q).toContain(`In Brooklyn, NY, in June 2023 there were ${count(b.n)} arm's-length single-family sales, at a median sale price of ${usd(b.median!)}`);
      expect(r, q).toContain(`From March 2023 to June 2023, arm's-length sales went from ${count(a.n)} to ${count(b.n)} (${pct(a.n, b.n)}) and the median sale price from ${usd(a.median!)} to ${usd(b.median!)} (${pct(a.median!, b.median!)})`);
    }
  });
  it('"98103 sales in jan and feb 2015", "jan & feb \'15", "janurary vs feb 2015": January and February 2015 (was no answer)', async () => {
    const a = await month({ zip: '98103' }, '2015-01'), b = await month({ zip: '98103' }, '2015-02');
    for (const q of ['98103 sales in jan and feb 2015', "98103 home prices jan & feb '15", '98103 median price janurary vs feb 2015', '98103 home prices 2015 jan and feb']) {
      const r = (await ask(q)).answer;
      expect(r, q).toContain(`in January 2015 there were ${a.n} arm's-length single-family sales, at a median sale price of ${usd(a.median!)}`);
      expect(r, q).toContain(`in February 2015 there were ${b.n} arm's-length single-family sales, at a median sale price of ${usd(b.median!)}`);
      expect(r, q).toContain(`From January 2015 to February 2015, arm's-length sales went from ${a.n} to ${b.n} (${pct(a.n, b.n)}) and the median sale price from ${usd(a.median!)} to ${usd(b.median!)} (${pct(a.median!, b.median!)})`);
    }
  });
  it('"queens prices march and june 2022" (and "mar & jun", "march, june"): March\'s figure, June outside the files, no change (was all of 2022)', async () => {
    const a = await month(QUEENS, '2022-03'), b = await month(QUEENS, '2022-06');
    expect(b.n).toBe(0);
    for (const q of ['queens prices march and june 2022', 'queens mar & jun 2022 prices', 'queens prices march, june 2022']) {
      const r = (await ask(q)).answer;
      expect(r, q).toContain(`In Queens, NY, in March 2022 there were ${count(a.n)} arm's-length single-family sales, at a median sale price of ${usd(a.median!)}`);
      expect(r, q).toContain('I don\'t have single-family sales for Queens, NY in June 2022: no file of the source covers that month');
      expect(r, q).toContain('No change from March 2022 to June 2022 is given: June 2022 has no figure in the data');
      expect(r, q).not.toContain('in 2022 there were');
    }
  });
  it('"median price 11215 may vs june 2023": months of 1-4 sales said as such, and no change', async () => {
    const a = await month({ zip: '11215' }, '2023-05'), b = await month({ zip: '11215' }, '2023-06');
    expect(Math.max(a.n, b.n)).toBeLessThan(5);
    const r = (await ask('median price 11215 may vs june 2023')).answer;
    expect(r).toContain('in May 2023: the month had fewer than 5 arm');
    expect(r).toContain('in June 2023: the month had fewer than 5 arm');
    expect(r).toContain('No change from May 2023 to June 2023 is given: May 2023 and June 2023 have no figure in the data');
  });
  it('"Q1 vs Q2 2022 queens prices": Q1\'s sales and Q2 outside the data (was Q2 alone); a range stays one range', async () => {
    const q1 = await salesOf(QUEENS, 'sfr', '2022-01', '2022-03');
    const r = (await ask('Q1 vs Q2 2022 queens prices')).answer;
    expect(r).toContain(`In Queens, NY, in Q1 2022 there were ${count(q1.n)} arm's-length single-family sales (2022-01 to 2022-03)`);
    expect(r).toContain('so Q2 2022 is outside the data');
    const march = await month(QUEENS, '2022-03');
    const range = (await ask('sales in queens between march and june 2022')).answer;
    expect(range).toContain(`In Queens, NY, from March to June 2022 there were ${count(march.n)} arm's-length single-family sales (the data holds 1 month of March to June 2022, 2022-03)`);
    expect(range).not.toContain('No change from');
  });
});

describe("a follow-up compared with the context's period (context.period)", () => {
  it('"compare to 2021", "how about vs 2021", "and compared with last year" {Queens, 2022}: 2022 and 2021 side by side, the change per month held', async () => {
    const y22 = await salesOf(QUEENS, 'sfr', '2022-01', '2022-12'), y21 = await salesOf(QUEENS, 'sfr', '2021-01', '2021-12');
    expect([y22.months5, y21.months5]).toEqual([3, 9]);
    const per = (x: { n5: number; months5: number }): number => x.n5 / x.months5;
    for (const q of ['compare to 2021', 'how about vs 2021', 'and compared with last year']) {
      const r = (await followUp(q, { city: 'Queens', state: 'NY', period: '2022' })).answer;
      expect(r, q).toContain('the follow-up as 2022 (the context\'s period) compared with 2021');
      expect(r, q).toContain(`In Queens, NY, in 2022 there were ${count(y22.n)} arm's-length single-family sales (the data holds 3 months of 2022, 2022-01 to 2022-03)`);
      expect(r, q).toContain(`In Queens, NY, in 2021 there were ${count(y21.n)} arm's-length single-family sales (the data holds 9 months of 2021, 2021-04 to 2021-12)`);
      expect(r, q).toContain(`From 2021 to 2022, arm's-length sales per month held went from ${count(Math.round(per(y21)))} (${count(y21.n)} sales over 9 months) to ${count(Math.round(per(y22)))} (${count(y22.n)} sales over 3 months) (${pct(per(y21), per(y22))})`);
    }
  });
  it('"and vs a year earlier" {Brooklyn, March 2023}: March 2023 and March 2022 with the change', async () => {
    const a = await month(BROOKLYN, '2022-03'), b = await month(BROOKLYN, '2023-03');
    const r = (await followUp('and vs a year earlier', { city: 'Brooklyn', state: 'NY', period: 'March 2023' })).answer;
    expect(r).toContain('the follow-up as March 2023 (the context\'s period) compared with March 2022 (a year before it)');
    expect(r).toContain(`From March 2022 to March 2023, arm's-length sales went from ${count(a.n)} to ${count(b.n)} (${pct(a.n, b.n)}) and the median sale price from ${usd(a.median!)} to ${usd(b.median!)} (${pct(a.median!, b.median!)})`);
  });
  it('with no context.period, "compare to 2021" is 2021 alone, said why', async () => {
    const y21 = await salesOf(QUEENS, 'sfr', '2021-01', '2021-12');
    const r = (await followUp('compare to 2021', { city: 'Queens', state: 'NY' })).answer;
    expect(r).toContain('the follow-up as 2021 alone: no period of the earlier answer came with the question (context.period, e.g. "2022"), so no comparison with it is given');
    expect(r).toContain(`In Queens, NY, in 2021 there were ${count(y21.n)} arm's-length`);
  });
});

describe('POST /v1/research/query takes context.period', () => {
  let srv: TestServer;
  beforeAll(async () => { srv = await startTestServer(artifactsDir()); });
  afterAll(async () => { await srv.close(); });
  it('a follow-up with context.period is answered with both periods (200); a period over 60 characters is 422', async () => {
    const key = srv.key('pro');
    const res = await srv.post('/v1/research/query', { query: 'compare to 2021', context: { city: 'Queens', state: 'NY', period: '2022' } }, key);
    expect(res.status).toBe(200);
    expect(((await res.json()) as ResearchBody).answer).toContain('From 2021 to 2022, arm\'s-length sales per month held went from');
    expect((await srv.post('/v1/research/query', { query: 'compare to 2021', context: { city: 'Queens', state: 'NY', period: 'x'.repeat(61) } }, key)).status).toBe(422);
  });
});
