// A count of permits asked for a calendar year or named months ("permits in 37206 in 2023", "how many building permits
// were issued in Chicago in 2022", "renovation permits in Nashville in March 2024", "permits in May in Nashville"): the
// permits of those months by kind (market.json `permit_months`, permit-counts-build.ts permitMonths), not the latest
// window's with a gap sentence (review 23). A month named without its year ("in may") or "last spring" is the latest
// of it the place's permit file covers, said with its year (review 24). Months the file covers in part only (it starts
// or ends inside them) are named, so a count is never read as a whole year's; a period outside the file is said
// plainly, with what the file covers. Rules: warehouse/docs/research.md "Permit counts".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { missing, placeName, plural, type Fact } from './facts.ts';
import { monthRuns } from './coverage.ts';
import { PERMIT_KINDS, type PermitKind } from './permit-kinds.ts';
import { monthIndex, periodCounts, periodWords, type MonthCounts } from './period-months.ts';
import { slug } from '../../warehouse/layout.ts';

/** The permit facts of each period asked of a zip or city, or null when no period is asked, the index has no permits
 *  by month (a build before review 23) or the place has no permits. */
export function permitPeriodFacts(data: ResearchData, u: Understanding, t: Target, kindsAsked: PermitKind[], kindWords: (k: PermitKind[]) => string, words: Record<PermitKind, string>): Fact[] | null {
  const pm = data.market?.permit_months;
  if (!u.years || !pm) return null;
  const key = t.zip ? `zip|${t.zip}` : t.city && !t.area ? `city|${t.state}|${slug(t.city)}` : null;
  const entry = key ? pm.places[key] : undefined;
  if (!entry) return null;
  const read = periodCounts(pm as MonthCounts, [entry], u.years);
  if (!read) return null;
  const names = read.sources.map((s) => data.spans.get(s)?.name ?? s).join(' and ');
  const fileWords = `${names} ${read.sources.length > 1 ? 'cover' : 'covers'} ${read.spans.map(([a, b]) => `${a} to ${b}`).join(' and ')}`;
  return read.periods.map(({ y, from, to, months, whole, part, count }) => {
    const when = periodWords(y.label);
    const year = /^\d{4}$/.test(y.label) ? y.label : null;
    if (!whole.length && !part.length) return missing('rehab', t, `We have no building permits ${when} for ${placeName(data, t)}: ${fileWords} (its permit records), none of ${year ?? 'these months'}`);
    const all = PERMIT_KINDS.reduce((s, k) => s + count(k), 0);
    const lead = kindsAsked.length
      ? `${plural(kindsAsked.reduce((s, k) => s + count(k), 0), `${kindWords(kindsAsked)} permit`)} were issued`
      : `${plural(all, 'building permit')} were issued`;
    const kinds = PERMIT_KINDS.filter((k) => count(k) > 0).map((k) => `${count(k).toLocaleString('en-US')} ${words[k]}`).join(', ');
    // the months the file covers in part only, or not at all, named: the count is of the months it holds
    const partly = whole.length === months.length ? ''
      : `; ${fileWords}, so of ${year ?? 'these months'} only ${[whole.length ? monthRuns(whole) : '', part.length ? `${monthRuns(part)} in part only` : ''].filter(Boolean).join(', and ')}: not a count of ${year ? `the whole of ${year}` : 'all of them'}`;
    return {
      intent: 'rehab', target: t, value: `${lead.replace(/ were issued$/, '')} (${y.label.replace(/ \(.*$/, '')}${partly ? ', in part' : ''})`,
      sentence: `In ${placeName(data, t)}, ${lead} ${when}${kindsAsked.length ? `, of ${plural(all, 'permit')} of every kind` : ''}${kinds ? ` (${kinds})` : ''}, from the permit records of ${names}${partly}`,
      detail: [`Permits counted by the calendar month of their issue date and the kind the source records (cancelled, revoked and repeated permits left out by the source's model${t.zip ? "; a permit whose zip was guessed counts only in a zip of its own city" : ''}).`],
      source: { type: 'permits', category: 'market', citation: `reii warehouse: building permits for ${t.zip ?? `${t.city}, ${t.state}`} by kind, ${from} to ${to}` },
      confidence: partly ? 'medium' : 'high', primary: true, uncertain: null,
    } satisfies Fact;
  });
}

