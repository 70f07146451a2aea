// A zip or a city written with a state it is not in ("median price 11201 wa", "median price in seattle tx", "how many
// homes sold in 98103 new york", "median price in 98103 oregon"): said, as the API says a contradicting state elsewhere,
// and answered for the zip's own state (the city's namesake read as with no state), never for the state written nor
// as a comparison with it; a town not in the state, with a zip of the state after it ("Kensington, PA 19134"), a
// neighbourhood of the zip's city; a close spelling of a city of the state written ("Pittsburg PA"), that city. Pure:
// the question with the state's words taken out (or the city's name put right), and the note. Rules:
// warehouse/docs/research.md "Entity rules".
import { citiesByKey } from '../places/question.ts';
import { municipalityNames, placeKey } from '../places/names.ts';
import { AMBIGUOUS_CODES, BOROUGHS, COMMON_WORDS, STATE_CODES, STATE_NAME_SET, STATE_PATTERNS, type Gazetteer } from './place-words.ts';
import { knownHoodIn } from './hood-cities.ts';
import { regionIn } from './place-regions.ts';
import { nearNamedCity } from './place-prefer.ts';
import { startsStreetLine } from './street-line.ts';

/** A state named at the start of `rest` after a space or a comma: its code and length, else null. A lower-case code
 *  that is an English word ("or", "me", "in") counts only at the end of the question. */
