// Connecticut's rehab events, their 30-day direction and the coverage words of its zip answers, recomputed from the
// RAW files (audit h72audit), by warehouse/docs/market.md "mart_rehab" (Trend), "mart_market_direction" (Window end,
// No event source) and "Coverage of a window" (Thin extracts, Which files) written out again over CT_ROWS_ZIPPED
// (oracle-ct-zips.ts), never the build's marts, macros or shards. Used by test/pipelines/ct-rehab-raw.test.ts.
import { rawQuery } from './oracle-raw-comps.ts';
import { CT_SALES } from './oracle-ct.ts';
import { CT_SALES_ZIPPED, NAMES_LOT, PUNCT, STREET, SUFFIX, UNIT } from './oracle-ct-zips.ts';

/** A rehab event: a residential (sfr, condo, multi) kept sale resold 1..365 days after the property's previous kept
 *  sale at a price >= 10% higher. The property (market.md "int_market_resales"): the street line naming a lot within
 *  its zip, else within its town (the 2022 extract gives no zip), plus the unit without punctuation; a condo sale
 *  naming no unit is no property's. `town` lower case. */
export interface CtEvent { zip: string | null; town: string; day: string }

/** Per property chain of the kept sales; `shows`: a repeat sale (the previous sale's price above 0), `quick` an event. */
const CHAIN = `(
  with p as (select * replace (${PUNCT('address')} as address) from ${CT_SALES_ZIPPED}),
  u as (select *, ${UNIT('address')} as unit, ${STREET('address')} as street0 from p),
  s as (select *, ${SUFFIX('street0')} as street from u),
  keyed as (select *, street || '|' || coalesce(zip, upper(town)) || '|' || coalesce(regexp_replace(unit, '[^A-Z0-9]', '', 'g'), '') as pkey
            from s where address is not null and ${NAMES_LOT('street')} and not (type = 'condo' and unit is null)),
  chain as (select *, lag(day) over w as pd, lag(price) over w as pp from keyed
            window w as (partition by pkey order by day, lpad(doc, 40, '0'), line_no))
  select zip, lower(town) as town, day, pd is not null and pp > 0 as shows,
         pd is not null and pp > 0 and type in ('sfr', 'condo', 'multi') and day - pd between 1 and 365 and price >= 1.1 * pp as quick
  from chain)`;

export async function ctEvents(): Promise<{ events: CtEvent[]; observingZips: Set<string>; observingTowns: Set<string> }> {
  const rows = await rawQuery<{ zip: string | null; town: string; day: string; shows: boolean; quick: boolean }>(
    `select zip, town, strftime(day, '%Y-%m-%d') as day, shows, quick from ${CHAIN} where shows`);
  return {
    events: rows.filter((r) => r.quick).map(({ zip, town, day }) => ({ zip, town, day })),
    observingZips: new Set(rows.filter((r) => r.zip !== null).map((r) => r.zip!)),
    observingTowns: new Set(rows.map((r) => r.town)),
  };
}

const dayMs = 86_400_000;
const toDay = (s: string): number => Date.parse(`${s}T00:00:00Z`) / dayMs;
const fromDay = (d: number): string => new Date(d * dayMs).toISOString().slice(0, 10);

/** market.md "Window end": the latest day D of Connecticut's kept sales (both files: the source) whose 7 days (D-7, D]
 *  hold at least 3/4 of the average week of the 8 weeks before, (D-63, D-7]; every calendar day of the span counting. */
export async function ctCompleteThrough(): Promise<{ last: string; complete: string }> {
  const days = await rawQuery<{ day: string; n: number }>(`select strftime(day, '%Y-%m-%d') as day, count(*)::int as n from ${CT_SALES} group by day`);
  const byDay = new Map(days.map((d) => [toDay(d.day), d.n]));
  const first = Math.min(...byDay.keys()), last = Math.max(...byDay.keys());
  const sum = (from: number, to: number): number => { let n = 0; for (let d = from; d <= to; d++) n += byDay.get(d) ?? 0; return n; };
  let complete = first;
  for (let d = first; d <= last; d++) if (8 * sum(d - 6, d) >= 0.75 * sum(d - 62, d - 7)) complete = d;
  return { last: fromDay(last), complete: fromDay(complete) };
}

