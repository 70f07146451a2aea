// Foreclosure and lien filings asked for a calendar year or named months ("foreclosure filings in Louisville in 2015",
// "how many foreclosures in Allegheny County in 2022", "tax delinquent filings in Louisville in may"): the filings of
// those months by kind (market.json `distress_months`, distress-kinds-build.ts distressMonths), a county's the sum of
// its filing municipalities' (county-distress.ts), not the latest window's pipeline with "not for 2023" (review 24).
// Months the filing file covers in part only are named, and a period outside it is said plainly with what it covers,
// as a permit count's (permit-periods.ts). Rules: warehouse/docs/research.md "Distress by period".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { fmt, missing, placeName, plural, type Fact } from './facts.ts';
import { monthRuns } from './coverage.ts';
import { RANK, ranks, type RankWords } from './ranks.ts';
import { distressKindAsked, kindNotHeld, kindsHeld, kindWords, KINDS } from './distress-kinds.ts';
import { countChange, monthIndex, periodCounts, periodWords, type MonthCounts } from './period-months.ts';
import { slug } from '../../warehouse/layout.ts';

/** A comparison's words for filings counted (not the pipeline's distressed properties). */
const FILINGS_RANK: RankWords = { ...RANK.distress, high: ['has more filings', 'has the most filings'], low: ['has fewer filings', 'has the fewest filings'] };

/** What a filing is, said with every count. */
const FILING = 'a filing is one case and one property it names, counted in the month it was filed whatever became of the case since';

/** The filing facts of each period asked of a city (as the filings name it: place-prefer.ts) or a county (its filing
 *  municipalities summed), or null when no period is asked, the index has no filings by month (a build before review
 *  24), or no filing names the place (the window answer says so). */
export function distressPeriodFacts(data: ResearchData, u: Understanding, t: Target): Fact[] | null {
  const dm = data.market?.distress_months;
  if (!u.years || !dm) return null;
  if (t.zip) return zipPeriodFacts(data, u, t, dm);
  // a county: the municipalities its filings name (filing-places.ts), each its own entry
  const places = t.city ? [{ name: t.city, key: `city|${t.state}|${slug(t.city)}` }]
    : t.area ? data.filingPlaces.filter((p) => p.state === t.state && p.county_fips === t.area!.county_fips).map((p) => ({ name: p.name, key: `city|${p.state}|${slug(p.name)}` })) : [];
  const held = places.flatMap((p) => { const e = dm.places[p.key]; return e ? [{ ...p, e }] : []; });
  if (!held.length) return null;
  return periodFacts(data, u, t, dm, held, held);
}

type Entry = MonthCounts['places'][string];

/** A zip's filings of the periods asked: its own where its city's filing records name zips (Louisville's; none in the
 *  zip is a count of 0, the file covering it), else, where they name only a municipality (Allegheny's), its city's, said
 *  as the city's as a whole, as the window answer says it (investor-bits.ts cityOfZip); null when its city has none. */
function zipPeriodFacts(data: ResearchData, u: Understanding, t: Target, dm: MonthCounts): Fact[] | null {
  // an index before the zips (session 25) cannot tell Louisville's zips from none: the window answer and its gap then
  if (!dm.zips) return null;
  const own = dm.places[`zip|${t.zip}`];
  const city = t.city ? dm.places[`city|${t.state}|${slug(t.city)}`] : undefined;
  if (!own && !city) return null;
  const sources = own?.[1] ?? city![1];
  const zipped = own || Object.entries(dm.places).some(([k, e]) => k.startsWith('zip|') && e[1].some((s) => sources.includes(s)));
  if (zipped) {
    const e: Entry = own ?? [city![0], city![1], {}];
    // the kinds are the city's, so a kind its filings hold and the zip's do not is a count of 0, not "not recorded"
    return periodFacts(data, u, t, dm, [{ name: t.zip!, key: `zip|${t.zip}`, e }], city ? [{ e: city }] : []);
  }
  const facts = distressPeriodFacts(data, u, { ...t, zip: undefined });
  const names = sources.map((s) => data.titles.get(s) ?? s).join(' and ');
  const of = `${t.city}, ${t.state}`;
  return facts?.map((f) => f.source === null ? f : {
    ...f, ranks: undefined, value: `${f.value} (${of} as a whole)`, confidence: 'medium', target: t,
    sentence: `The filing records of ${names} name each filing's municipality, not its zip, so zip ${t.zip}'s figure is ${of}'s as a whole: in ${f.sentence.slice(3)}`,
  }) ?? null;
}

/** The facts of each period asked of the places `held` (one, or a county's municipalities), their kinds those of
 *  `kindsOf` too. */
