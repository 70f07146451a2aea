// The places of a research question's context ({zip, city, state}), read when the question itself names none (pure;
// places.ts findPlaces). A zip+4 is read by its five digits ("98103-1234", as in the question text); a context city
// goes through the build's place resolver (Census names such as "Urban Honolulu") and, when no city answers to it,
// the question text's typo reading ("Phillidelphia" as Philadelphia, PA, said as read); a municipality of the
// foreclosure filings no Census place is named, as the question's text reads it. Rules:
// warehouse/docs/research.md "Entity rules".
import { citiesByKey, findCityTypos } from '../places/question.ts';
import { STATE_CODES, TERRITORY_CODES, tokens, type Gazetteer, type Target } from './place-words.ts';
import { contextCityReading } from './namesake-read.ts';
import { filingPlaceNamed, filingReading } from './place-prefer.ts';

/** `period`: the period the earlier answer was about ("2022", "March 2022"), read by context-period.ts for a follow-up
 *  comparing another period with it. */
export interface Context { zip?: string; city?: string; state?: string; period?: string }

/** The five digits of a context zip or zip+4 ("98103-1234" -> "98103"); anything else as given. */
export const contextZip = (zip: string): string => /^\d{5}-\d{4}$/.test(zip.trim()) ? zip.trim().slice(0, 5) : zip;

/** The context's places (pushed to `targets`), the ones we do not cover (`unknown`) and the readings to say (`readAs`). */
export function contextTargets(context: Context, gaz: Gazetteer, targets: Target[], unknown: string[], readAs: string[]): void {
  if (context.zip) {
    const zip = contextZip(context.zip);
    const z = gaz.zips.get(zip);
    if (z) {
      targets.push({ state: z.state, ...(z.city ? { city: z.city } : {}), zip, from: 'context' });
      // a context state or city the zip is not in is set aside, said (review 19: {98103, TX} answered Washington unsaid)
      const state = context.state?.trim().toUpperCase();
      const city = context.city?.trim();
      const cityElsewhere = city && !(gaz.citiesByName.get(city.toLowerCase()) ?? []).some((c) => c.state === z.state) && city.toLowerCase() !== z.city?.toLowerCase();
      if ((state && state !== z.state) || cityElsewhere) {
        readAs.push(`the context as zip ${zip} (${z.city ? `${z.city}, ` : ''}${z.state}): its ${[cityElsewhere ? `city "${city}"` : '', state && state !== z.state ? `state "${context.state}"` : ''].filter(Boolean).join(' and ')} ${cityElsewhere && state && state !== z.state ? 'are' : 'is'} not where that zip is, so ${cityElsewhere && state && state !== z.state ? 'they are' : 'it is'} set aside`);
      }
    } else unknown.push(`zip ${context.zip}`);
  }
  // a municipality of the foreclosure and lien filings no Census place is named ("Mount Lebanon", "Penn Hills", PA),
  // read as the question's text reads it (place-prefer.ts filingPlaceNamed; review: {Mount Lebanon, PA} answered "no
  // data", {Penn Hills, PA} was read as Pennville, PA)
  const filed = targets.length === 0 && context.city ? filingPlaceNamed(context.city.trim(), gaz, new Set(context.state ? [context.state.trim().toUpperCase()] : [])) : undefined;
  if (filed) {
    targets.push({ state: filed.state, city: filed.name, from: 'context' });
    const said = filingReading(context.city!.trim(), context.city!.trim(), filed);
    if (said) readAs.push(said);
  }
  if (targets.length === 0 && context.city) {
    const cands = gaz.citiesByName.get(context.city.toLowerCase()) ?? citiesByKey(gaz.citiesByName, context.city) ?? [];
    let c = context.state ? cands.find((x) => x.state === context.state) : cands[0];
    if (!c && context.state) {
      const canonical = gaz.canonicalCity?.(context.state, context.city);
      if (canonical) c = gaz.citiesByName.get(canonical.toLowerCase())?.find((x) => x.state === context.state);
    }
    if (!c) {
      // a misspelled context city, read as the question text's would be (the context state's cities, else the large ones)
      const typo = cands.length ? undefined : findCityTypos(context.city, tokens(context.city), [], gaz.citiesByName, new Set(context.state ? [context.state] : []))[0];
      if (typo && typo.start === 0 && typo.end === context.city.length) {
        c = typo.city;
        // (and which namesake, with no context state: "Washingtn" as Washington, DC (the closest city name; the most
        // populous US place of that name, not the state; ...), as {city: "Washington"} is said: review 24)
        const namesake = context.state ? null : contextCityReading(c.name, c, gaz.citiesByName.get(c.name.toLowerCase()) ?? []);
        readAs.push(`"${context.city}" as ${c.name}, ${c.state} (the closest city name${namesake ? `; ${/\((.*)\)$/.exec(namesake)![1]}` : ''})`);
      }
    }
    // a namesake city with no context state: read as a typed one is, and said (review 23: {city: "Kansas City"}
    // answered Missouri's rule unsaid; Kansas City, KS has 3 days)
    const said = c && !context.state && cands.includes(c) ? contextCityReading(context.city, c, cands) : null;
    if (said) readAs.push(said);
    if (c) targets.push({ state: c.state, city: c.name, from: 'context' });
    else if (context.state) { targets.push({ state: context.state, from: 'context' }); unknown.push(`${context.city}, ${context.state}`); }
    else unknown.push(context.city);
  }
  if (targets.length === 0 && context.state && STATE_CODES.has(context.state)) targets.push({ state: context.state, from: 'context' });
  // a territory's code (PR, GU, VI, AS, MP) or any other code we do not cover: said as outside coverage
  else if (targets.length === 0 && context.state && !context.zip && !context.city) unknown.push(TERRITORY_CODES[context.state.toUpperCase()] ?? context.state);
}

/** A follow-up comparing a place with the context's ("compare with Kirkland", "compare it to 98033", "vs Kirkland"):
 *  the context's place is the other side, first. */
const COMPARE_FOLLOW_UP = /^\s*(?:and\s+)?(?:(?:compare|compared)(?:\s+(?:it|this|that|them))?\s+(?:with|to|against)|vs\.?|versus)\s/i;

/** The context's place put first beside the place a comparing follow-up names (review 20: "compare with Kirkland"
 *  after {Bellevue, WA, 2015} answered Kirkland's latest month alone); nothing when the question names no place, more
 *  than one, or the context's own. */
export function contextCompared(q: string, context: Context, gaz: Gazetteer, targets: Target[], readAs: string[]): void {
  if (targets.length !== 1 || !COMPARE_FOLLOW_UP.test(q)) return;
  const ctx: Target[] = [];
  contextTargets(context, gaz, ctx, [], []);
  const c = ctx[0], t = targets[0]!;
  if (!c || (!c.zip && !c.city) || (c.zip ?? c.city) === (t.zip ?? t.city)) return;
  targets.unshift(c);
  readAs.push(`the follow-up as ${c.zip ? `zip ${c.zip}` : `${c.city}, ${c.state}`} (the context's place) compared with ${t.zip ? `zip ${t.zip}` : t.city ? `${t.city}, ${t.state}` : t.state}`);
}
