// The places a research question names (pure, no I/O): states, cities and zips found in the query text against the
// build's gazetteer (<build>/live/research/places.json), else taken from the context {zip, city, state}, and the
// question with the place names taken out (for full-text retrieval). Rules: warehouse/docs/research.md.
// Over 300 lines: one pass over the question in a fixed order (territories, zips, nicknames, state names, codes, cities,
// misspellings) whose steps share the spans taken so far; split up, every step would need that state handed along.
//
// Entity rules in short:
//   zips     5 digits standing alone (not "$12345", not part of a longer number such as "12,345" or "12345,678"; a
//            comma after a zip is punctuation: "98103, 98117"); unknown zips are reported, not guessed
//   states   full names anywhere, any case ("new mexico" before "mexico"-free matches, "West Virginia" before "Virginia");
//            misspelled names by edit distance (live/places/question.ts: capitalised, or after "in", "or"...);
//            2-letter codes only in upper case, and the codes that are also English words (IN, OR, ME, OK, HI, OH, ID,
//            CO, PA, MA, AL, DE, MD, MO) only with a cue: after a comma or a city ("Portland, OR"), after a
//            preposition at the end of a phrase ("eviction notice in OK?"), after "in"/"from"/"between"/"vs" in a
//            mixed-case question ("in OK for nonpayment"), or possessive ("OK's"); in an all-caps question every code needs a cue;
//            a lower-case code only at the very end after "in" ("deposit limit in co?"), never one that is a word there (or, me...),
//            or just after a city of its state ("redmond wa", "greenwich, ct")
//   Mass     "Mass" (Massachusetts) capitalised and not starting a sentence, or ending the question after "in"/"of"...
//   DC       "DC", "D.C.", "Washington DC", "District of Columbia"; a bare "Washington" is Washington State unless the
//            context state is DC (and the answer says how it was read)
//   foreign  "Mexico", "Canada"... put the question outside coverage, unless a US state follows ("Mexico, Missouri"); no
//            US town of the country's name is read then
//   cities   the build's city list, also by the place resolver's key (Saint/St., Fort/Ft., hyphens, accents), and a
//            hyphenated Census name that is no city by its first part ("Nashville-Davidson"); multi-word names first; a name must be written with capitals, or be a large
//            city (100k+) written in any case (10k+ in a state named or implied by another city; a single capitalised
//            word starting the question 10k+); common words that are also town names (Deposit NY, Mobile AL) need
//            capitals and are never taken at the start of a sentence without a state; a city's state comes from an
//            adjacent state, else a state named elsewhere in the question or context (never a village namesake of a
//            large city), else its most populous namesake, or the state of the places named with it (place-share.ts);
//            a name followed by County, Parish or Borough is a county ("Cook County, Illinois" is not Cook, MN), and so
//            is one followed by "Co"/"Co." when a county bears the name and no Colorado city does ("King Co WA")
//   boroughs New York City's five (Brooklyn, Manhattan, the Bronx, Queens, Staten Island) are New York, NY with an `area`:
//            the borough's county, whose zips answer the per-zip topics (comps, rehab, flood and Superfund)
import { citiesByKey, findCityTypos, findStateTypos, uncuedTown } from '../places/question.ts';
import { foldAccents } from '../places/names.ts';
import { monthByYear } from './years.ts';
import { coveredTown } from './covered-town.ts';
import { dropNameParts } from './name-parts.ts';
import { AMBIGUOUS_CODES, BOROUGHS, cap, CITY_ALIASES, coIsCounty, COMMON_WORDS, COUNTY_WORDS, END_OK_CODES, FOREIGN_ALL, lowerCityCode, lowerEndCode, lowerPlainCode, massWords, PREPOSITIONS, topicEndCode, sentenceStart, STATE_CODES, STATE_NAME_SET, stateNameOf, STATE_PATTERNS, STRONG_CUES, SUBJECT_NEXT, SUBJECT_VERBS, TERRITORIES, tokens } from './place-words.ts';
export { STATE_CODES, stateNameOf, type Area, type Gazetteer, type Target } from './place-words.ts';
import type { Area, Gazetteer, Target } from './place-words.ts';
import { filingPlacesIn, lowerCitiesOfNamedStates, nearNamedCity, neighbourhoods, soldTypos } from './place-prefer.ts';
import { hoodsNamed } from './hood-places.ts';
import { compassCode, compassParts } from './hood-compass.ts';
import { stateCityTypo, stateStartsCity } from './state-city-typo.ts';
import { cityBefore } from './city-before.ts';
import { loneHoods } from './hood-alone.ts';
import { zipCityClash } from './zip-clash.ts';
import { readVillages } from './village-zips.ts';
import { regionsAsked } from './place-regions.ts';
import { stateAt } from './state-clash.ts';
import { startsStreetLine, streetLines } from './street-line.ts';
import { indexNames } from './index-words.ts';
import { dwarfedNamesake, filedNamesake, shareStates, soldNamesake } from './place-share.ts';
import { applyDrops, hoodsOfCities, knownHoods, loneHood } from './hood-cities.ts';
import type { City } from './data.ts';
import { bareCountyKey, formerCountiesIn } from './county-place.ts';
import { contextCompared, contextTargets, type Context } from './context-place.ts';
import { letterZip, letterZipWhy, spacedZips, mostPopulousReading, namesakeClause, namesakeSubject, onceEach, washingtonReading } from './namesake-read.ts';
import { boroughElsewhere, casedStates, cityOfStateBefore, contextBorough, directionalTown, everyBorough, isTownWord, namesakeAfterCue, shortZips, soldTown, stateNamedTown, territoryTowns } from './place-aliases.ts';
import type { Hood } from './hoods.ts';


