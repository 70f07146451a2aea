// A count of permits asked for a calendar year or named months ("permits in 37206 in 2023", "how many building permits
// were issued in Chicago in 2022", "renovation permits in Nashville in March 2024"): the permits of those months by
// kind (market.json `permit_months`, permit-counts-build.ts permitMonths), not the latest window's with a gap sentence
// (review 23). Months the place's permit file covers in part only (it starts or ends inside them) are named, so a
// count is never read as a whole year's; a period outside the file is said plainly, with what the file covers. Rules:
// warehouse/docs/research.md "Permit counts".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import type { Years } from './years.ts';
import { missing, placeName, plural, type Fact } from './facts.ts';
import { monthRuns } from './coverage.ts';
import { PERMIT_KINDS, type PermitKind } from './permit-kinds.ts';
import { slug } from '../../warehouse/layout.ts';

type Cover = 'whole' | 'part' | 'none';

/** The permit facts of each period asked of a zip or city, or null when no period is asked, the index has no permits
 *  by month (a build before review 23), the place has no permits, or the period is one this reading leaves to the
 *  window answer (a month named without its year, "last spring"). */
export function permitPeriodFacts(data: ResearchData, u: Understanding, t: Target, kindsAsked: PermitKind[], kindWords: (k: PermitKind[]) => string, words: Record<PermitKind, string>): Fact[] | null {
  const pm = data.market?.permit_months;
  if (!u.years || !pm) return null;
  const key = t.zip ? `zip|${t.zip}` : t.city && !t.area ? `city|${t.state}|${slug(t.city)}` : null;
  const entry = key ? pm.places[key] : undefined;
  if (!entry) return null;
  const [first, sources, byKind] = entry;
  const spans = sources.map((s) => pm.spans[s]).filter((x): x is [string, string] => !!x);
  if (!spans.length) return null;
  const end = spans.map((s) => s[1]).sort().at(-1)!;
  const periods = [u.years, ...u.years.also ?? []].map((y) => [y, monthsOf(y, end.slice(0, 7))] as const);
  if (periods.some(([, r]) => r === null)) return null;
  const names = sources.map((s) => data.spans.get(s)?.name ?? s).join(' and ');
  const fileWords = `${names} ${sources.length > 1 ? 'cover' : 'covers'} ${spans.map(([a, b]) => `${a} to ${b}`).join(' and ')}`;
  return periods.map(([y, r]) => {
    const months = monthList(r![0], r![1]);
    const cover = months.map((m) => coverOf(m, spans));
    const whole = months.filter((_, i) => cover[i] === 'whole');
    const part = months.filter((_, i) => cover[i] === 'part');
    const when = periodWords(y.label);
    if (!whole.length && !part.length) return missing('rehab', t, `We have no building permits ${when} for ${placeName(data, t)}: ${fileWords} (its permit records), none of ${/^\d{4}$/.test(y.label) ? y.label : 'these months'}`);
    const count = (k: PermitKind): number => months.reduce((s, m) => s + (byKind[k]?.[monthIndex(m) - monthIndex(first)] ?? 0), 0);
    const all = PERMIT_KINDS.reduce((s, k) => s + count(k), 0);
    const lead = kindsAsked.length
      ? `${plural(kindsAsked.reduce((s, k) => s + count(k), 0), `${kindWords(kindsAsked)} permit`)} were issued`
      : `${plural(all, 'building permit')} were issued`;
    const kinds = PERMIT_KINDS.filter((k) => count(k) > 0).map((k) => `${count(k).toLocaleString('en-US')} ${words[k]}`).join(', ');
    // the months the file covers in part only, or not at all, named: the count is of the months it holds
    const partly = whole.length === months.length ? ''
      : `; ${fileWords}, so of ${/^\d{4}$/.test(y.label) ? y.label : 'these months'} only ${[whole.length ? monthRuns(whole) : '', part.length ? `${monthRuns(part)} in part only` : ''].filter(Boolean).join(', and ')}: not a count of ${/^\d{4}$/.test(y.label) ? `the whole of ${y.label}` : 'all of them'}`;
    return {
      intent: 'rehab', target: t, value: `${lead.replace(/ were issued$/, '')} (${y.label}${partly ? ', in part' : ''})`,
      sentence: `In ${placeName(data, t)}, ${lead} ${when}${kindsAsked.length ? `, of ${plural(all, 'permit')} of every kind` : ''}${kinds ? ` (${kinds})` : ''}, from the permit records of ${names}${partly}`,
      detail: [`Permits counted by the calendar month of their issue date and the kind the source records (cancelled, revoked and repeated permits left out by the source's model${t.zip ? "; a permit whose zip was guessed counts only in a zip of its own city" : ''}).`],
      source: { type: 'permits', category: 'market', citation: `reii warehouse: building permits for ${t.zip ?? `${t.city}, ${t.state}`} by kind, ${r![0]} to ${r![1]}` },
      confidence: partly ? 'medium' : 'high', primary: true, uncertain: null,
    } satisfies Fact;
  });
}

/** A period's label as said after "issued": "in 2023", "in March 2024", "in spring 2023 (March to May 2023)",
 *  "since 2025", "from 2023 to 2024". */
const periodWords = (label: string): string => (/^since\b/i.test(label) ? label : / to /.test(label) && !/^the\b|[()]/.test(label) ? `from ${label}` : `in ${label}`);

/** The first and last month (YYYY-MM) of a period asked; `end` the last month of the place's permit records (for
 *  "since 2023"). Null for a month named without its year or a season: left to the window answer. */
function monthsOf(y: Years, end: string): [string, string] | null {
  if (y.lastMonth !== undefined || y.last !== undefined) return null;
  if (y.month) return [y.month, y.month];
  if (y.months) return y.months;
  if (y.since) return [y.since, end > y.since ? end : y.since];
  const to = y.to ?? Math.max(y.from, Number(end.slice(0, 4)));
  return [`${y.from}-01`, `${to}-12`];
}

/** How the permit files (each [first, last] issue date) cover a month: whole, part (a file starts or ends inside it), none. */
function coverOf(month: string, spans: readonly [string, string][]): Cover {
  const a = `${month}-01`, b = `${month}-${String(new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate()).padStart(2, '0')}`;
  if (spans.some(([f, l]) => f <= a && l >= b)) return 'whole';
  return spans.some(([f, l]) => f <= b && l >= a) ? 'part' : 'none';
}

const monthIndex = (m: string): number => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
const monthList = (a: string, b: string): string[] => {
  const out: string[] = [];
  for (let i = monthIndex(a); i <= monthIndex(b); i++) out.push(`${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
  return out;
};
