// The change between periods compared ("March vs June 2023", "Q1 2022 vs Q1 2023", a follow-up's "compare to 2021"
// beside the context's 2022), from the same monthly series each period's own figure is read from (year-facts.ts,
// month-facts.ts): from each period to the next in time, the change of its arm's-length sales and, for two single
// months, of their median sale prices. A median over several months together is not kept, so periods of several months
// compare their last months recorded whole with a median (each named, with its sales); counts
// of periods whose months the data holds unequally are compared per month held, said so; a period with no figure
// gives no change, said with the reason its own answer gave. Wording: warehouse/docs/research.md "Years".
import { money, pct, plural } from './facts.ts';
import { inYears, type MonthlySeries } from './year-facts.ts';
import type { Years } from './years.ts';

interface Held { y: Years; months: number; held: string[]; n: number; median: number | null; partial: boolean }

const first = (y: Years): string => y.month ?? y.months?.[0] ?? y.since ?? `${y.from}-01`;
const change = (a: number, b: number): string => (a > 0 ? ` (${pct((b / a - 1) * 100)})` : '');
const monthsOf = (y: Years, last: string): number => {
  if (y.month) return 1;
  if (y.months) { const [a, b] = y.months.map((m) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7))) as [number, number]; return b - a + 1; }
  if (y.since) return Number(last.slice(0, 4)) * 12 + Number(last.slice(5, 7)) - (Number(y.since.slice(0, 4)) * 12 + Number(y.since.slice(5, 7))) + 1;
  return ((y.to ?? Number(last.slice(0, 4))) - y.from + 1) * 12;
};

/** Each period's months held with a count, their sales, and a single month's median. */
function held(c: MonthlySeries, y: Years): Held {
  const is = c.month.map((m, i) => ({ m, i })).filter((x) => (y.month ? x.m === y.month : inYears(x.m, y)) && (c.sales_count[x.i] ?? 0) > 0);
  const n = is.reduce((s, x) => s + c.sales_count[x.i]!, 0);
  const median = y.month && is.length ? c.median_price[is[0]!.i] ?? null : null;
  return { y, months: monthsOf(y, c.month.at(-1) ?? '2000-01'), held: is.map((x) => x.m), n, median, partial: is.some((x) => c.complete?.[x.i] === false) };
}

/** A month's median is read as a period's when the month has this many sales (a month with fewer is taken only where
 *  the period has none such): the solid month of the price level (price-level.ts). */
const SOLID = 20;

/** A period's last month recorded whole with a median (of SOLID sales or more where one is), its median and sales. */
function lastMedian(c: MonthlySeries, x: Held): { month: string; median: number; n: number } | null {
  const months = x.held.map((m) => c.month.indexOf(m)).filter((i) => c.median_price[i] != null && c.complete?.[i] !== false).reverse();
  const i = months.find((j) => (c.sales_count[j] ?? 0) >= SOLID) ?? months[0];
  return i === undefined ? null : { month: c.month[i]!, median: c.median_price[i]!, n: c.sales_count[i]! };
}

/** A whole calendar year's median of all its sales together and their count (market.json `years`), else null. */
export type YearMedian = (y: Years) => { median: number; sales: number } | null;

/** The change from each period to the next in time, one sentence; null for fewer than two periods. Two calendar years
 *  whose year medians are kept (`yearOf`, each over at least the sales counted) compare those, as each year's own
 *  answer gives them (h77ask: "seattle median price 2014 vs 2015" said each year's median of all its sales, then that
 *  such a median "is not kept" and compared December 2014 with April 2015). */
