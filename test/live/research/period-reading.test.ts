// Review r18's periods (C7-C10, D): a span with ISO months ("between 2014-07 and 2014-09", "2014-10 to 2015-03"), a
// start month ("since october 2014"), a quarter written "1Q15", period words not read (said, never replaced), a month
// with no year, and follow-ups naming a month with the context's period. Over the shared real build on the suite's
// pinned clock; expected figures are our own SQL over the raw King County file in ../shared/data (every record of it is
// an arm's-length single-family sale in the build: its months' counts are the raw rows) and the canonical tables
// (oracle_arms, oracle-research-market.ts) for the other places.
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle, researchData } from '../../helpers/research.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { dataFile } from '../../helpers/oracle-raw-comps.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { ResearchEngine } from '../../../live/research/endpoint.ts';

const ask = askWithSalesOracle();
const followUp = (query: string, context: Record<string, string>) => new ResearchEngine(researchData(), null, PINNED_TODAY).answer({ query, depth: 'quick', context });
const count = (n: number): string => n.toLocaleString('en-US');
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

/** The raw King County file's sales of a zip from `from` to `to` (YYYY-MM, inclusive): count and median. */
async function kc(zip: string, from: string, to: string): Promise<{ n: number; median: number }> {
  const [r] = await sql<{ n: number; median: number }>(`select count(*)::int as n, quantile_cont(price::double, 0.5) as median
    from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)
    where zipcode = $zip and strftime(strptime(left(date, 8), '%Y%m%d'), '%Y-%m') between $from and $to`, { zip, from, to });
  return { n: r!.n, median: Number(r!.median) };
}

describe('a span or a start written with ISO months or a month word is those months (C7-C9)', () => {
  it('"between 2014-07 and 2014-09" is July to September 2014, not all of 2014', async () => {
    const s = await kc('98103', '2014-07', '2014-09'), y = await kc('98103', '2014-01', '2014-12');
    expect(s.n).toBeLessThan(y.n);
    const r = (await ask('median sale price in 98103 between 2014-07 and 2014-09')).answer;
    expect(r).toContain(`In zip 98103 (Seattle, WA), from July to September 2014 there were ${count(s.n)} arm's-length single-family sales (2014-07 to 2014-09)`);
    expect(r).not.toContain(`${count(y.n)} arm's-length`);
  });
  it('"2014-10 to 2015-03" is October 2014 to March 2015, not October 2014 alone', async () => {
    const s = await kc('98103', '2014-10', '2015-03'), oct = await kc('98103', '2014-10', '2014-10');
    const r = (await ask('median price 98103 2014-10 to 2015-03')).answer;
    expect(r).toContain(`In zip 98103 (Seattle, WA), from October 2014 to March 2015 there were ${count(s.n)} arm's-length single-family sales (2014-10 to 2015-03)`);
    expect(r).not.toContain(`in October 2014 there were ${count(oct.n)}`);
  });
  it('"since october 2014" runs from 2014-10 to the data\'s end, not since January 2014', async () => {
    const s = await kc('98103', '2014-10', '2099-12'), all = await kc('98103', '2014-01', '2099-12');
    expect(s.n).toBeLessThan(all.n);
    const r = (await ask('median price in 98103 since october 2014')).answer;
    expect(r).toContain(`In zip 98103 (Seattle, WA), since October 2014 there were ${count(s.n)} arm's-length single-family sales (2014-10 to 2015-05)`);
  });
});

describe('"1Q15", period words not read, a month with no year, a date with a day (C10)', () => {
  it('"median price 98103 in 1Q15" is Q1 2015, not the latest month', async () => {
    const q = await kc('98103', '2015-01', '2015-03');
    expect((await ask('median price 98103 in 1Q15')).answer).toContain(`In zip 98103 (Seattle, WA), in Q1 2015 there were ${count(q.n)} arm's-length single-family sales (2015-01 to 2015-03)`);
  });
  it('"two years ago", "last month": said not read, never silently the latest month', async () => {
    for (const [q, w] of [['what was the median in 98103 two years ago', 'two years ago'], ['median price 98103 last month', 'last month']] as const) {
      // where the data ends, said (session 26; before: "the sources end years before today"): King County's file ends in 2015-05
      expect((await ask(q)).answer, q).toMatch(new RegExp(`I could not read "${w}" as a period \\(a time counted from today is not read: the data of the figures here ends 2015-05-\\d\\d, over 11 years before 2026-11-21\\), so no figure here is for it`));
    }
    // a legal rule is the one in force: no period is said unread beside it
    expect((await ask('how many days notice to evict in california this year')).answer).not.toContain('I could not read');
  });
  it('"in may in seattle": the latest May recorded whole (May 2014; May 2015 is a part month), said', async () => {
    const m = await salesOf({ st: 'WA', city: 'Seattle' }, 'sfr', '2014-05', '2014-05');
    const r = (await ask('what did homes sell for in may in seattle')).answer;
    expect(r).toContain(`In Seattle, WA, in May 2014 ("may" with no year read as the latest May recorded whole in the data of the place: May 2015 is not recorded whole) there were ${count(m.n)} arm's-length single-family sales (2014-05); the month's median sale price was ${usd(m.median!)}`);
  });
  it('"on february 30 2015": February 2015, the impossible day said, not the 2015 total', async () => {
    const f = await kc('98103', '2015-02', '2015-02'), y = await kc('98103', '2015-01', '2015-12');
    const r = (await ask('how many homes sold in 98103 on february 30 2015')).answer;
    expect(r).toContain('Reading "february 30 2015" as February 2015: February 2015 has no day 30 (it has 28 days), so the date is no date; sales are counted by month');
    expect(r).toContain(`In zip 98103 (Seattle, WA), in February 2015 there were ${count(f.n)} arm's-length single-family sales`);
    expect(r).not.toContain(`${count(y.n)} arm's-length`);
  });
});