function periodFacts(data: ResearchData, u: Understanding, t: Target, dm: MonthCounts, held: { name: string; key: string; e: Entry }[], kindsOf: { e: Entry }[]): Fact[] | null {
  const read = periodCounts(dm, held.map((h) => h.e), u.years!);
  if (!read) return null;
  const where = placeName(data, t);
  const names = read.sources.map((s) => data.titles.get(s) ?? s).join(' and ');
  const fileWords = `${names} ${read.sources.length > 1 ? 'cover' : 'covers'} ${read.spans.map(([a, b]) => `${a} to ${b}`).join(' and ')}`;
  const kinds = KINDS.map(([k]) => k).filter((k) => [...held, ...kindsOf].some((h) => h.e[2][k]));
  const asked = distressKindAsked(u.query);
  const one = read.periods.length === 1;
  const counted: { label: string; from: string; n: number; whole: boolean }[] = [];
  const facts = read.periods.map(({ y, from, to, months, whole, part, count }) => {
    const when = periodWords(y.label);
    const year = /^\d{4}$/.test(y.label) ? y.label : null;
    if (!whole.length && !part.length) return missing('investor', t, `We have no foreclosure or lien filings ${when} for ${where}: ${fileWords} (its filing records), none of ${year ?? 'these months'}`);
    const all = kinds.reduce((s, k) => s + count(k), 0);
    const byKind = kinds.filter((k) => count(k) > 0).map((k) => `${count(k).toLocaleString('en-US')} ${kindWords(k)}`).join(', ');
    // the kinds asked lead where the filings record them (all of a word covering several: "lien foreclosure" is a
    // tax-lien suit too, the split said); else the count is every kind's, said
    const h = asked ? kindsHeld(asked, kinds, count) : null;
    const n = h?.kinds.length ? h.n : all;
    const lead = asked && h?.kinds.length
      ? `${plural(n, `${asked.words} filing`)}${h.split} ${n === 1 ? 'was' : 'were'} made ${when}, of ${plural(all, 'foreclosure and lien filing')} of every kind`
      : `${plural(all, 'foreclosure and lien filing')} ${all === 1 ? 'was' : 'were'} made ${when}`;
    const each = t.city || t.zip ? '' : (() => {
      const counted = held.map((h) => ({ name: h.name, n: kinds.reduce((s, k) => s + countOne(h.e, k, months), 0) })).filter((x) => x.n > 0)
        .sort((a, b) => b.n - a.n || a.name.localeCompare(b.name));
      return `, the sum of the ${fmt(counted.length)} ${counted.length === 1 ? 'municipality' : 'municipalities'} with filings then (most: ${counted.slice(0, 5).map((x) => `${x.name} ${x.n.toLocaleString('en-US')}`).join(', ')})`;
    })();
    const partly = whole.length === months.length ? ''
      : `; ${fileWords}, so of ${year ?? 'these months'} only ${[whole.length ? monthRuns(whole) : '', part.length ? `${monthRuns(part)} in part only` : ''].filter(Boolean).join(', and ')}: not a count of ${year ? `the whole of ${year}` : 'all of them'}`;
    counted.push({ label: y.label.replace(/ \(.*$/, ''), from, n, whole: !partly });
    return {
      ...(one ? ranks(u, n, fmt(n), FILINGS_RANK) : {}),
      intent: 'investor', target: t, value: `${plural(n, `${h?.kinds.length ? `${asked!.words} ` : ''}filing`)} (${y.label.replace(/ \(.*$/, '')}${partly ? ', in part' : ''})`,
      sentence: `${asked && !h?.kinds.length ? `${kindNotHeld(asked, where, kinds, names)}; what they hold: in` : 'In'} ${where}, ${lead}${byKind && !(h?.split && n === all) ? ` (${byKind})` : ''}${each}, from the filing records of ${names} (${FILING})${partly}`,
      detail: ['Filings counted by the calendar month of their filing date and the kind the source records; the distressed pipeline of a window (the properties with an open filing) is asked without a year.'],
      source: { type: 'investor', category: 'market', citation: `reii warehouse: foreclosure and lien filings for ${where} by kind, ${from} to ${to}` },
      confidence: partly ? 'medium' : 'high', primary: true, uncertain: null,
    } satisfies Fact;
  });
  // periods compared of one place: the change of the count, after the last (period-months.ts countChange)
  const change = counted.length === facts.length ? countChange(counted, 'filings') : '';
  if (change) facts[facts.length - 1] = { ...facts.at(-1)!, sentence: facts.at(-1)!.sentence + change };
  return facts;
}

/** One place's filings of a kind over months. */
function countOne(e: Entry, k: string, months: readonly string[]): number {
  return months.reduce((s, m) => s + (e[2][k]?.[monthIndex(m) - monthIndex(e[0])] ?? 0), 0);
}

/** The filing facts of the periods asked (distressPeriodFacts), or null with, where a period was asked and not
 *  counted (an index before review 24, a zip), the gap said: the latest window's figures follow. */
export function distressPeriods(data: ResearchData, u: Understanding, t: Target): Fact[] | null {
  const facts = distressPeriodFacts(data, u, t);
  // (a city no filing names is said to have no distress source by the window answer: no period gap then)
  const gap = u.years && !facts && (t.zip || !data.market?.distress_months) ? `We keep distressed property counts for the latest months of each source only, not for ${u.years.label}: the figures given are the latest` : null;
  if (gap && !u.gaps.includes(gap)) u.gaps.push(gap);
  return facts;
}