/** A count of permits asked with no place ("permits in may", "how many permits were issued in 2023"): permits are
 *  counted per zip or city, so a place is asked for, with the permit files and what each covers. */
export function permitsWithoutPlace(data: ResearchData): Fact | null {
  const pm = data.market?.permit_months;
  if (!pm || !Object.keys(pm.spans).length) return null;
  const files = Object.entries(pm.spans).sort().map(([s, [a, b]]) => `${data.spans.get(s)?.name ?? s} (${a} to ${b})`).join(' and ');
  return missing('rehab', null, `I don't have a count of building permits without a place: permits are counted per zip code or city, from the permit records of ${files}; name a city or zip code`);
}

/** A city's zips ranked by their permits of the kinds asked in each period asked ("which zips in Nashville had the
 *  most permits in 2023"): the permits of those months (review 24: the latest 12 months' before, with "not for 2023"),
 *  the months the permit file covers in part only named; null when no period is asked or no zip has permits by month. */
export function permitPeriodRanking(data: ResearchData, u: Understanding, t: Target, kinds: readonly PermitKind[], what: string): Fact[] | null {
  const pm = data.market?.permit_months;
  if (!u.years || !pm || !t.city || t.zip) return null;
  const zips = [...data.zips].filter(([, z]) => z.state === t.state && z.city.toLowerCase() === t.city!.toLowerCase())
    .flatMap(([zip]) => { const e = pm.places[`zip|${zip}`]; return e ? [{ zip, e }] : []; });
  const all = periodCounts(pm as MonthCounts, zips.map((z) => z.e), u.years);
  if (!zips.length || !all) return null;
  const names = all.sources.map((s) => data.spans.get(s)?.name ?? s).join(' and ');
  const fileWords = `${names} ${all.sources.length > 1 ? 'cover' : 'covers'} ${all.spans.map(([a, b]) => `${a} to ${b}`).join(' and ')}`;
  return all.periods.map(({ y, from, to, months, whole, part }) => {
    const when = periodWords(y.label);
    const year = /^\d{4}$/.test(y.label) ? y.label : null;
    if (!whole.length && !part.length) return missing('rehab', t, `We have no building permits ${when} for the zips of ${t.city}, ${t.state}: ${fileWords} (their permit records), none of ${year ?? 'these months'}`);
    const ranked = zips.map(({ zip, e }) => ({ zip, n: kinds.reduce((s, k) => s + months.reduce((c, m) => c + (e[2][k]?.[monthIndex(m) - monthIndex(e[0])] ?? 0), 0), 0) }))
      .sort((a, b) => (u.lowEnd ? a.n - b.n : b.n - a.n) || a.zip.localeCompare(b.zip));
    const partly = whole.length === months.length ? ''
      : `; ${fileWords}, so of ${year ?? 'these months'} only ${[whole.length ? monthRuns(whole) : '', part.length ? `${monthRuns(part)} in part only` : ''].filter(Boolean).join(', and ')}: not a count of ${year ? `the whole of ${year}` : 'all of them'}`;
    const top = ranked.slice(0, 5).map((z) => `${z.zip} (${z.n.toLocaleString('en-US')})`).join(', ');
    return {
      intent: 'rehab', target: t, value: `${ranked[0]!.zip}: ${plural(ranked[0]!.n, what.replace(/s$/, ''))} (${y.label.replace(/ \(.*$/, '')}${partly ? ', in part' : ''})`,
      sentence: `Of the ${plural(ranked.length, 'zip')} of ${t.city}, ${t.state} with permit records, ${ranked[0]!.zip} had the ${u.lowEnd ? 'fewest' : 'most'} ${what} ${when}: ${top} (each zip's permits issued ${periodWords(y.label.replace(/ \(.*$/, ''))} alone, from the permit records of ${names})${partly}`,
      detail: ['Permits counted by the calendar month of their issue date and the kind the source records; a permit whose zip was guessed counts only in a zip of its own city.'],
      source: { type: 'permits', category: 'market', citation: `reii warehouse: building permits of the zips of ${t.city}, ${t.state} by kind, ${from} to ${to}` },
      confidence: partly ? 'medium' : 'high', primary: true, uncertain: null,
    } satisfies Fact;
  });
}
