// How many building permits a zip or city had ("How many renovation permits were issued in 37206 over the last 12
// months?"): counted from the build's permit records by kind (market.json `permit_counts`, permit-counts-build.ts),
// over the months asked (12 when none; 1..24 kept) to where the place's permit sources end, the window's days and the
// source named. Before (review 22) the question got the rehab score and "not the permit counts themselves". A kind
// asked (renovation, addition, repair, new construction, demolition; "rehab permits": the rehab score's renovation,
// addition and repair) leads; every kind of the window follows; "residential" with those kinds, the residential ones by the
// rehab score's own test (review 29). Rules: warehouse/docs/research.md "Permit counts".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { placeName, plural, type Fact } from './facts.ts';
import { DEMOLITION } from './demolitions.ts';
import { PERMIT_KINDS, permitDateNoun, permitVerb, type PermitKind } from './permit-kinds.ts';
import { slug } from '../../warehouse/layout.ts';
import { permitPeriodFacts, permitPeriodRanking, useAsked } from './permit-periods.ts';

/** The words of each kind an answer uses. */
const KIND_WORDS: Record<PermitKind, string> = { renovation: 'renovation/alteration', addition: 'addition', repair: 'repair', new: 'new construction', demolition: 'demolition', other: 'other' };
/** The kinds a question asks by its words (none: every kind). */
const ASKED: [RegExp, PermitKind[]][] = [
  [/\brenovat\w*|\bremodel\w*|\balteration\w*/, ['renovation']],
  [/\badditions?\b/, ['addition']],
  [/\brepairs?\b/, ['repair']],
  [/\bnew[- ](?:construction|build\w*|homes?|houses?)\b|\bconstruction permits?\b/, ['new']],
  [DEMOLITION, ['demolition']],
  [/\brehab\w*/, ['renovation', 'addition', 'repair']],
];
/** The kinds the rehab score counts (its residential rehab permits). */
const REHAB_KINDS: readonly PermitKind[] = ['renovation', 'addition', 'repair'];
/** The longest window kept. */
const MAX_MONTHS = 24;

/** The first day of the window of `months` months to `asOf` (YYYY-MM-DD): the day after asOf less the months, a
 *  month's last day where the day is past it (DuckDB's date - interval N month). */
export function windowStart(asOf: string, months: number): string {
  const [y, m, d] = asOf.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last) + 1);
  return first.toISOString().slice(0, 10);
}

/** An index written before the counts: what it can say. */
export const NO_PERMIT_COUNTS = 'We keep a rehab momentum score per zip (from its renovation permits), not the permit counts themselves: zips are compared by that score';

/** Whether the build holds the permit counts (an index written since review 22). */
export const permitCountsKept = (data: ResearchData): boolean => !!data.market?.permit_counts;

/** "Which zip (of a city) has the most ... permits": its zips ranked. */
const WHICH_ZIP = /\bwhich\b[^?]*\bzip|\bzips?\b[^?]*\b(?:most|fewest|highest|lowest)\b/i;
/** How many zips a ranking names. */
const NAMED = 5;

/** The permit count facts of a zip or city when a count of permits is asked and the build holds its permits: of each
 *  year or months asked (permit-periods.ts), else of the window; else null. */
export function permitCountFacts(data: ResearchData, u: Understanding, t: Target): Fact[] | null {
  if (!u.asks.includes('permit_count')) return null;
  const asked = kindsAsked(u.query);
  const reading = kindReading(u.query);
  if (reading && !u.readAs.includes(reading)) u.readAs.push(reading);
  const built = asked.includes('new') ? newKinds(data, t) : null; // what "new construction" holds for the place's files
  if (built && !u.readAs.includes(built)) u.readAs.push(built);
  // a city's zips ranked by a period's permits (permit-periods.ts), or each period's count of the zip or city
  const periods = t.zip || !WHICH_ZIP.test(u.query) ? permitPeriodFacts(data, u, t, asked, kindWords, KIND_WORDS)
    : permitPeriodRanking(data, u, t, asked.length ? asked : PERMIT_KINDS, `${asked.length ? kindWords(asked) : 'building'} permits`);
  if (periods) return periods;
  const one = permitCountFact(data, u, t);
  // a period asked and not counted (an index before permits by month, a season): the latest said to be the latest
  // (intent.ts leaves this gap to the permit answer, which knows whether it counted the period)
  const gap = u.years ? `We keep ${one ? 'permit counts' : 'rehab momentum'} for the latest months of each source only, not for ${u.years.label}: the figures given are the latest` : null;
  if (gap && !u.gaps.includes(gap)) u.gaps.push(gap);
  return one ? [one] : null;
}

