// Places compared by their price change with no window asked ("is Stamford or Norwalk appreciating faster"): each is
// given the change every side has over the same months, by the trends rule (the 12-month change, else the 3-month one,
// as a county's zips are: market-facts.ts countyTrends), so the comparison is like for like (like-for-like.ts) and names
// its months. Before (session 26), Stamford's and Norwalk's "no change figure" stood side by side while each has a
// 3-month change (-11.3% and -6.4%, to 2022-09: GET /v1/market/trends gives them). Rules: warehouse/docs/research.md
// "Comparisons".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { changePct, latestSolid, type LevelPoint } from '../../warehouse/price-index.ts';
import { seriesMix } from '../../warehouse/price-mix.ts';
import { ownMarket } from './sales-facts.ts';
import type { StoredTrends } from './price-level.ts';

/** The windows tried, in the trends rule's order. */
const WINDOWS = [12, 3, 24] as const;

/** The change windows a place's trends series has a change over (none when it has no series or no solid month). */
async function windowsOf(data: ResearchData, u: Understanding, named: Target): Promise<number[] | null> {
  if (named.hood) return null;
  const type = u.propertyType;
  const t = await ownMarket(named, (city) => data.shard('trends', { state: named.state, city, property_type: type }));
  if (!t.zip && !t.city) return null;
  const s = await data.shard<StoredTrends>('trends', t.zip ? { zip: t.zip, property_type: type } : { state: t.state, city: t.city!, property_type: type });
  if (!s) return null;
  const c = s.series;
  const points: LevelPoint[] = c.month.map((_, i) => ({ level: c.level[i]!, se: c.se[i]!, n: c.index_sample_count[i]! }));
  if (latestSolid(points, c.complete) < 0) return null;
  const mix = seriesMix(s.method, c.untyped_count, c.index_sample_count);
  return changeWindows(c.month.length, (m) => changePct(points, m, c.complete, mix));
}

/** The window of a compared place's change, when the default 12 months is not it: the first of 12, 3 and 24 months
 *  every compared place with a change has one over, else (none common, or no other place has a change) the first this
 *  place has (`own`: its windows with a change), said not ranked by like-for-like.ts; null when no comparison of
 *  changes is asked with no window, or 12 months serve. */
export async function sharedWindow(data: ResearchData, u: Understanding, own: readonly number[]): Promise<Shared | null> {
  if (u.targets.length < 2 || u.months || u.span || u.years || u.priceLevel || u.asks.includes('sales_count') || own.includes(12)) return null;
  const sides = (await Promise.all(u.targets.map((t) => windowsOf(data, u, t)))).filter((w): w is number[] => w !== null && w.length > 0);
  const common = sides.length >= 2 ? WINDOWS.find((m) => sides.every((w) => w.includes(m))) : undefined;
  const m = common ?? WINDOWS.find((x) => own.includes(x));
  return m && m !== 12 ? { months: m, common: common !== undefined } : null;
}

/** A compared place's change window other than 12 months, and whether every compared place with a change has it. */
export interface Shared { months: number; common: boolean }

/** Why the change given is not the 12-month one, after it: " (the 3-month change, the one every place compared has:
 *  ..., and Stamford, CT has none: <why>)"; `none12` is why this place has no 12-month change, null when it has one. */
export const sharedWords = (s: Shared, where: string, none12: string | null): string =>
  ` (the ${s.months}-month change, ${s.common ? 'the one every place compared has' : `${where}'s first: the places compared have no window with a change in common`}: not all have a 12-month change${none12 ? `, and ${where} has none: ${none12}` : ''})`;

/** The windows of 12, 3 and 24 months a series has a change over (`change`: changePct of a window). */
export const changeWindows = (length: number, change: (m: number) => number | null): number[] => WINDOWS.filter((m) => m < length && change(m) !== null);