export type { Context } from './context-place.ts';

/** The places of a question: the ones we cover, the ones we do not, how an ambiguous name was read. */
export interface Places {
  targets: Target[];
  /** places named that we do not cover (a territory, an unknown zip or city) */
  unknown: string[];
  /** readings worth telling the user (ambiguous "Washington"), in deep answers */
  notes: string[];
  /** a city chosen among namesakes in other states with no state said ("Ontario" as Ontario, CA): said in every answer */
  readAs: string[];
  /** the question with place names taken out (for full-text retrieval) */
  topicText: string;
}

interface Span { start: number; end: number }
const WASHINGTON_STATE = '"Washington" read as Washington State; say "Washington DC" for the District';
/** Street words after a name: "Pennsylvania Ave", "Ohio St". */
const STREET_AFTER = /^\s+(ave|avenue|st|street|blvd|boulevard|rd|road|dr|drive|ln|lane|pkwy|parkway|hwy|highway|ter|terrace)\b\.?/;
const overlaps = (spans: Span[], s: number, e: number): boolean => spans.some((x) => s < x.end && e > x.start);


/** Finds the places of a question and its context. */
export function findPlaces(written: string, context: Context, gaz: Gazetteer): Places {
  // accents off, letter for letter ("San José" is San Jose, not a typo of "San Jos"), and curly quotes as straight ones
  // ("Coeur d’Alene"), one character for one: the spans stay the question's (places.md "Keys")
  const q = foldAccents(written).replace(/[‘’]/g, "'");
  const lower = q.toLowerCase();
  const allCaps = !/[a-z]/.test(q) && /[A-Z]/.test(q);
  const taken: Span[] = [];
  const unknown: string[] = [];
  const notes: string[] = [];
  const readAs: string[] = [];
  type Found = { state: string; city?: string; zip?: string; area?: Area; hood?: Hood; at: number; end: number; kind: 'state' | 'city' | 'zip'; free?: readonly City[] };
  const found: Found[] = [];
  // a street line's words are no place: its house number no zip, its street and direction words no state or town
  // ("12345 NE 80th St, Redmond WA": NE is no Nebraska; street-line.ts)
  taken.push(...streetLines(q), ...indexNames(q)); // and FEMA's National Risk Index named: no National, MD (index-words.ts)

  // territories we do not cover
  for (const t of TERRITORIES) {
    const i = lower.indexOf(t);
    if (i >= 0 && !overlaps(taken, i, i + t.length)) { taken.push({ start: i, end: i + t.length }); unknown.push(t.replace(/\b\w/g, (c) => c.toUpperCase())); }
  }

  // a town named with a territory ("San Juan PR", "San Juan, Puerto Rico"): outside coverage, never a US namesake
  // (San Juan, TX); a territory's code after a town names the territory (place-aliases.ts territoryTowns)
  for (const t of territoryTowns(q)) {
    if (overlaps(taken, t.start, t.end)) continue;
    taken.push({ start: t.start, end: t.end });
    if (t.territory && !unknown.includes(t.territory)) unknown.push(t.territory);
  }

  // foreign places: the question is outside coverage ("New Mexico" is a state and "New England" a US region)
  // every one named ("Sao Paulo Brazil": both); a US town named like one needs its state after it ("Mexico, Missouri", "Mexico, MO")
  const stateAfter = (rest: string): boolean => {
    const code = /^\s*,?\s*([A-Z]{2})\b/.exec(rest);
    return (code !== null && STATE_CODES.has(code[1]!)) || STATE_PATTERNS.some(([, , re]) => { re.lastIndex = 0; const m = re.exec(rest.toLowerCase()); return m !== null && /^\s*,?\s*$/.test(rest.slice(0, m.index)); });
  };
  const foreigns = [...q.matchAll(FOREIGN_ALL)]
    .filter((h) => !(gaz.citiesByName.has(h[1]!.toLowerCase()) && stateAfter(q.slice(h.index + h[0].length))));
  const foreign = foreigns.length > 0;
  // the country is no US town of its name: its words are taken, so no city reads them ("Mexico" is not Mexico, MO)
  for (const h of foreigns) { unknown.push(h[1]!.replace(/\b\w/g, (c) => c.toUpperCase())); taken.push({ start: h.index, end: h.index + h[0].length }); }

  // zips; five digits that start a street line are its house number, never a zip ("12345 NE 80th St": street-line.ts)
  for (const m of q.matchAll(/(?<![\d$.]|(?<!\d)\d{1,3},)\b(\d{5})(?:-\d{4})?\b(?!\d|%|\.\d|,\d{3}(?!\d))/g)) {
    if (startsStreetLine(q, m.index)) continue;
    const zip = m[1]!;
    const z = gaz.zips.get(zip);
    taken.push({ start: m.index, end: m.index + m[0].length });
    if (z) found.push({ state: z.state, city: z.city || undefined, zip, at: m.index, end: m.index + m[0].length, kind: 'zip' });
    else unknown.push(`zip ${zip}`);
  }

  // a zip written with a space inside ("98 103", "981 03"): read as the zip it joins into, said (namesake-read.ts)
  for (const z of spacedZips(q, (zip) => gaz.zips.has(zip))) {
    if (overlaps(taken, z.start, z.end)) continue;
    const g = gaz.zips.get(z.zip)!;
    taken.push({ start: z.start, end: z.end });
    readAs.push(`"${z.written}" as zip ${z.zip} (${g.city ? `${g.city}, ${g.state}; ` : ''}the space inside it taken out)`);
    found.push({ state: g.state, city: g.city || undefined, zip: z.zip, at: z.start, end: z.end, kind: 'zip' });
  }

  // a zip written with the letter O for a zero ("median price in 981O3"), l or I for a one ("9810l"): read as the zip,
  // said (namesake-read.ts)
  for (const m of q.matchAll(/\b[\dOoIl]{5}\b/g)) {
    const zip = letterZip(m[0]);
    if (!zip || overlaps(taken, m.index, m.index + 5)) continue;
    const z = gaz.zips.get(zip);
    taken.push({ start: m.index, end: m.index + 5 });
    readAs.push(`"${m[0]}" as zip ${zip} (${z?.city ? `${z.city}, ${z.state}; ` : ''}${letterZipWhy(m[0])})`);
    if (z) found.push({ state: z.state, city: z.city || undefined, zip, at: m.index, end: m.index + 5, kind: 'zip' });
    else unknown.push(`zip ${zip}`);
  }

  // a zip written without its leading zero after a place word ("median price in 6830" as 06830): place-aliases.ts
  for (const z of shortZips(q, gaz)) if (!overlaps(taken, z.start, z.end)) { taken.push(z); found.push({ ...z, kind: 'zip', at: z.start }); readAs.push(z.readAs); }

  // city nicknames (NYC, LA, SF)
  for (const [re, city, state] of CITY_ALIASES) {
    const m = re.exec(q);
    if (m && !overlaps(taken, m.index, m.index + m[0].length)) {
      // "LA" after a Louisiana city is its state ("New Orleans LA"); alone it is Los Angeles, said as read
      if (m[0] === 'LA' && cityOfStateBefore(q, m.index, 'LA', gaz)) continue;
      if (m[0] === 'LA') readAs.push('"LA" as Los Angeles, CA (LA is also Louisiana\'s postal code: say "Louisiana" for the state)');
      if (/^kc$/i.test(m[0]) && state === 'MO') readAs.push(`"${m[0]}" as Kansas City, MO (say "Kansas City, KS" for the other)`);
      taken.push({ start: m.index, end: m.index + m[0].length });
      found.push({ state, city, at: m.index, end: m.index + m[0].length, kind: 'city' });
    }
  }
  // a borough's word that is part of another place ("Manhattan, KS", "Brooklyn Park", "Queens Village") is not it
  for (const [re, area] of BOROUGHS) {
    const m = [...q.matchAll(new RegExp(re.source, `${re.flags}g`))].find((x) => !overlaps(taken, x.index, x.index + x[0].length) && !boroughElsewhere(q, x.index, x.index + x[0].length, gaz));
    if (!m) continue;
    const end = m.index + m[0].length;
    taken.push({ start: m.index, end });
    // another state in the context: its town of the name, else the borough said as read (place-aliases.ts contextBorough)
    const other = contextBorough(q, m[0], end, area.name, gaz, context.state);
    if (other) readAs.push(other.readAs);
    if (other?.town) found.push({ state: other.town.state, city: other.town.name, at: m.index, end, kind: 'city' });
    else found.push({ state: 'NY', city: 'New York', area, at: m.index, end, kind: 'city' });
  }

  // state aliases and full names, longest first
  const stateNameHits: Found[] = [];
  // the words a bare (or misspelt: typoHits) "Washington" read as the state was written in, said at the end
  let bareWashington: { written: string; typo: boolean; state: boolean } | null = null;
  for (const [name, code, re] of STATE_PATTERNS) {
    re.lastIndex = 0;
    for (const m of lower.matchAll(re)) {
      const s = m.index, e = s + m[0].length;
      if (overlaps(taken, s, e)) continue;
      // "Kansas City", "Oklahoma City", "Iowa City", "Texas City", "Virginia Beach", "New York City": a city, not the state
      const after = lower.slice(e, e + 12);
      // ("Colorado Springs" too: state-city-typo.ts stateStartsCity)
      if (stateStartsCity(q, s, e, gaz)) continue;
      // "Kansas Cty", misspelt: the city, said (state-city-typo.ts)
      const cityTypo = stateCityTypo(q, s, e, gaz);
      if (cityTypo) { taken.push({ start: s, end: cityTypo.end }); found.push({ state: cityTypo.city.state, city: cityTypo.city.name, at: s, end: cityTypo.end, kind: 'city' }); readAs.push(cityTypo.readAs); continue; }
      // "Washington County", "Texas County": a county of the name (county-place.ts findCounty reads it), not the state
      const county = /^\s+(county|parish)\b/.exec(after);
      if (county && gaz.countiesByName?.has(`${m[0].replace(/\s+/g, ' ')} ${county[1]}`)) { taken.push({ start: s, end: e + county[0].length }); continue; }
      // a street named after a state ("1600 Pennsylvania Ave NW"): no state, and no city either
      const street = STREET_AFTER.exec(lower.slice(e));
      // (a house number before it, or any street word but "St", which may be a Saint: "Washington St. Louis"?)
      if (street && (street[1] !== 'st' || /\d\s*$/.test(lower.slice(Math.max(0, s - 8), s)))) { taken.push({ start: s, end: e + street[0].length }); continue; }
      // a town named like a state, followed by its state ("Washington CT", "Washington, Connecticut"): the town
      const town = stateNamedTown(q, s, e, gaz);
      if (town) { taken.push({ start: s, end: e }); found.push({ state: town.state, city: town.name, at: s, end: e, kind: 'city' }); readAs.push(town.readAs); continue; }
      taken.push({ start: s, end: e });
      let st = code;
      if (code === 'WA' && name === 'washington') {
        if (/^\s*,?\s*d\.?\s?c\b/.test(lower.slice(e))) continue; // handled by aliases
        if (context.state === 'DC') { st = 'DC'; notes.push('"Washington" read as Washington, DC (from the context state)'); }
        else {
          notes.push(WASHINGTON_STATE);
          // (said in every answer when it is the state alone: review 23, "median sale price in Washington" never named DC)
          if (!bareWashington && !/^\s+state\b/.test(lower.slice(e)) && !/\bstate\s+of\s+$/.test(lower.slice(0, s))) bareWashington = { written: q.slice(s, e), typo: false, state: false };
        }
      }
      stateNameHits.push({ state: st, at: s, end: e, kind: 'state' });
    }
  }

  // "Mass" (no period: "Mass." is a short form above): massWords in place-words.ts
  for (const m of massWords(q)) if (!overlaps(taken, m.start, m.end)) { taken.push(m); stateNameHits.push({ state: 'MA', at: m.start, end: m.end, kind: 'state' }); }
  // "Wash." "Tex" "Ga" "ILL" "dc", and "Jersey" alone as New Jersey: place-aliases.ts casedStates
  for (const c of casedStates(q, gaz)) if (!overlaps(taken, c.start, c.end)) { taken.push(c); stateNameHits.push({ state: c.code, at: c.start, end: c.end, kind: 'state' }); if (c.readAs) readAs.push(c.readAs); }

  // 2-letter codes (upper case only)
  const toks = tokens(q);
  const codeHits: Found[] = [];
  toks.forEach((t, i) => {
    // a lower-case code after a city of its state ("redmond wa", "greenwich, ct"): place-words.ts lowerCityCode
    const lowerCity = lowerCityCode(q, toks, i, gaz.maxCityWords, (p, c) => !STATE_NAME_SET.has(p) && !COMMON_WORDS.has(p) && (gaz.citiesByName.get(p) ?? citiesByKey(gaz.citiesByName, p))?.some((x) => x.state === c) === true);
    let code = lowerEndCode(q, toks, i) ?? lowerCity ?? lowerPlainCode(t) ?? t.text.replace(/\./g, '');
    if (!/^[A-Z]{2}$/.test(code) || !STATE_CODES.has(code)) return;
    if (t.text.includes('.') && code !== 'DC') return;
    if (overlaps(taken, t.start, t.end)) return;
    const before = q.slice(0, t.start);
    const prev = toks[i - 1];
    const next = toks[i + 1];
    const commaCue = /[A-Za-z.]\s*,\s*$/.test(before);
    const afterCity = prev !== undefined && found.some((f) => f.kind === 'city' && f.end <= t.start && f.end >= prev.start);
    const prepCue = prev !== undefined && PREPOSITIONS.has(prev.lower) && (next === undefined || /^[\s]*([?.!,;)]|$)/.test(q.slice(t.end)) || ['and', 'vs', 'versus', 'or'].includes(next?.lower ?? ''));
    const endCue = END_OK_CODES.has(code) && /^\s*[?.!]?\s*$/.test(q.slice(t.end)) && prev !== undefined && !PREPOSITIONS.has(prev.lower);
    const strongCue = !allCaps && prev !== undefined && STRONG_CUES.has(prev.lower);
    // an upper-case code ending a legal question after its topic ("security deposit cap HI"): place-words.ts topicEndCode
    const topicCue = !allCaps && topicEndCode(q, t, prev);
    const possessive = /^[A-Z]{2}['’]s\b/.test(q.slice(t.start, t.end + 2));
    // the subject of a question about a state: "Is OK a tax deed state?", "Does IN have rent control?"
    const subjectCue = !allCaps && prev !== undefined && SUBJECT_VERBS.has(prev.lower) && next !== undefined && SUBJECT_NEXT.has(next.lower);
    // a city of that state written just before the code ("Lancaster PA", "Portland ME", "Columbus IN"), or a close
    // misspelling of one ("Pittsburg PA"): the code is its state, whatever English word it also spells
    const cityCue = (!allCaps && cityBefore(q, toks, i, code, gaz)) || lowerCity !== null;
    const listCue = next !== undefined && ['and', 'vs', 'versus'].includes(next.lower) && toks[i + 2] !== undefined && STATE_CODES.has(toks[i + 2]!.text);
    if (AMBIGUOUS_CODES.has(code) || allCaps) {
      if (!(commaCue || afterCity || cityCue || prepCue || listCue || endCue || topicCue || strongCue || possessive || subjectCue)) return;
    }
    if (code === 'LA' && !commaCue && !afterCity && !cityCue) return; // "LA" alone is Los Angeles (aliases above)
    if (!commaCue && !afterCity && !cityCue && compassCode(q, t)) return; // "NE Portland": northeast, not Nebraska (hood-compass.ts)
    if (code === 'DC') code = 'DC';
    taken.push({ start: t.start, end: t.end });
    codeHits.push({ state: code, at: t.start, end: t.end, kind: 'state' });
  });

  // cities: n-grams over the tokens, longest first
  // misspelled state names ("Pensylvania", "New Mexcio"), not where an exact city or state name stands
  const stateTypos = new Map<string, string>();
  const squash = (x: string): string => x.toLowerCase().replace(/[^a-z]/g, '');
  const typoHits: Found[] = findStateTypos(q, toks, taken, (phrase) => STATE_NAME_SET.has(phrase) || gaz.citiesByName.has(phrase) || citiesByKey(gaz.citiesByName, phrase) !== undefined)
    .flatMap((t): Found[] => {
      taken.push({ start: t.start, end: t.end });
      // a misspelt "Washington" before "DC" is the District's name, read by its code ("Washingtn DC": not Washington State too)
      if (t.code === 'WA' && /^\s*,?\s*d\.?\s?c\b/i.test(q.slice(t.end))) return [];
      // a misspelt "Washington" is said as the bare one is ("Washingtn": review 24, read as the state unsaid)
      if (t.code === 'WA' && !bareWashington && context.state !== 'DC') bareWashington = { written: t.written, typo: true, state: /^\s+state\b/i.test(q.slice(t.end)) };
      // any other misspelt state is said too, as a misspelt city is ("Misissippi" was read as Mississippi unsaid)
      else if (t.code !== 'WA' && squash(t.written) !== squash(stateNameOf(t.code))) stateTypos.set(t.code, `"${t.written}" as ${stateNameOf(t.code)} (the closest state name)`);
      return [{ state: t.code, at: t.start, end: t.end, kind: 'state' }];
    });
  const stateHits = [...stateNameHits, ...codeHits, ...typoHits];
  const namedStates = new Set(stateHits.map((s) => s.state));
  if (context.state) namedStates.add(context.state);
  // states a question implies by a city it names (a nickname or borough: "Philly vs Pittsburg")
  const implied = new Set([...namedStates, ...found.filter((f) => f.kind === 'city').map((f) => f.state)]);
  // a former Connecticut county ("Fairfield County CT"): its towns, added after the neighbourhoods (county-place.ts)
  const former = formerCountiesIn(q, gaz, namedStates, (s, e) => !overlaps(taken, s, e));
  for (const f of former) { taken.push({ start: f.start, end: f.end }); readAs.push(f.readAs); if (f.note) notes.push(f.note); }
  // municipalities of the foreclosure and lien filings no Census place is named ("Penn Hills", "Mt. Lebanon"), said as read
  for (const f of filingPlacesIn(q, toks, taken, gaz, stateHits, namedStates, allCaps)) {
    taken.push({ start: f.start, end: f.end });
    found.push({ state: f.place.state, city: f.place.name, at: f.start, end: f.end, kind: 'city' });
    if (f.readAs) readAs.push(f.readAs);
  }
  // a well-known neighbourhood of a city whose sources name none ("Fishtown", "LoDo Denver"): the city, said (hood-cities.ts)
  for (const h of knownHoods(q, taken)) { taken.push(h); found.push({ state: h.state, city: h.city, at: h.start, end: h.end, kind: 'city' }); readAs.push(h.readAs); }
  // one named alone ("Ballard home prices"): its city as a whole, said, or asked which city ("Capitol Hill"): hood-alone.ts
  for (const h of loneHoods(q, taken, gaz, namedStates)) {
    taken.push(h);
    if (h.unknown) unknown.push(h.unknown);
    else { found.push({ state: h.state!, city: h.city!, at: h.start, end: h.end, kind: 'city' }); readAs.push(h.readAs!); }
  }
  // a region named like a town ("Long Island"): asked back, never Long Island, KS (place-regions.ts)
  // (its state written after it, "Long Island NY", is its own: no place of the question)
  for (const r of regionsAsked(q, taken, gaz, namedStates, stateAt)) {
    taken.push(r);
    unknown.push(r.unknown);
    for (let i = stateHits.length - 1; i >= 0; i--) if (stateHits[i]!.at >= r.start && stateHits[i]!.at < r.end) stateHits.splice(i, 1);
  }
  for (let i = 0; i < toks.length; i++) {
    for (let n = Math.min(gaz.maxCityWords, toks.length - i); n >= 1; n--) {
      const first = toks[i]!, last = toks[i + n - 1]!;
      if (overlaps(taken, first.start, last.end)) continue;
      let phrase = toks.slice(i, i + n).map((t) => t.lower).join(' ');
      // a city written possessively ("Chicago's Logan Square", "Seattle's median price"): the city
      if (/['’]s$/.test(phrase) && !gaz.citiesByName.has(phrase) && !citiesByKey(gaz.citiesByName, phrase)) phrase = phrase.slice(0, -2);
      // a consolidated Census name ("Nashville-Davidson", "Lexington-Fayette") that is no city itself: its first part
      const head = n === 1 && /^[A-Z][a-z]+-[A-Z]/.test(first.text) ? first.lower.split('-')[0]! : null;
      // a county's hyphenated name written alone ("Miami-Dade", "Miami Dade", capitalised): the county (county-place.ts)
      if (n <= 2 && !allCaps && cap(first.text) && cap(last.text) && !/^County$/i.test(toks[i + n]?.text ?? '') && bareCountyKey(phrase, gaz)) { taken.push({ start: first.start, end: last.end }); i += n - 1; break; }
      const cands = gaz.citiesByName.get(phrase) ?? citiesByKey(gaz.citiesByName, phrase) ?? (head ? gaz.citiesByName.get(head) : undefined);
      if (!cands || cands.length === 0) continue;
      // a month name next to a year ("sales 2014 May, Texas", "may of 2014"): the month (years.ts), never May, TX
      if (STATE_NAME_SET.has(phrase) || (n === 1 && monthByYear(q, first.start, first.end))) continue;
      // "Cook County", "Palm Beach County", "Orleans Parish": a county named like a town is not that town
      // "King Co WA", "allegheny co": Co abbreviates County after a county's name (coIsCounty)
      const nextTok = toks[i + n];
      // ("Elizabeth borough, PA" is the borough: a place of the name in a state named, and no county of it)
      const countyWord = nextTok?.lower.replace(/['’]s$/, '');
      const placeBorough = countyWord === 'borough' && cands.some((c) => namedStates.has(c.state)) && !gaz.countiesByName?.has(`${phrase} borough`);
      if (nextTok && ((COUNTY_WORDS.has(countyWord!) && !placeBorough) || coIsCounty(phrase, nextTok.text, gaz))) { taken.push({ start: first.start, end: nextTok.end }); i += n; break; }
      const words = toks.slice(i, i + n);
      // (a particle joined to a capitalised word counts as capitalised: "Coeur d'Alene", "Coeur dAlene")
      const capital = !allCaps && words.every((w) => cap(w.text) || /^(of|the|de|la|del|on|upon)$/.test(w.lower) || /^[a-z]'?[A-Z]/.test(w.text));
      // an adjacent state: "Portland, OR", "Portland Oregon", "Springfield, Illinois" ("Elizabeth borough, PA" too)
      const adj = stateHits.find((s) => s.at >= last.end && (placeBorough ? /^\s*(borough\b)?[\s,]*$/i : /^[\s,]*$/).test(q.slice(last.end, s.at)));
      const biggest = cands[0]!;
      const common = COMMON_WORDS.has(phrase) || phrase.length <= 2;
      let ok: boolean;
      if (adj) ok = cands.some((c) => c.state === adj.state) && (capital || !common);
      // (a town name that is also a person's, just after "in", "near"...: its most populous namesake, said as read)
      // (a town's name that is a word, "in Mobile", "Fairview sales": the town, never "mobile homes", "Independence Day")
      else if (common) ok = capital && ((!(n === 1 && sentenceStart(q, first.start)) && cands.some((c) => namedStates.has(c.state))) || namesakeAfterCue(q, phrase, first.start, last.end) || namesakeSubject(q, phrase, first.start, last.end));
      // a single capitalised word starting the question: a town of 10,000 or more ("Greenwich home prices") or with sales
      else if (capital) ok = n > 1 || !sentenceStart(q, first.start) || biggest.population >= 10_000 || soldTown(toks, i, n, cands, gaz);
      // (in lower case: a city of 100,000 or more, a town named by a direction and a city, "west hartford", or a town
      // with sales, "new canaan": place-aliases.ts)
      // (or a town a source covers next to a topic word, "mckeesport foreclosures": live/places/question.ts uncuedTown)
      else ok = (biggest.population >= 100_000 && phrase.length > 3) || directionalTown(words, cands, gaz) || soldTown(toks, i, n, cands, gaz)
        || (uncuedTown(toks, i, n) && (coveredTown(gaz, biggest.state, biggest.name) || filedNamesake(q, cands, biggest, gaz) !== null));
      if (!ok) continue;
      // a state named elsewhere pulls the name to its namesake there, unless that is a small place and the name a
      // large city's ("New York ... Philadelphia": not Philadelphia, NY, 803 people): place-share.ts
      const first_ = (adj ? cands.find((c) => c.state === adj.state) : undefined)
        ?? cands.find((c) => namedStates.has(c.state) && !dwarfedNamesake(c, biggest, gaz)) ?? biggest;
      // a sales question: the only namesake with sales when the most populous has none ("Darien": Darien, CT; place-share.ts)
      const sold = first_ === biggest && !adj ? soldNamesake(q, cands, biggest, gaz) : null;
      // (a filings question: the only namesake the foreclosure and lien filings name, "baldwin foreclosures": Baldwin, PA)
      const filed = first_ === biggest && !adj && !sold ? filedNamesake(q, cands, biggest, gaz) : null;
      const pick = sold ?? filed ?? first_;
      // a typo of a larger city of a state named (or implied by a city) elsewhere beats an exact namesake in another
      // state ("Pennsylvania vs Pittsburg" is Pittsburgh, PA), said as read
      const near = adj || namedStates.has(pick.state) ? null : nearNamedCity(gaz.citiesByName, phrase, implied, pick.population);
      if (near) {
        readAs.push(`"${q.slice(first.start, last.end)}" as ${near.name}, ${near.state} (the closest city name in a state the question names; ${pick.name}, ${pick.state} is another state's)`);
        taken.push({ start: first.start, end: last.end });
        found.push({ state: near.state, city: near.name, at: first.start, end: last.end, kind: 'city' });
        i += n - 1;
        break;
      }
      // no state said it and another state has a namesake of some size (5% of its population or more): the answer says
      // which it read ("Portland" as Portland, OR, not Portland, ME; "Houston" needs no note)
      const most = pick === biggest && !adj && !namedStates.has(pick.state) ? mostPopulousReading(q.slice(first.start, last.end), pick, cands) : null;
      if (filed) readAs.push(`"${q.slice(first.start, last.end)}" as ${filed.name}, ${filed.state} (the only one of ${cands.length} US places of that name the foreclosure and lien filings name; the most populous, ${biggest.name}, ${biggest.state}, has none; name the state for another)`);
      else if (sold) readAs.push(`"${q.slice(first.start, last.end)}" as ${sold.name}, ${sold.state} (the only one of ${cands.length} US places of that name with recorded sales; the most populous, ${biggest.name}, ${biggest.state}, has none; name the state for another)`);
      else if (most) readAs.push(most);
      else if (common && isTownWord(phrase) && !adj && !namedStates.has(pick.state)) {
        readAs.push(`"${q.slice(first.start, last.end)}" as the town ${pick.name}, ${pick.state} (${cands.length > 1 ? `the most populous of ${cands.length} US places of that name` : 'the only US place of that name'}; name the state for another)`);
      } else if (context.state && pick.state !== context.state && !stateHits.some((s) => s.state === pick.state)) {
        // the context's state has no place of that name (or only a small one): the one read is said, never silently another state's
        const small = cands.find((c) => c.state === context.state);
        readAs.push(`"${q.slice(first.start, last.end)}" as ${pick.name}, ${pick.state} (${small ? `not ${small.name}, ${small.state}, a place of ${small.population.toLocaleString('en-US')} people in` : 'no place of that name in'} ${context.state}, the context's state)`);
      }
      taken.push({ start: first.start, end: last.end });
      // read freely (no state next to it or named elsewhere): it may share the state of the places named with it
      const free = pick === biggest && !adj && !namedStates.has(pick.state);
      found.push({ state: pick.state, city: pick.name, at: first.start, end: last.end, kind: 'city', ...(free ? { free: cands } : {}) });
      i += n - 1;
      break;
    }
  }

  // lower-case towns of a state the question names or a city it names implies ("greenwich ... than stamford")
  // a town read at a span: taken, found, and said as read when `why` is given
  const takeTown = (t: { city: City; start: number; end: number; written?: string }, why?: string): void => {
    taken.push({ start: t.start, end: t.end });
    found.push({ state: t.city.state, city: t.city.name, at: t.start, end: t.end, kind: 'city' });
    if (why) readAs.push(`"${t.written}" as ${t.city.name}, ${t.city.state} (${why})`);
  };
  const foundStates = new Set([...namedStates, ...found.filter((f) => f.kind === 'city').map((f) => f.state)]);
  for (const c of lowerCitiesOfNamedStates(toks, taken, gaz, foundStates)) takeTown(c);

  // misspelled city names ("comps in Seatle"): said in the answer as read ("Seatle" as Seattle, WA)
  // (and with no state named, which of its namesakes, as for the name written right: "Portlnd" as Portland, OR (the
  // closest city name; the most populous of 12 ...): namesake-read.ts)
  for (const t of findCityTypos(q, toks, taken, gaz.citiesByName, namedStates)) {
    const namesake = namedStates.size ? null : namesakeClause(t.city, gaz.citiesByName.get(t.city.name.toLowerCase()) ?? []);
    takeTown(t, `the closest city name${namesake ? `; ${namesake}` : ''}`);
  }
  // with no state named, a misspelt town the build has sales of, under the typo rule's 100,000 people ("Kirkand":
  // Kirkland, WA): place-prefer.ts soldTypos
  if (namedStates.size === 0) for (const t of soldTypos(q, toks, taken, gaz)) takeTown(t, 'the closest name of a town with recorded sales');

  // cities named together with no state share the state of the others ("Greenwich vs Stamford vs Norwalk"): place-share.ts
  shareStates(q, found, gaz, readAs);

  // a neighbourhood its sales source names, named alone ("median price in Astoria") or just before its own borough
  // ("williamsburg brooklyn"): hood-places.ts
  found.sort((a, b) => a.at - b.at);
  const alone = hoodsNamed(q, toks, taken, found, gaz, namedStates, (st, city) => gaz.hasSales?.(st, city) ?? false, stateHits);
  for (const i of alone.drop.sort((a, b) => b - a)) found.splice(i, 1);
  // a state read in a neighbourhood's words ("Washington Heights") is none; the neighbourhood's words are a place's
  for (const i of [...alone.states].sort((a, b) => b - a)) stateHits.splice(i, 1);
  for (const a of alone.add) taken.push({ start: a.at, end: a.end });
  for (let i = readAs.length - 1; i >= 0; i--) if (alone.dropped.some((d) => readAs[i]!.startsWith(d))) readAs.splice(i, 1);
  found.push(...alone.add);
  readAs.push(...alone.readAs);
  // a town kept over a neighbourhood of its name: the reading of the town says which neighbourhood it is not
  for (const k of alone.namesakes) {
    const at = readAs.findIndex((r) => r.startsWith(`"${k.text}" as `));
    const town = found.find((f) => f.kind === 'city' && !f.hood && q.slice(f.at, f.end) === k.text);
    if (at >= 0) readAs[at] = `${readAs[at]}, ${k.note}`;
    else if (town) readAs.push(`"${k.text}" as ${town.city}, ${town.state}, ${k.note}`);
  }
  // a city ruled out ("not Seattle"), a neighbourhood after its city ("Chicago's Logan Square"), a town read in a
  // neighbourhood's name before its city ("Logan Square Chicago"): hood-cities.ts
  found.sort((a, b) => a.at - b.at);
  applyDrops(found, readAs, hoodsOfCities(q, toks, found));
  // another neighbourhood named with its city or borough ("Capitol Hill Seattle"): the city's as a whole
  const hoods = neighbourhoods(q, toks, found.map((f) => (f.hood ? { ...f, kind: 'zip' as const } : f)), gaz);
  for (const i of hoods.drop.sort((a, b) => b - a)) found.splice(i, 1);
  for (let i = readAs.length - 1; i >= 0; i--) if (hoods.dropped.some((d) => readAs[i]!.startsWith(d))) readAs.splice(i, 1);
  readAs.push(...hoods.readAs);
  const lone = loneHood(q, toks, taken, found, readAs);
  if (lone) readAs.push(lone);

  for (const f of former) for (const city of f.towns) found.push({ state: f.state, city, at: f.start, end: f.end, kind: 'city' });
  // a word of a place's name read as a second place ("Vashon Island", "Inglewood nashville 37216"): name-parts.ts
  dropNameParts(q, found, stateHits, readAs);
  // a village no sales source names ("Cos Cob", "Niantic CT"): the zip mailed under its name, said (village-zips.ts)
  readVillages(q, found, gaz, readAs);
  // a zip written next to a city or borough it is not in ("37206 Memphis"): the zip, said (zip-clash.ts)
  zipCityClash(q, found, stateHits, gaz, readAs);
  // a state named next to (or anywhere with) one of its cities qualifies the city: not a place of its own
  const cityStates = new Set(found.filter((f) => f.kind !== 'state').map((f) => f.state));
  for (const s of stateHits) if (!cityStates.has(s.state)) found.push(s);
  // a city named with one of its own zips ("Nashville 37206") qualifies the zip: one place, not a comparison
  const zipCities = new Set(found.filter((f) => f.kind === 'zip' && f.city).map((f) => `${f.state}|${f.city!.toLowerCase()}`));
  for (let i = found.length - 1; i >= 0; i--) {
    const f = found[i]!;
    if (f.kind === 'city' && zipCities.has(`${f.state}|${f.city!.toLowerCase()}`)) found.splice(i, 1);
    // a borough named with one of its zips ("Brooklyn 11215"): the zip
    else if (f.area && found.some((z) => z.kind === 'zip' && gaz.zips.get(z.zip!)?.county_fips === f.area!.county_fips)) found.splice(i, 1);
  }
  found.sort((a, b) => a.at - b.at);
  // a part of a city named by a compass word ("East Nashville", "South Philly"): the city as a whole, said (hood-compass.ts)
  taken.push(...compassParts(q, toks, taken, found, readAs));

  const targets: Target[] = [];
  if (foreign) { found.length = 0; readAs.length = 0; }
  const seen = new Set<string>();
  for (const f of found) {
    const key = `${f.state}|${f.city ?? ''}|${f.zip ?? ''}|${f.area?.name ?? ''}|${f.hood?.key ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    targets.push({ state: f.state, ...(f.city ? { city: f.city } : {}), ...(f.zip ? { zip: f.zip } : {}), ...(f.area ? { area: f.area } : {}), ...(f.hood ? { hood: f.hood } : {}), from: 'query' });
  }

  // "which borough is cheapest": New York City's five boroughs (place-aliases.ts everyBorough)
  const group = everyBorough(q, targets);
  if (group) { targets.splice(0, targets.length, ...group.targets); readAs.push(group.readAs); }
  // context fills in when the question names no place (context-place.ts)
  if (targets.length === 0) contextTargets(context, gaz, targets, unknown, readAs);
  else contextCompared(q, context, gaz, targets, readAs); // "compare with Kirkland": the context's place beside it

  // "Washington" read as the state alone: said first, not only in deep answers (DC is the other reading)
  if (bareWashington && targets.some((t) => t.state === 'WA' && !t.city && !t.zip && t.from === 'query')) {
    if (notes.includes(WASHINGTON_STATE)) notes.splice(notes.indexOf(WASHINGTON_STATE), 1);
    readAs.unshift(washingtonReading(bareWashington.written, bareWashington.typo, bareWashington.state));
  }
  for (const [code, said] of stateTypos) if (targets.some((t) => t.state === code)) readAs.push(said);
  onceEach(readAs);

  // the text left for full-text retrieval: place names out
  let topicText = '';
  let last = 0;
  for (const s of [...taken].sort((a, b) => a.start - b.start)) { if (s.start >= last) { topicText += q.slice(last, s.start) + ' '; last = s.end; } }
  topicText += q.slice(last);

  return { targets, unknown, notes, readAs, topicText };
}