/** The permit count fact of a zip or city over the window asked; else null. */
function permitCountFact(data: ResearchData, u: Understanding, t: Target): Fact | null {
  if (!u.asks.includes('permit_count')) return null;
  if (!t.zip && t.city && WHICH_ZIP.test(u.query)) return zipRanking(data, u, t);
  const key = t.zip ? `zip|${t.zip}` : t.city && !t.area ? `city|${t.state}|${slug(t.city)}` : null;
  const entry = key ? data.market?.permit_counts?.[key] : undefined;
  if (!entry) return null;
  const [asOf, sources, byKind] = entry;
  const months = Math.min(u.months ?? 12, MAX_MONTHS);
  const count = (k: PermitKind): number => byKind[k]?.[months - 1] ?? 0;
  const asked = kindsAsked(u.query);
  const all = PERMIT_KINDS.reduce((s, k) => s + count(k), 0);
  const from = windowStart(asOf, months);
  const names = sources.map((s) => data.spans.get(s)?.name ?? s).join(' and ');
  // the verb of the files' dates: Nashville's file is applications, by the day entered ("were applied for")
  const declared = data.market?.permit_months?.sources;
  const n = asked.length ? asked.reduce((s, k) => s + count(k), 0) : all;
  const use = useAsked(u.query);
  // residential rehab kinds asked ("residential rehab permits in 60623"): the residential ones, by the rehab score's
  // own test (entry[3], builds since review 29; before, the 372 of every use were given where the score counts 312)
  const res = use === 'residential' && entry[3] && asked.length && asked.every((k) => REHAB_KINDS.includes(k)) ? entry[3] : null;
  const resCount = (k: PermitKind): number => res?.[k]?.[months - 1] ?? 0;
  const mine = res ? asked.reduce((s, k) => s + resCount(k), 0) : n;
  const what = plural(mine, `${res ? 'residential ' : ''}${asked.length ? `${kindWords(asked)} permit` : 'building permit'}`);
  const lead = `${what} ${permitVerb(sources, declared, mine)}`;
  const kinds = PERMIT_KINDS.filter((k) => count(k) > 0).map((k) => `${count(k).toLocaleString('en-US')} ${KIND_WORDS[k]}`).join(', ');
  const longer = (u.months ?? 0) > MAX_MONTHS ? `; permits are counted over at most ${MAX_MONTHS} months, not the ${u.months} asked` : '';
  const ofAll = res ? `, of ${plural(n, `${kindWords(asked)} permit`)} of every use and ${plural(all, 'permit')} of every kind`
    : asked.length ? `, of ${plural(all, 'permit')} of every kind` : '';
  const split = res && asked.length > 1 ? ` (${asked.map((k) => `${resCount(k).toLocaleString('en-US')} ${KIND_WORDS[k]}`).join(', ')} residential)` : '';
  // a building use asked and not kept for the window (another use, or kinds the rehab score does not count): said, never
  // read as the use's (a period's are counted by use: permit-periods.ts)
  const useWords = res ? `; residential as the rehab momentum score counts its permits: work on a residential building, or on one whose use the permit does not record at a declared cost of $500,000 or less${t.zip && asked.length === REHAB_KINDS.length ? " (the zip's rehab score counts these same permits)" : ''}`
    : use ? `; these are permits of every building use, not ${use} ones alone: the counts of a window are kept by use for residential renovation, addition and repair permits only (a year or months named, "in ${asOf.slice(0, 4)}", are counted by use)` : '';
  return {
    intent: 'rehab', target: t, value: what,
    sentence: `In ${placeName(data, t)}, ${lead} in the ${months} months to ${asOf} (${from} to ${asOf}, where its permit records end)${split}${ofAll}${kinds ? ` (${kinds})` : ''}, from the permit records of ${names}${longer}${useWords}`,
    detail: [`Permits counted by the ${permitDateNoun(sources, declared)} and the kind the source records (cancelled, revoked and repeated permits left out by the source's model${t.zip ? "; a permit whose zip was guessed counts only in a zip of its own city" : ''}).`],
    source: { type: 'permits', category: 'market', citation: `reii warehouse: building permits for ${t.zip ?? `${t.city}, ${t.state}`} by kind, ${months} months to ${asOf}` },
    confidence: 'high', primary: true, uncertain: null,
  };
}

/** The reading of "remodel" or "rehab" said with a count (review 27: "remodel" counted renovation permits only and
 *  "rehab" renovation, addition and repair, with no word of why): the kinds each counts, and the other word's. */
