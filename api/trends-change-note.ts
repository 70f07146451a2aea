// GET /v1/market/trends: why each change_*_pct of the summary is null, where no other note says it. The trends mart
// says why a change is withheld for comparing two subtype mixes, and month-cover.ts coverNote why its start month is not
// covered by the source files; a change is also null when its start month has too few sales (under CHANGE_MIN_SAMPLE
// in its index sample), no index level, is not complete (a month its source recorded in part: under half of the
// source's sales of the months around it, warehouse/price-index.ts partialMonths), or falls before the 60 months of the series, and when no month at all is complete with 20 sales. Review
// h18 F5: Seattle 98103's change_3m_pct was null (2015-01 holds 17 sales) and change_note named only the 12- and 24-month
// nulls. The rule is warehouse/price-index.ts changePct's; warehouse/docs/market.md "market_monthly and the trends".
import { CHANGE_MIN_SAMPLE } from '../warehouse/price-index.ts';

const BACKS = [3, 12, 24] as const;

/** The stored series fields a change reads (api/market-trends.ts StoredSeries). */
interface ChangeSeries { month: readonly string[]; level: readonly (number | null)[]; index_sample_count: readonly number[]; complete: readonly boolean[] }

/** Why change_<back>m_pct is null from its start month, by changePct's rule; null when the start month would give one
 *  (then another note, the mix's or the coverage's, says why). */
function startWords(c: ChangeSeries, e: number, back: number, method: string): string | null {
  const s = e - back, end = c.month[e]!;
  if (s < 0) return `${back} months before ${end} is before the ${c.month.length} months of the series (from ${c.month[0]})`;
  const n = c.index_sample_count[s] ?? 0, what = method === 'repeat_sales' ? 'repeat-sale pairs' : 'sales';
  const at = `${c.month[s]}, the month it compares with ${end},`;
  if (c.level[s] === null || n < CHANGE_MIN_SAMPLE) {
    return `${at} has ${n.toLocaleString('en-US')} ${n === 1 ? what.replace(/s$/, '') : what} in its index sample, fewer than the ${CHANGE_MIN_SAMPLE} a change needs at each end${c.level[s] === null && n >= CHANGE_MIN_SAMPLE ? ' (and no price level)' : ''}`;
  }
  if (!c.complete[s]) return `${at} is not complete: its source recorded under half as many sales in all that month as in the months around it (a file's partial first or last month), so no price level is read from it`;
  return null;
}

/** The summary with change_note naming every null change that no note explains yet; the summary itself otherwise. */
export function explainNullChanges(summary: Record<string, unknown>, c: ChangeSeries, method: string): Record<string, unknown> {
  const note = typeof summary['change_note'] === 'string' ? summary['change_note'] : '';
  const nulls = BACKS.filter((b) => summary[`change_${b}m_pct`] === null && !note.includes(`change_${b}m_pct`));
  if (nulls.length === 0) return summary;
  const end = summary['change_end_month'];
  const e = typeof end === 'string' ? c.month.indexOf(end) : -1;
  let added: string[];
  if (e < 0) {
    added = [`${nulls.map((b) => `change_${b}m_pct`).join(', ').replace(/, ([^,]+)$/, ' and $1')} ${nulls.length === 1 ? 'is' : 'are'} null: `
      + `no month of the ${c.month.length} to ${c.month.at(-1)} is complete with ${CHANGE_MIN_SAMPLE} or more ${method === 'repeat_sales' ? 'repeat-sale pairs' : 'sales'} in its index sample`];
  } else {
    added = nulls.flatMap((b) => { const w = startWords(c, e, b, method); return w ? [`change_${b}m_pct is null: ${w}`] : []; });
  }
  return added.length ? { ...summary, change_note: [note, ...added].filter(Boolean).join('; ') } : summary;
}