export function stateAt(rest: string): { code: string; length: number } | null {
  const lead = /^[ \t]*,?[ \t]*/.exec(rest)![0];
  if (!lead) return null;
  const after = rest.slice(lead.length);
  const code = /^([A-Za-z]{2})\b(?![.'’-]\w)/.exec(after);
  if (code) {
    const c = code[1]!.toUpperCase();
    const atEnd = /^\s*[?.!]*\s*$/.test(after.slice(2));
    if (STATE_CODES.has(c) && (code[1] === c || !AMBIGUOUS_CODES.has(c) || atEnd)) return { code: c, length: lead.length + 2 };
  }
  const lower = after.toLowerCase();
  for (const [, c, re] of STATE_PATTERNS) {
    re.lastIndex = 0;
    const m = re.exec(lower);
    if (m && m.index === 0) return { code: c, length: lead.length + m[0].length };
  }
  return null;
}

/** Whether `phrase` names a place of state `code`: a town, a filing municipality or a neighbourhood of the build. */
function knownIn(gaz: Pick<Gazetteer, 'citiesByName' | 'filingByKey' | 'hoodsByName'>, phrase: string, code: string): boolean {
  return (gaz.citiesByName.get(phrase) ?? citiesByKey(gaz.citiesByName, phrase) ?? []).some((c) => c.state === code)
    || municipalityNames(phrase).some((n) => (gaz.filingByKey?.get(placeKey(n)) ?? []).some((f) => f.state === code))
    || (gaz.hoodsByName?.get(phrase) ?? []).some((h) => h.state === code) || knownHoodIn(phrase, code) || regionIn(phrase, code);
}

/** The question with a state that contradicts the zip or city just before it taken out, and the note saying so; null
 *  when there is none. */
export function stateClash(q: string, gaz: Pick<Gazetteer, 'zips' | 'citiesByName' | 'stateNames' | 'maxCityWords' | 'filingByKey' | 'hoodsByName'>): { text: string; readAs: string } | null {
  const name = (code: string): string => gaz.stateNames.get(code) ?? code;
  for (const m of q.matchAll(/(?<![\d$.,])\b(\d{5})\b(?![\d%,.])/g)) {
    if (startsStreetLine(q, m.index)) continue; // a house number ("12345 NE 80th St": NE is no state here)
    const z = gaz.zips.get(m[1]!);
    const end = m.index + m[0].length;
    const s = z ? stateAt(q.slice(end)) : null;
    if (!z || !s || s.code === z.state) continue;
    return { text: q.slice(0, end) + q.slice(end + s.length), readAs: `"${q.slice(m.index, end + s.length).trim()}": zip ${m[1]} is in ${name(z.state)}${z.city ? ` (${z.city}, ${z.state})` : ''}, not in ${name(s.code)}, so the figures are the zip's own, in its own state` };
  }
  // a city: the longest run of up to `maxCityWords` words just before a state that is a city's name anywhere
  for (const m of q.matchAll(/[A-Za-z][A-Za-z.'’-]*/g)) {
    const s = stateAt(q.slice(m.index + m[0].length));
    if (!s) continue;
    const words = [...q.slice(0, m.index + m[0].length).matchAll(/[A-Za-z][A-Za-z.'’-]*/g)].slice(-gaz.maxCityWords);
    let clash: { run: RegExpExecArray[]; big: { name: string; state: string }; n: number } | null = null;
    for (let k = 0; k < words.length; k++) {
      const run = words.slice(k);
      if (!/^[ \t]*$/.test(run.slice(1).map((w, j) => q.slice(run[j]!.index + run[j]![0].length, w.index)).join(''))) continue;
      const phrase = run.map((w) => w[0].toLowerCase()).join(' ');
      // any run of the words that names a place of that state (a town, a filing municipality, a neighbourhood: "Mount
      // Lebanon PA", "Lebanon PA"): no clash
      if (knownIn(gaz, phrase, s.code)) { clash = null; break; }
      const cands = gaz.citiesByName.get(phrase) ?? citiesByKey(gaz.citiesByName, phrase);
      if (!cands?.length || clash) continue;
      // a name read as a place: capitalised, or a city of 100,000 or more; never a state's or a common word's
      const read = /^[A-Z]/.test(run[0]![0]) || cands[0]!.population >= 100_000;
      if (read && !STATE_NAME_SET.has(phrase) && !COMMON_WORDS.has(phrase) && !BOROUGHS.some(([re]) => re.test(phrase))) clash = { run, big: cands[0]!, n: cands.length };
    }
    if (!clash) continue;
    const { big } = clash;
    const at = m.index + m[0].length;
    const written = q.slice(clash.run[0]!.index, at + s.length).trim();
    // a zip of that state written just after it ("Kensington, PA 19134"): a neighbourhood of the zip's city, the zip's
    // figures (review 27: before, Kensington, CT beside the zip)
    const zipAt = /^[\s,]*(\d{5})\b/.exec(q.slice(at + s.length));
    const zip = zipAt && !startsStreetLine(q, at + s.length + zipAt[0].length - 5) ? zipAt[1] : undefined;
    const inState = zip ? gaz.zips.get(zip) : undefined;
    if (inState?.city && inState.state === s.code) {
      return { text: q.slice(0, clash.run[0]!.index) + q.slice(at + s.length), readAs: `"${written}" as a neighbourhood of ${inState.city}, ${inState.state}, the city of zip ${zip} written with it (no place of that name in ${name(s.code)}): we do not resolve neighbourhoods, so the figures are zip ${zip}'s, as named` };
    }
    // a neighbourhood the sales records name in another state ("Kensington PA": Brooklyn's KENSINGTON): the state
    // written is kept and the words are no place, said (before, Brooklyn's figures under "Kensington PA")
    const hood = gaz.hoodsByName?.get(clash.run.map((w) => w[0].toLowerCase()).join(' '))?.[0];
    if (hood) {
      return { text: q.slice(0, clash.run[0]!.index) + q.slice(at), readAs: `"${written}": no place of that name is in ${name(s.code)}, and the neighbourhood ${hood.names.join(' / ')} the sales records name is in ${hood.part} (${hood.city}, ${hood.state}); we do not resolve neighbourhoods, so name the city or zip of ${name(s.code)} it lies in` };
    }
    // a close spelling of a city of the state written ("Pittsburg PA": Pittsburgh, PA, one letter off): that city, the
    // state written winning over an exact namesake elsewhere (review 29: the header read Pittsburg, CA, the body Pittsburgh)
    const near = nearNamedCity(gaz.citiesByName, clash.run.map((w) => w[0]).join(' '), new Set([s.code]), 0);
    if (near) {
      return { text: q.slice(0, clash.run[0]!.index) + near.name + q.slice(at), readAs: `"${written}" as ${near.name}, ${near.state} (the closest city name in ${name(s.code)}, the state written; ${big.name} is not in ${name(s.code)})` };
    }
    return { text: q.slice(0, at) + q.slice(at + s.length), readAs: `"${written}": ${big.name} is not in ${name(s.code)} (no place of that name there), so it is read as ${big.name}, ${big.state} (${clash.n > 1 ? 'the most populous place of that name' : 'the only place of that name'}); name its state for another ${big.name}` };
  }
  return null;
}