function kindReading(query: string): string | null {
  const q = query.toLowerCase();
  // ("renovation" is the kind's own name, said as the count's: no reading)
  const rehab = /\brehab\w*/.exec(q)?.[0], remodel = /\bremodel\w*/.exec(q)?.[0];
  // h78ask: the kinds are counted of every building use unless "residential" is asked; the rehab score counts the
  // residential ones only (warehouse/docs/market.md), so the reading says so rather than "the kinds the score counts"
  const use = /\bresidential\b/.test(q) ? 'residential permits of those kinds, as the rehab score counts them' : `permits of every building use (the rehab score counts only the residential ones among them: ask "residential ${rehab ?? 'rehab'} permits" for its count)`;
  if (rehab && !remodel) return `"${rehab}" as renovation/alteration, addition and repair permits together, ${use}; "remodel" or "renovation" permits are the renovation/alteration kind alone`;
  if (remodel && !rehab) return `"${remodel}" as renovation/alteration permits, the kind the permit records name for it; "rehab" permits are renovation/alteration, addition and repair permits together`;
  return null;
}

/** What the new-construction kind holds where a permit file's model puts more than new buildings in it (review 31:
 *  Nashville's 1,216 "new construction" applications of its latest 12 months hold 198 tenant finish-outs, unsaid; the
 *  adapter, pipelines/intermediate/30_market_20_permits_nashville.sql, counts a finish-out as new, not renovation). */
const NEW_HOLDS: Record<string, string> = { nashville: "Nashville's applications of types New, Shell, Foundation, Structural Frame and Tenant Finish Out (a tenant finish-out builds out the interior of a new building's shell)" };
function newKinds(data: ResearchData, t: Target): string | null {
  const key = t.zip ? `zip|${t.zip}` : t.city && !t.area ? `city|${t.state}|${slug(t.city)}` : null;
  const holds = (key ? data.market?.permit_counts?.[key]?.[1] ?? [] : []).flatMap((s) => (NEW_HOLDS[s] ? [NEW_HOLDS[s]] : []));
  return holds.length ? `new construction permits as the permit records' new-construction kind, which counts ${holds.join('; ')}` : null;
}

/** The kinds a question asks (none: every kind). */
const kindsAsked = (query: string): PermitKind[] => [...new Set(ASKED.filter(([re]) => re.test(query.toLowerCase())).flatMap(([, ks]) => ks))];
const kindWords = (kinds: PermitKind[]): string => kinds.map((k) => KIND_WORDS[k]).join(', ').replace(/, ([^,]+)$/, ' or $1');

/** A city's zips ranked by their permits of the kinds asked over the window asked (each to its own sources' end). */
function zipRanking(data: ResearchData, u: Understanding, t: Target): Fact | null {
  const counts = data.market?.permit_counts;
  if (!counts) return null;
  const months = Math.min(u.months ?? 12, MAX_MONTHS);
  const asked = kindsAsked(u.query);
  const kinds = asked.length ? asked : [...PERMIT_KINDS];
  const zips = [...data.zips].filter(([, z]) => z.state === t.state && z.city.toLowerCase() === t.city!.toLowerCase())
    .flatMap(([zip]) => { const e = counts[`zip|${zip}`]; return e ? [{ zip, asOf: e[0], sources: e[1], n: kinds.reduce((s, k) => s + (e[2][k]?.[months - 1] ?? 0), 0) }] : []; });
  if (!zips.length) return null;
  zips.sort((a, b) => (u.lowEnd ? a.n - b.n : b.n - a.n) || a.zip.localeCompare(b.zip));
  const asOf = zips.map((z) => z.asOf).sort().at(-1)!;
  const what = `${asked.length ? kindWords(asked) : 'building'} permits`;
  const top = zips.slice(0, NAMED).map((z) => `${z.zip} (${z.n.toLocaleString('en-US')})`).join(', ');
  return {
    intent: 'rehab', target: t, value: `${zips[0]!.zip}: ${plural(zips[0]!.n, `${what.replace(/s$/, '')}`)}`,
    sentence: `Of the ${plural(zips.length, 'zip')} of ${t.city}, ${t.state} with permit records, ${zips[0]!.zip} had the ${u.lowEnd ? 'fewest' : 'most'} ${what} in the ${months} months to ${asOf}: ${top}`,
    detail: [`Permits counted by the ${permitDateNoun([...new Set(zips.flatMap((z) => z.sources))], data.market?.permit_months?.sources)} and the kind the source records, each zip over the months to where its permit sources end.`],
    source: { type: 'permits', category: 'market', citation: `reii warehouse: building permits of the zips of ${t.city}, ${t.state} by kind, ${months} months to ${asOf}` },
    confidence: 'high', primary: true, uncertain: null,
  };
}
