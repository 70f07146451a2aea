// The calendar months of a period asked of records kept by month (permits: permit-periods.ts; foreclosure and lien
// filings: distress-periods.ts), and how a source's records cover each month: the one reading of a year, a month, a
// span, "since 2025", a month with no year ("in may") or "last spring" against a place's files, so a count is never
// of months its file does not hold unsaid. The shape of market.json's counts by month (`permit_months`,
// `distress_months`) is here too: a leaf, so the server's modules load no build code. Rules: warehouse/docs/research.md
// "Permit counts" and "Distress by period".
import type { Years } from './years.ts';
import { resolveLast } from './periods.ts';

/** Records of each place by kind and calendar month: `places`: a place key (`zip|<zip>`, `city|<state>|<city slug>`)
 *  -> [first month (YYYY-MM), source ids, kind -> count per month from it]; `spans`: source id -> [first, last] date
 *  (YYYY-MM-DD) of its records, what its file covers. */
export interface MonthCounts<K extends string = string> {
  places: Record<string, [first: string, sources: string[], byKind: Partial<Record<K, number[]>>]>;
  spans: Record<string, [first: string, last: string]>;
  /** filings only: the index keeps `zip|<zip>` entries where the filings record a zip (builds since session 25); an
   *  index without it cannot tell a source naming no zip from an index keeping none */
  zips?: true;
}

export type Cover = 'whole' | 'part' | 'none';

/** A period's label as said after a verb: "in 2023", "in March 2024", "in spring 2023 (March to May 2023)",
 *  "since 2025", "from 2023 to 2024". */
export const periodWords = (label: string): string => (/^since\b/i.test(label) ? label : / to /.test(label) && !/^the\b|[()]/.test(label) ? `from ${label}` : `in ${label}`);

/** The first and last month (YYYY-MM) of a period asked, and the period as read; `end` the last month of the place's
 *  records (for "since 2023", and the latest May of "in may": periods.ts resolveLast, a month covered in part only
 *  giving way to the one a year before when that one is whole, `whole`). */
export function monthsOf(y: Years, end: string, whole: (month: string) => boolean): { y: Years; months: [string, string] } {
  if (y.lastMonth !== undefined || y.last !== undefined) {
    const r = resolveLast(y, end, whole);
    return { y: r, months: r.months! };
  }
  if (y.month) return { y, months: [y.month, y.month] };
  if (y.months) return { y, months: y.months };
  if (y.since) return { y, months: [y.since, end > y.since ? end : y.since] };
  const to = y.to ?? Math.max(y.from, Number(end.slice(0, 4)));
  return { y, months: [`${y.from}-01`, `${to}-12`] };
}

/** How files (each [first, last] date) cover a month: whole, part (a file starts or ends inside it), none. */
export function coverOf(month: string, spans: readonly (readonly [string, string])[]): Cover {
  const a = `${month}-01`, b = `${month}-${String(new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate()).padStart(2, '0')}`;
  if (spans.some(([f, l]) => f <= a && l >= b)) return 'whole';
  return spans.some(([f, l]) => f <= b && l >= a) ? 'part' : 'none';
}

export const monthIndex = (m: string): number => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
export const monthList = (a: string, b: string): string[] => {
  const out: string[] = [];
  for (let i = monthIndex(a); i <= monthIndex(b); i++) out.push(`${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
  return out;
};

/** One place's records of a period: the months of it, each month's cover, the count of a kind over them. */
export interface PeriodCount { y: Years; from: string; to: string; months: string[]; whole: string[]; part: string[]; count: (kind: string) => number }

/** The records of a place (an entry of MonthCounts) over each period asked, or null when a place has no file span. */
export function periodCounts(counts: MonthCounts, entries: readonly (readonly [first: string, sources: string[], byKind: Partial<Record<string, number[]>>, ...rest: unknown[]])[], years: Years): { periods: PeriodCount[]; spans: [string, string][]; sources: string[] } | null {
  const sources = [...new Set(entries.flatMap((e) => e[1]))].sort();
  const spans = sources.map((s) => counts.spans[s]).filter((x): x is [string, string] => !!x);
  if (!spans.length) return null;
  const end = spans.map((s) => s[1]).sort().at(-1)!.slice(0, 7);
  const whole = (m: string): boolean => coverOf(m, spans) === 'whole';
  const periods = [years, ...years.also ?? []].map((asked) => {
    const { y, months: [from, to] } = monthsOf(asked, end, whole);
    const months = monthList(from, to);
    const cover = months.map((m) => coverOf(m, spans));
    const count = (k: string): number => entries.reduce((s, [first, , byKind]) => s + months.reduce((t, m) => t + (byKind[k]?.[monthIndex(m) - monthIndex(first)] ?? 0), 0), 0);
    return { y, from, to, months, whole: months.filter((_, i) => cover[i] === 'whole'), part: months.filter((_, i) => cover[i] === 'part'), count };
  });
  return { periods, spans, sources };
}

/** The change of a count between periods compared ("foreclosures in Louisville in 2014 vs 2015", "permits in Nashville
 *  in Q3 2023 vs Q3 2022"), each to the next in time, said after the last period's figure: "; from 2014 to 2015 the
 *  filings went from 121 to 103 (-14.9%)". A period the file covers in part only gives no change (its count holds what
 *  the file holds), said; '' when one period is asked. */
export function countChange(periods: readonly { label: string; from: string; n: number; whole: boolean }[], noun: string): string {
  if (periods.length < 2) return '';
  const timed = [...periods].sort((a, b) => a.from.localeCompare(b.from));
  return timed.slice(1).map((b, i) => {
    const a = timed[i]!;
    const part = [a, b].filter((x) => !x.whole).map((x) => x.label);
    if (part.length) return `; no change from ${a.label} to ${b.label} is given (${part.join(' and ')} covered in part only by the file)`;
    const pct = a.n > 0 ? ` (${b.n >= a.n ? '+' : ''}${(Math.round((b.n / a.n - 1) * 1000) / 10).toFixed(1)}%)` : '';
    return `; from ${a.label} to ${b.label} the ${noun} went from ${a.n.toLocaleString('en-US')} to ${b.n.toLocaleString('en-US')}${pct}`;
  }).join('');
}
