// The sides of a comparison no place was read in ("seattle vs gotham median price", "compare foo and bar"): each named
// as not found, so a comparison never drops a side silently and a question whose places are not read is never
// answered with other places' figures (a national ranking). Pure. Rules: warehouse/docs/research.md "Entity rules".
import { understand, type Understanding } from './intent.ts';
import type { Gazetteer } from './place-words.ts';
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
    const named = u.targets.some((t) => [t.state, gaz.stateNames.get(t.state), t.city, t.zip, t.area?.name].some((x) => x?.toLowerCase() === name));
    if (name && !named && !out.includes(name)) out.push(name);
  });
  return out;
}