/** The 30-day direction of a market's events to `end`: counts, `100 (last - prior) / max(prior, 1)` to 1 decimal, up
 *  above +5, down below -5, else flat. */
export function direction(days: string[], end: string): { last: number; prior: number; pct: number; dir: string } {
  const e = toDay(end);
  const last = days.filter((d) => toDay(d) > e - 30 && toDay(d) <= e).length;
  const prior = days.filter((d) => toDay(d) > e - 60 && toDay(d) <= e - 30).length;
  const pct = Math.round(1000 * (last - prior) / Math.max(prior, 1)) / 10;
  return { last, prior, pct, dir: pct > 5 ? 'up' : pct < -5 ? 'down' : 'flat' };
}

/** A month of the GL extract (the one Connecticut file keying zips): its days inside the file's span of kept sales
 *  (`lo`..`hi`), and whether it is a solid month (a quarter or more of the source's busiest month, both files summed). */
export interface GlMonth { lo: string; hi: string; solid: boolean }

/** The GL extract's months holding a kept sale, cut to its span (market.md "int_market_file_coverage"). */
export async function ctGlMonths(): Promise<GlMonth[]> {
  return rawQuery<GlMonth>(`
    with fm as (select file, month, count(*) as n, min(day) as a from ${CT_SALES} group by all),
    busiest as (select max(n) as n from (select month, sum(n) as n from fm group by month)),
    span as (select min(day) as f, max(day) as l from ${CT_SALES} where file = 'gl')
    select strftime(greatest(date_trunc('month', a), f), '%Y-%m-%d') as lo,
           strftime(least(last_day(a), l), '%Y-%m-%d') as hi, fm.n >= 0.25 * busiest.n as solid
    from fm, busiest, span where fm.file = 'gl' order by lo`);
}

/** The coverage words of a zip window (`after` exclusive, `end` inclusive) over the GL extract's months, as
 *  market.md "Coverage of a window" says them (`what` 'records' or 'sales records'): null when covered whole. The
 *  solid months' days are covered; a thin month's hold the zip's sales from a partial extract. */
export function coverageWords(what: string, months: GlMonth[], after: string, end: string): { days: number; words: string | null } {
  const a = toDay(after) + 1, e = toDay(end), w = e - a + 1;
  const cut = months.map((m) => [Math.max(toDay(m.lo), a), Math.min(toDay(m.hi), e), m.solid] as const).filter(([lo, hi]) => lo <= hi);
  const covered = cut.filter(([, , s]) => s), days = covered.reduce((n, [lo, hi]) => n + hi - lo + 1, 0);
  const any = cut.reduce((n, [lo, hi]) => n + hi - lo + 1, 0);
  if (days >= w) return { days, words: null };
  const spans = covered.map(([lo, hi]) => `${fromDay(lo)} to ${fromDay(hi)}`).join(' and ');
  let s = days === 0 ? `${what} cover none of the ${w} days asked${any > 0 ? ' whole' : ''}` : `${what} cover ${spans} only, ${days} of the ${w} days asked`;
  if (any > days) {
    s += days === 0 ? ': the zip\'s sales in the window come from a partial extract of their source'
      : w - days === 1 ? ': the other day holds the zip\'s sales from a partial extract of their source'
        : `: of the other ${w - days} days, ${any >= w ? `all ${w - days}` : any - days} hold the zip's sales from a partial extract of their source`;
    s += ', under a quarter of its busiest month\'s sales a month, not every recorded sale, so a count or figure here describes that extract only';
  }
  return { days, words: s };
}
