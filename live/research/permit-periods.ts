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
import { PERMIT_KINDS, permitDateNoun, permitVerb, type BuildingUse, type PermitKind, type PermitMonths } from './permit-kinds.ts';
import { countChange, monthIndex, periodCounts, periodWords, type MonthCounts } from './period-months.ts';
import { slug } from '../../warehouse/layout.ts';

/** The building use a question asks ("residential permits", "commercial permits"), or null. */
export function useAsked(query: string): BuildingUse | null {
  const q = query.toLowerCase();
  if (/\bnon-?residential\b|\bcommercial\b/.test(q)) return 'nonresidential';
  return /\bresidential\b/.test(q) ? 'residential' : null;
}

/** The permit facts of each period asked of a zip, a city or a county (each permit in the county it is in:
 *  permit-counts-build.ts), or null when no period is asked, the index has no permits by month (a build before
 *  review 23) or the place has no permits. A building use asked ("residential permits in Chicago in 2023") leads where
 *  the records name uses, the permits of the other use and of none said beside it. Periods compared ("2017 vs 2018")
 *  are each answered, and their change given or why not (periodsChange). */
export function permitPeriodFacts(data: ResearchData, u: Understanding, t: Target, kindsAsked: PermitKind[], kindWords: (k: PermitKind[]) => string, words: Record<PermitKind, string>): Fact[] | null {
  const pm = data.market?.permit_months;
  if (!u.years || !pm) return null;
  const fips = !t.zip && !t.city && t.area ? t.area.county_fips : null;
  const key = fips ? `county|${fips}` : t.zip ? `zip|${t.zip}` : t.city && !t.area ? `city|${t.state}|${slug(t.city)}` : null;
  const e = key ? pm.places[key] : undefined;
  const where = placeName(data, t);
  // a county no permit file holds a permit in (an index placing permits by county: builds since session 26)
  if (!e && fips && pm.sources) return [missing('rehab', t, `We have no building permits ${periodWords(u.years.label)} for ${where}: no permit of this build's permit files (${fileList(data, pm)}) is in it, each permit counted in the county it is in (${countyRule(data, pm, Object.keys(pm.sources), fips, where)})`)];
  if (!e) return null;
  const read = periodCounts(pm as MonthCounts, [e], u.years);
  if (!read) return null;
  const use = useAsked(u.query);
  const byUse = (b: BuildingUse) => [[e[0], e[1], e[3]?.[b] ?? {}] as const];
  const usesRecorded = use !== null && !!e[3];
  const [ofUse, ofOther] = usesRecorded ? [periodCounts(pm as MonthCounts, byUse(use), u.years)!, periodCounts(pm as MonthCounts, byUse(use === 'residential' ? 'nonresidential' : 'residential'), u.years)!] : [null, null];
  const names = read.sources.map((s) => data.spans.get(s)?.name ?? s).join(' and ');
  const fileWords = `${names} ${read.sources.length > 1 ? 'cover' : 'covers'} ${read.spans.map(([a, b]) => `${a} to ${b}`).join(' and ')}`;
  const verb = (n: number): string => permitVerb(read.sources, pm.sources, n);
  const counted: { label: string; from: string; n: number; whole: boolean; none: boolean }[] = [];
  const facts = read.periods.map(({ y, from, to, months, whole, part, count }, i) => {
    const when = periodWords(y.label);
    const year = /^\d{4}$/.test(y.label) ? y.label : null;
    if (!whole.length && !part.length) {
      counted.push({ label: y.label.replace(/ \(.*$/, ''), from, n: 0, whole: false, none: true });
      return missing('rehab', t, `We have no building permits ${when} for ${where}: ${fileWords} (its permit records), none of ${year ?? 'these months'}`);
    }
    const asked = kindsAsked.length ? kindsAsked : [...PERMIT_KINDS];
    const sum = (c: (k: string) => number, ks: readonly PermitKind[]): number => ks.reduce((s, k) => s + c(k), 0);
    const all = sum(count, PERMIT_KINDS);
    // a use asked: that use's permits of the kinds asked lead, of those kinds' permits of every use (the other use's and
    // those recording none said); the kinds listed are the use's
    const mine = ofUse?.periods[i]!.count, other = ofOther?.periods[i]!.count;
    const what = `${use && mine ? `${use} ` : ''}${kindsAsked.length ? kindWords(kindsAsked) : 'building'} permit`;
    const n = mine ? sum(mine, asked) : kindsAsked.length ? sum(count, asked) : all;
    const lead = `${plural(n, what)} ${verb(n)}`;
    const ofAll = mine && other
      ? `, of ${plural(sum(count, asked), `${kindsAsked.length ? `${kindWords(kindsAsked)} ` : ''}permit`)} of every use (${num(sum(other, asked))} for ${use === 'residential' ? 'nonresidential' : 'residential'} buildings, ${num(sum(count, asked) - n - sum(other, asked))} recording no building use)`
      : kindsAsked.length ? `, of ${plural(all, 'permit')} of every kind` : '';
    // the kinds listed: every kind's of the use asked, or of every use (none listed for a use and a kind asked)
    const kc = mine ?? count;
    const kinds = mine && kindsAsked.length ? '' : PERMIT_KINDS.filter((k) => kc(k) > 0).map((k) => `${num(kc(k))} ${words[k]}`).join(', ');
    const noUse = use && !mine ? ` (${pm.uses ? 'the permit records name no building use' : 'this index keeps no permits by building use'}, so this counts every use, not ${use} permits alone)` : '';
    // a county: what placed each permit in it, said (its file's own county, or its zip's)
    const summed = fips ? `, each permit counted in the county it is in (${countyRule(data, pm, read.sources, fips, where)})` : '';
    // the months the file covers in part only, or not at all, named: the count is of the months it holds
    const partly = whole.length === months.length ? ''
      : `; ${fileWords}, so of ${year ?? 'these months'} only ${[whole.length ? monthRuns(whole) : '', part.length ? `${monthRuns(part)} in part only` : ''].filter(Boolean).join(', and ')}: not a count of ${year ? `the whole of ${year}` : 'all of them'}`;
    counted.push({ label: y.label.replace(/ \(.*$/, ''), from, n, whole: !partly, none: false });
    return {
      intent: 'rehab', target: t, value: `${plural(n, what)} (${y.label.replace(/ \(.*$/, '')}${partly ? ', in part' : ''})`,
      sentence: mine
        ? `In ${where}, ${lead} ${when}${kinds ? ` (${kinds})` : ''}${ofAll}${summed}, from the permit records of ${names}${partly}`
        : `In ${where}, ${lead} ${when}${noUse}${ofAll}${kinds ? ` (${kinds})` : ''}${summed}, from the permit records of ${names}${partly}`,
      detail: [`Permits counted by the calendar month of their ${permitDateNoun(read.sources, pm.sources)} and the kind the source records (cancelled, revoked and repeated permits left out by the source's model${t.zip ? "; a permit whose zip was guessed counts only in a zip of its own city" : ''}).`],
      source: { type: 'permits', category: 'market', citation: `reii warehouse: building permits for ${t.zip ?? (t.city ? `${t.city}, ${t.state}` : where)} by kind, ${from} to ${to}` },
      confidence: partly ? 'medium' : 'high', primary: true, uncertain: null,
    } satisfies Fact;
  });
  return periodsChange(facts, counted, t, where, fileWords);
}

/** Periods compared of one place: the change of the count after the last (period-months.ts countChange) where each is
 *  covered whole; periods outside the file said in one sentence ("none of 2017 or 2018", not the first alone, as a
 *  quick answer keeps one "no data" sentence), and why no change is given when one is. */
function periodsChange(facts: Fact[], counted: { label: string; from: string; n: number; whole: boolean; none: boolean }[], t: Target, where: string, fileWords: string): Fact[] {
  if (counted.length < 2) return facts;
  const none = counted.filter((c) => c.none).map((c) => c.label);
  const and = (xs: string[], w: string): string => (xs.length < 3 ? xs.join(` ${w} `) : `${xs.slice(0, -1).join(', ')} ${w} ${xs.at(-1)}`);
  const timed = [...counted].sort((a, b) => a.from.localeCompare(b.from));
  const pairs = `${timed.slice(1).map((b, i) => `${timed[i]!.label} to ${b.label}`).join(', ')}`;
  if (none.length === counted.length) {
    return [missing('rehab', t, `We have no building permits in ${and(none, 'or')} for ${where}: ${fileWords} (its permit records), none of ${and(none, 'or')}, so no change from ${pairs} is given`)];
  }
  const kept = facts.filter((_, i) => !counted[i]!.none);
  const outside = none.length ? [missing('rehab', t, `We have no building permits in ${and(none, 'or')} for ${where}: ${fileWords} (its permit records), none of ${and(none, 'or')}`)] : [];
  const change = none.length ? `; no change from ${pairs} is given (${and(none, 'and')} outside the file's months)` : countChange(counted, 'permits');
  if (change) kept[kept.length - 1] = { ...kept.at(-1)!, sentence: kept.at(-1)!.sentence + change };
  return [...kept, ...outside];
}

/** What placed a county's permits in it, per permit file: its file's own county ("Nashville building permit
 *  applications is Davidson County, TN's permit file: ..."), else the zip's county by the HUD-USPS crosswalk. */
function countyRule(data: ResearchData, pm: PermitMonths, sources: readonly string[], fips: string, where: string): string {
  const name = (s: string): string => data.spans.get(s)?.name ?? s;
  const own = sources.filter((s) => pm.sources?.[s]?.county === fips);
  const elsewhere = sources.filter((s) => pm.sources?.[s]?.county && pm.sources[s]!.county !== fips);
  const byZip = sources.filter((s) => !pm.sources?.[s]?.county);
  return [
    own.length ? `${own.map(name).join(' and ')} ${own.length > 1 ? 'are' : 'is'} ${where}'s own permit file${own.length > 1 ? 's' : ''}: every permit of it is counted here, whatever mailing city it gives (a mailing city may lie mostly in another county)` : '',
    elsewhere.length ? `${elsewhere.map(name).join(' and ')} ${elsewhere.length > 1 ? 'are' : 'is'} another county's permit file${elsewhere.length > 1 ? 's' : ''}, whatever mailing city ${elsewhere.length > 1 ? 'their' : 'its'} permits give` : '',
    byZip.length ? `${byZip.map(name).join(' and ')}: each permit in the county of its zip, the one holding most of the zip's addresses by the HUD-USPS ZIP-county crosswalk` : '',
  ].filter(Boolean).join('; ');
}

const num = (n: number): string => n.toLocaleString('en-US');
const fileList = (data: ResearchData, pm: PermitMonths): string => Object.entries(pm.spans).sort().map(([s, [a, b]]) => `${data.spans.get(s)?.name ?? s}, ${a} to ${b}`).join('; ');

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
      sentence: `Of the ${plural(ranked.length, 'zip')} of ${t.city}, ${t.state} with permit records, ${ranked[0]!.zip} had the ${u.lowEnd ? 'fewest' : 'most'} ${what} ${when}: ${top} (each zip's permits ${permitVerb(all.sources, pm.sources).replace(/^were /, '')} ${periodWords(y.label.replace(/ \(.*$/, ''))} alone, from the permit records of ${names})${partly}`,
      detail: [`Permits counted by the calendar month of their ${permitDateNoun(all.sources, pm.sources)} and the kind the source records; a permit whose zip was guessed counts only in a zip of its own city.`],
      source: { type: 'permits', category: 'market', citation: `reii warehouse: building permits of the zips of ${t.city}, ${t.state} by kind, ${from} to ${to}` },
      confidence: partly ? 'medium' : 'high', primary: true, uncertain: null,
    } satisfies Fact;
  });
}
