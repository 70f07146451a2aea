// "Has the typical sale price gone up or down each month this fall?": the months of the period asked one by one, from
// the monthly series of GET /v1/market/trends (read by year-facts.ts): each month's median sale price and sales, and
// whether it went up or down on the month before. Before (review 28), the range of the monthly medians alone was given.
import { money, plural } from './facts.ts';
import { EACH_MONTH as EACH } from './years.ts';


/** The columns read (a trends shard's monthly series, oldest first). */
interface Series { median_price: (number | null)[]; complete?: boolean[]; covered?: boolean[] }

/** The months asked one by one when the question asks for each month, else ''. `months`: the period's months with sales. */
export function monthByMonth(query: string, c: Series, months: readonly { m: string; i: number; n: number }[]): string {
  if (!EACH.test(query) || months.length < 2) return '';
  let prev: { m: string; price: number } | null = null;
  const each = months.map((x) => {
    const price = c.median_price[x.i] ?? null;
    const whole = c.complete?.[x.i] !== false;
    const why = c.covered?.[x.i] === false ? 'recorded in part only' : 'recorded in part by its source';
    if (price === null) return `${x.m} ${plural(x.n, 'sale')}, no median${whole ? '' : ` (${why})`}`;
    // a month recorded in part measures no change, to or from it (it said so: before, "no change measured from it" stood
    // beside "down 1.8% on 2019-05", Denver's June 2019)
    const step = prev && whole ? `, ${price === prev.price ? 'unchanged' : `${price > prev.price ? 'up' : 'down'} ${Math.abs(Math.round(((price / prev.price) - 1) * 1000) / 10)}%`} on ${prev.m}` : '';
    prev = whole ? { m: x.m, price } : null;
    return `${x.m} ${money(price)} (${plural(x.n, 'sale')}${whole ? '' : `; ${why}, no change measured from it`})${step}`;
  });
  return `month by month, the ${/\b(sales|sold)\b/i.test(query) ? "arm's-length sales and their " : ''}median sale price: ${each.join('; ')}`;
}
