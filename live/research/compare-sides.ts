// The sides of a comparison no place was read in ("seattle vs gotham median price", "compare foo and bar"): each named
// as not found, so a comparison never drops a side silently and a question whose places are not read is never
// answered with other places' figures (a national ranking). Pure. Rules: warehouse/docs/research.md "Entity rules".
import { understand, type Understanding } from './intent.ts';
import type { Gazetteer, Target } from './place-words.ts';
import type { Fact } from './facts.ts';
import { COMMON_WORDS } from './place-words.ts';
import { isEnglishWord } from '../places/english.ts';
import { NOT_PLACES } from './unfound.ts';
import { isMonthWord } from './years.ts';

/** "A vs B (vs C)", "A versus B": the text on each side. */
const VS = /\s+(?:vs\.?|versus)\s+/i;
/** "compare A and B", "compare A with B", "between A and B". */
const COMPARE = /\b(?:compare|comparing|between)\s+(.+?)\s+(?:and|with|to|&)\s+(.+)$/i;

/** A property type's word ("condos vs single family" compares types, not places). */
const TYPE_WORD = /^(condos?|condominiums?|co-?ops?|sfrs?|sfhs?|duplex(es)?|triplex(es)?|multi-?family|townho(use|me)s?|[234]-?plex(es)?)$/;
/** A word that names no place: a topic, time or common English word, a month's name or abbreviation ("Jan 2015 vs Jan
 *  2014": before review 20, "no place named 'jan'"), a number. */
