// Review 28 #5: "Has the typical sale price in 19149 gone up or down each month this autumn?" gave November alone. Now
// "this autumn" ("this fall", "this summer") is the season of the suite's pinned day's year, or, the sources ending
// years before it, the last such season the place's data covers, said; and "each month" lists every month of it with
// its median and the change on the month before. Figures from the research oracle (oracle_arms, the arm's-length rule
// re-derived over the raw rows), the changes computed here, never the code's output.
import { describe, expect, it } from 'vitest';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { askWithSalesOracle } from '../../helpers/research.ts';

const answer = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await answer(query)).answer;
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

/** The months of a season's last occurrence ending by the month `end` (YYYY-MM): its year and months. */
function lastSeason(first: number, end: string): { year: number; months: string[] } {
  const ey = Number(end.slice(0, 4)), em = Number(end.slice(5, 7));
  const year = em >= first + 2 ? ey : ey - 1;
  return { year, months: [0, 1, 2].map((k) => `${year}-${String(first + k).padStart(2, '0')}`) };
}

/** "2022-10 $220,000 (40 sales), down 3.3% on 2022-09; ..." from the oracle's month medians. */
async function eachMonth(m: { zip?: string; st?: string; city?: string }, months: string[]): Promise<string> {
  const out: string[] = [];
  let prev: { m: string; median: number } | null = null;
  for (const month of months) {
    const s = await salesOf(m, 'sfr', month, month);
    expect(s.median, month).not.toBeNull();
    const step = prev ? `, ${s.median! > prev.median ? 'up' : 'down'} ${Math.abs(Math.round((s.median! / prev.median - 1) * 1000) / 10)}% on ${prev.m}` : '';
    out.push(`${month} ${usd(s.median!)} (${s.n.toLocaleString('en-US')} sales)${step}`);
    prev = { m: month, median: s.median! };
  }
  return `month by month, the median sale price: ${out.join('; ')}`;
}

describe('review 28 #5: "this autumn", month by month', () => {
  it('"...gone up or down each month this autumn?" in 19149: September to November of the last autumn its data covers, each month', async () => {
    expect(PINNED_TODAY.slice(0, 4)).toBe('2026');
    const [{ end }] = await sql<{ end: string }>("select strftime(max(sale_date), '%Y-%m') as end from oracle_arms where zip = '19149'") as [{ end: string }];
    expect(end < '2026-09').toBe(true); // this autumn (September to November 2026) is after the data
    const fall = lastSeason(9, end);
    const a = await ask('Has the typical sale price in 19149 gone up or down each month this autumn?');
    expect(a).toContain(`in fall ${fall.year} (September to November ${fall.year}: "this fall" read as the last fall before the data of the place ends, in ${end})`);
    expect(a).toContain(await eachMonth({ zip: '19149' }, fall.months));
    // "this fall" reads the same
    expect(await ask('has the median price in 19149 gone up or down each month this fall')).toContain(`in fall ${fall.year} (September to November ${fall.year}`);
  });

  it('"each month this summer" in Seattle: June to August of the last summer before its data ends', async () => {
    const [{ end }] = await sql<{ end: string }>("select strftime(max(sale_date), '%Y-%m') as end from oracle_arms where state_code = 'WA' and lower(city) = 'seattle'") as [{ end: string }];
    const summer = lastSeason(6, end);
    const a = await ask('median sale price in Seattle each month this summer');
    expect(a).toContain(`in summer ${summer.year} (June to August ${summer.year}: "this summer" read as the last summer before the data of the place ends, in ${end})`);
    expect(a).toContain(await eachMonth({ st: 'WA', city: 'Seattle' }, summer.months));
    // without "each month", no month-by-month list
    expect(await ask('median sale price in Seattle this summer')).not.toContain('month by month');
  });
});