export function periodChange(c: MonthlySeries, periods: readonly Years[], yearOf: YearMedian = () => null): { sentence: string; value: string } | null {
  if (periods.length < 2) return null;
  const all = [...periods].sort((a, b) => first(a).localeCompare(first(b))).map((y) => held(c, y));
  const said: string[] = [], values: string[] = [];
  for (let k = 1; k < all.length; k++) {
    const a = all[k - 1]!, b = all[k]!;
    const span = `from ${a.y.label} to ${b.y.label}`;
    const none = [a, b].filter((x) => x.n === 0);
    if (none.length) {
      said.push(`no change ${span} is given: ${none.map((x) => x.y.label).join(' and ')} ${none.length === 1 ? 'has' : 'have'} no figure in the data (as said above)`);
      continue;
    }
    const partial = a.partial || b.partial ? ` (${[a, b].filter((x) => x.partial).map((x) => x.y.label).join(' and ')} ${[a, b].filter((x) => x.partial).length === 1 ? 'holds a month' : 'hold months'} not recorded whole)` : '';
    if (a.median !== null && b.median !== null) {
      said.push(`${span}, arm's-length sales went from ${a.n.toLocaleString('en-US')} to ${b.n.toLocaleString('en-US')}${change(a.n, b.n)} and the median sale price from ${money(a.median)} to ${money(b.median)}${change(a.median, b.median)}${partial}`);
      values.push(`${a.y.label} to ${b.y.label}: median ${pct((b.median / a.median - 1) * 100)}`);
      continue;
    }
    // periods of several months: the count, per month held when the data holds their months unequally
    const whole = a.held.length === a.months && b.held.length === b.months;
    const perMonth = (x: Held): number => x.n / x.held.length;
    const per = (x: Held): string => Math.round(perMonth(x)).toLocaleString('en-US');
    const counts = whole
      ? `arm's-length sales went from ${a.n.toLocaleString('en-US')} to ${b.n.toLocaleString('en-US')}${change(a.n, b.n)}`
      : `arm's-length sales per month held went from ${per(a)} (${plural(a.n, 'sale')} over ${plural(a.held.length, 'month')}) to ${per(b)} (${plural(b.n, 'sale')} over ${plural(b.held.length, 'month')})${change(perMonth(a), perMonth(b))}, since the data holds ${a.held.length} of ${a.y.label}'s ${a.months} months and ${b.held.length} of ${b.y.label}'s ${b.months}`;
    // each period's median: its last month recorded whole with a median, named with its sales (review 27: "from spring
    // 2014 to spring 2015" gave sale counts alone, while each period's answer above gives its months' medians)
    const [ma, mb] = [lastMedian(c, a), lastMedian(c, b)];
    const [ya, yb] = [yearOf(a.y), yearOf(b.y)];
    if (ya && yb && ya.sales >= a.n && yb.sales >= b.n) {
      said.push(`${span}, ${counts}${partial}; the median sale price of each year's sales taken together went from ${money(ya.median)} (${a.y.label}, ${plural(ya.sales, 'sale')}) to ${money(yb.median)} (${b.y.label}, ${plural(yb.sales, 'sale')})${change(ya.median, yb.median)}`);
      values.push(`${a.y.label} to ${b.y.label}: sales${whole ? '' : ' per month'} ${change(whole ? a.n : perMonth(a), whole ? b.n : perMonth(b)).trim().replace(/^\(|\)$/g, '') || 'no change figure'}, median ${pct((yb.median / ya.median - 1) * 100)} (year medians)`);
      continue;
    }
    const medians = ma && mb
      ? `; a median over several months together is not kept, so each period's median is its last month recorded whole with one${ma.n < SOLID || mb.n < SOLID ? '' : ` and ${SOLID} or more sales`}: the median sale price went from ${money(ma.median)} (${ma.month}, ${plural(ma.n, 'sale')}) to ${money(mb.median)} (${mb.month}, ${plural(mb.n, 'sale')})${change(ma.median, mb.median)}`
      : '; a median over several months together is not kept, so no change of the median is given';
    said.push(`${span}, ${counts}${partial}${medians}`);
    values.push(`${a.y.label} to ${b.y.label}: sales${whole ? '' : ' per month'} ${change(whole ? a.n : perMonth(a), whole ? b.n : perMonth(b)).trim().replace(/^\(|\)$/g, '') || 'no change figure'}${ma && mb ? `, median ${pct((mb.median / ma.median - 1) * 100)} (${ma.month} to ${mb.month})` : ''}`);
  }
  const sentence = said.map((s, i) => (i === 0 ? `${s.charAt(0).toUpperCase()}${s.slice(1)}` : s)).join('; ');
  return { sentence, value: values.join('; ') };
}