const topicWord = (w: string): boolean => !w || /\d/.test(w) || TYPE_WORD.test(w) || isMonthWord(w) || NOT_PLACES.has(w) || COMMON_WORDS.has(w) || isEnglishWord(w.replace(/'s$/, ''));

/** The name a side's unread place may have: the words next to the connector that are no topic word ("gotham" of
 *  "gotham median price"); '' when every word is one (then the side is no place: "compare rent and price"). */
function nameOf(side: string, fromEnd: boolean): string {
  const words = side.toLowerCase().replace(/[?!.,;:"()]/g, ' ').split(/\s+/).filter(Boolean);
  const run: string[] = [];
  for (const w of fromEnd ? [...words].reverse() : words) {
    if (topicWord(w) || w.split('-').every(topicWord)) { if (run.length) break; continue; }
    run.push(w);
    if (run.length === 3) break;
  }
  return (fromEnd ? run.reverse() : run).join(' ');
}

/** The names of the sides of a comparison that read no place (nor an unknown zip or territory), most once. */
/** A place's name for matching a side with the question's places: its neighbourhood, borough or county, zip, city. */
const nameKey = (t: Understanding['targets'][number]): string => (t.hood?.key ?? t.area?.name ?? t.zip ?? t.city ?? t.state).toLowerCase();

/** The places of the sides of a comparison that a side reads alone but the whole question dropped ("King County vs
 *  Pierce County": one county is read per question), named ("Pierce County, WA"). */
export function droppedSides(u: Pick<Understanding, 'query' | 'targets'>, gaz: Gazetteer): string[] {
  const sides = VS.test(u.query) ? u.query.split(VS) : [];
  if (sides.length < 2 || !u.targets.length) return [];
  const kept = new Set(u.targets.map(nameKey));
  const out: string[] = [];
  for (const side of sides) {
    const read = understand(side, {}, gaz).targets;
    const t = read[0];
    if (read.length === 1 && t && (t.area || t.city || t.zip) && !kept.has(nameKey(t))) out.push(t.area && !t.city ? `${t.area.name}, ${t.state}` : t.zip ? `zip ${t.zip}` : `${t.area?.name ?? t.city}, ${t.state}`);
  }
  return out;
}

export function unreadSides(u: Pick<Understanding, 'query' | 'targets'>, gaz: Gazetteer): string[] {
  const q = u.query;
  const m = COMPARE.exec(q);
  const sides = VS.test(q) ? q.split(VS) : m ? [m[1]!, m[2]!] : [];
  if (sides.length < 2) return [];
  const out: string[] = [];
  sides.forEach((side, k) => {
    const read = understand(side, {}, gaz);
    if (read.targets.length || read.unknown.length) return;
    const name = nameOf(side, k === 0);
    // (a name the whole question read, which its side alone does not: "in TX vs NY?")
    const named = u.targets.some((t) => [t.state, gaz.stateNames.get(t.state), t.city, t.zip, t.area?.name].some((x) => x?.toLowerCase() === name))
      || (name === 'bk' && u.targets.some((t) => t.area?.name === 'Brooklyn')); // "bk vs queens": read beside the other borough only (place-words.ts)
    if (name && !named && !out.includes(name)) out.push(name);
  });
  return out;
}

/** The sides of a comparison of one city name, one side with its state and the other bare ("Kansas City, Kansas vs
 *  Kansas City", "Portland and Portland, Maine"): the whole question reads the bare name in the state named beside it,
 *  so both sides collapse into one (review 23: Kansas alone, unsaid). Each side is read alone instead, the bare one by
 *  the namesake rule (its most populous namesake, said); when that is the named side's place, the answer says both
 *  sides are the same place. Changes `u` in place. */
export function namesakeSides(u: Pick<Understanding, 'query' | 'targets' | 'readAs'>, gaz: Gazetteer): void {
  const m = COMPARE.exec(u.query);
  const sides = VS.test(u.query) ? u.query.split(VS) : m ? [m[1]!, m[2]!] : [];
  if (sides.length < 2 || u.targets.length >= sides.length) return;
  const reads = sides.map((side) => understand(side, {}, gaz));
  const alone = reads.map((r) => r.targets[0]);
  if (reads.some((r) => r.targets.length !== 1) || alone.some((t) => !t?.city || t.zip || t.area || t.hood)) return;
  if (new Set(alone.map((t) => t!.city!.toLowerCase())).size !== 1) return;
  const key = (t: Understanding['targets'][number]): string => `${t.state}|${t.city}`;
  const keys = alone.map((t) => key(t!));
  if (u.targets.some((t) => !keys.includes(key(t)))) return;
  const distinct = [...new Set(keys)];
  const say = (r: string): void => { if (!u.readAs.includes(r)) u.readAs.push(r); };
  if (distinct.length > u.targets.length) {
    u.targets.splice(0, u.targets.length, ...distinct.map((k) => alone[keys.indexOf(k)]!));
    for (const r of reads) r.readAs.forEach(say);
  } else {
    // both sides the same place ("Portland, Oregon vs Portland"): the bare side's reading, said to be the other side's
    const bare = reads.flatMap((r) => r.readAs).find((r) => r.includes('(the most populous of'));
    if (bare) say(`${bare}, the same place as the other side`);
  }
}

/** Why a comparison has no figure for any side, each side said (review 24: "compare Boise and Tulsa", neither with
 *  sales, answered Boise alone): each place's first missing fact of the first topic with one, in the question's order.
 *  Sides whose reasons read alike but for the place's name are said once with the names joined ("We have no investor
 *  activity data for Boise, ID or Tulsa, OK"); alike but for its counts too (the Redfin zips of each city), the first
 *  in full and the others by the reason's first clause, "for the same reason" (the deep answer says each in full). At
 *  most `most` sentences: the sides past them are named in the last. */
export function sidesMissed(targets: readonly Target[], misses: readonly Fact[], name: (t: Target) => string, most: number): string[] {
  const intent = misses.find((f) => f.target && targets.includes(f.target))?.intent;
  const groups: { mask: string; sentences: string[]; names: string[] }[] = [];
  for (const t of targets) {
    const f = misses.find((x) => x.intent === intent && x.target === t);
    if (!f) continue;
    const n = name(t);
    const mask = f.sentence.split(n).join(NAME).replace(/\d[\d,.]*/g, '#');
    const same = mask.includes(NAME) ? groups.find((g) => g.mask === mask) : undefined;
    if (same) { same.names.push(n); same.sentences.push(f.sentence); } else groups.push({ mask, sentences: [f.sentence], names: [n] });
  }
  const said = groups.flatMap((g) => {
    const [first, ...rest] = g.names;
    const head = g.mask.split(/; |: /)[0]!;
    if (!rest.length) return g.sentences;
    if (!g.mask.includes('#')) return [g.sentences[0]!.split(first!).join(orList(g.names))];
    return head.includes(NAME) && !head.includes('#') ? [g.sentences[0]!, `${head.split(NAME).join(orList(rest))} either, for the same reason`] : g.sentences;
  });
  if (said.length <= most) return said;
  const named = new Set<string>();
  for (const s of said.slice(0, most - 1)) for (const g of groups) for (const n of g.names) if (s.includes(n)) named.add(n);
  const left = groups.flatMap((g) => g.names).filter((n) => !named.has(n));
  return [...said.slice(0, most - 1), `We have no such figure for ${orList(left)} either`];
}

const NAME = '\u0000';
const orList = (names: readonly string[]): string => names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