describe('a follow-up naming a month, a year later or the months before, with the context\'s period (D)', () => {
  it('"and in may?" {98115, April 2015} is May 2015 (a part month), never a regulation record', async () => {
    const may = await kc('98115', '2015-05', '2015-05');
    const r = await followUp('and in may?', { zip: '98115', period: 'April 2015' });
    expect(r.answer).toContain('Reading "may" as May 2015 (the year of the context\'s period, April 2015)');
    expect(r.answer).toContain(`In zip 98115 (Seattle, WA), May 2015 is a partial month in this data: ${count(may.n)} arm's-length single-family sales recorded in it (the month is recorded in part only`);
    expect(r.answer).not.toMatch(/Garn-St Germain|due-on-sale/);
  });
  it('"how about March?" {98052, Feb 2015}, "and in june?" {98115, May 2014}: that month of the context\'s year', async () => {
    const mar = await kc('98052', '2015-03', '2015-03'), jun = await kc('98115', '2014-06', '2014-06');
    expect((await followUp('how about March?', { zip: '98052', period: 'Feb 2015' })).answer).toContain(`In zip 98052 (Redmond, WA), in March 2015 there were ${count(mar.n)} arm's-length single-family sales, at a median sale price of ${usd(mar.median)}`);
    expect((await followUp('and in june?', { zip: '98115', period: 'May 2014' })).answer).toContain(`In zip 98115 (Seattle, WA), in June 2014 there were ${count(jun.n)} arm's-length single-family sales, at a median sale price of ${usd(jun.median)}`);
  });
  it('"and december?" {Denver, Nov 2018} is December 2018, not all of 2018', async () => {
    const d = await salesOf({ st: 'CO', city: 'Denver' }, 'sfr', '2018-12', '2018-12');
    const r = (await followUp('and december?', { city: 'Denver', state: 'CO', period: 'Nov 2018' })).answer;
    expect(r).toContain(`In Denver, CO, in December 2018 there were ${count(d.n)} arm's-length single-family sales, at a median sale price of ${usd(d.median!)}`);
  });
  it('"what about march" {Brooklyn, Feb 2024}: March 2024 is after the data, said, never February\'s figure', async () => {
    const feb = await salesOf({ borough: 3 }, 'sfr', '2024-02', '2024-02'), mar = await salesOf({ borough: 3 }, 'sfr', '2024-03', '2024-03');
    expect(mar.n).toBe(0);
    const r = (await followUp('what about march', { city: 'Brooklyn', state: 'NY', period: 'Feb 2024' })).answer;
    expect(r).toContain("I don't have single-family sales for Brooklyn, NY in March 2024");
    expect(r).not.toContain(`(${count(feb.n)} sales)`);
  });
  it('"compare to the prior 6 months" {98115, October 2014 to March 2015}: April-September 2014 against it', async () => {
    const ctx = await kc('98115', '2014-10', '2015-03'), prior = await kc('98115', '2014-04', '2014-09');
    const r = (await followUp('compare to the prior 6 months', { zip: '98115', period: 'October 2014 to March 2015' })).answer;
    expect(r).toContain('Reading "the prior 6 months" as April 2014 to September 2014, the 6 months before the context\'s period');
    expect(r).toContain(`In zip 98115 (Seattle, WA), from October 2014 to March 2015 there were ${count(ctx.n)} arm's-length single-family sales`);
    expect(r).toContain(`In zip 98115 (Seattle, WA), from April to September 2014 there were ${count(prior.n)} arm's-length single-family sales`);
  });
  it('"and how about a year later?" {98103, June 2014}: June 2015, after the King County file ends (said)', async () => {
    expect((await kc('98103', '2015-06', '2015-06')).n).toBe(0);
    const r = (await followUp('and how about a year later?', { zip: '98103', period: 'June 2014' })).answer;
    expect(r).toContain('Reading "a year later" as June 2015 (a year after the context\'s period, June 2014)');
    expect(r).toContain("I don't have single-family sales for zip 98103 (Seattle, WA) in June 2015");
  });
});
