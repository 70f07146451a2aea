// City nicknames in common use that no Census name carries ("Philly", "NYC", "Music City"), the one hand list of the
// resolver (typed city names: geo lookup, market `city=`, a typed address's place, autocomplete) and the research
// question parser (live/research/place-words.ts CITY_ALIASES). Rules: warehouse/docs/places.md.
import { placeKey } from './names.ts';

/** One city nickname: the city (its name in the place table) and state, the forms a typed city name is read by (by
 *  key, so in any case, with or without dots: geo lookup and market `city=`, a typed address's place, autocomplete), and
 *  how a research question's text reads it (its case and context rules: "LA" only in capitals and not after a comma,
 *  "S.F." not as a unit, "KC" followed by Kansas is the Kansas one); null where research reads the name as a state. */
export interface CityNickname { city: string; state: string; forms: readonly string[]; inQuestions: RegExp | null }

/**
 * Nicknames in common use that no Census name carries, the one hand list of both readers: the resolver (every other
 * alias comes from the data) and the research question parser (live/research/place-words.ts CITY_ALIASES, in this
 * order: "KCK" and "KC, KS" are read before "KC" alone). Each nickname names its city in its own state only.
 */
export const CITY_NICKNAMES: readonly CityNickname[] = [
  { city: 'New York', state: 'NY', forms: ['NYC', 'N.Y.C.', 'New York City', 'Big Apple'], inQuestions: /\bnew york city\b|\bnyc\b|\bN\.Y\.C\b\.?|\b(?:the )?(?:five|5) boroughs\b|\bbig apple\b|\bny,?\s+ny\b/i },
  // "LA" is also Louisiana's code: said as read (research places.ts), and not after a Louisiana city ("New Orleans LA")
  { city: 'Los Angeles', state: 'CA', forms: ['LA', 'L.A.'], inQuestions: /\bLA\b(?!,)|\bL\.A\.?(?![A-Za-z])|\blos angeles\b/ },
  // "S.F." with its dots, not a unit ("per s.f.", "$/s.f.")
  { city: 'San Francisco', state: 'CA', forms: ['SF', 'S.F.', 'San Fran'], inQuestions: /\bSF\b|(?<!\bper\s+|\/\s*)\bS\.F\.(?![A-Za-z])|\bsan fran(?:cisco)?\b/i },
  { city: 'Philadelphia', state: 'PA', forms: ['Philly', 'Phila', 'Phila.', 'City of Brotherly Love'], inQuestions: /\bphilly\b|\bphila\b\.?|\bcity of brotherly love\b/i },
  { city: 'Pittsburgh', state: 'PA', forms: ['Pgh', 'Steel City'], inQuestions: /\bpgh\b|\bsteel city\b/i },
  // "KC" (or "kc", review 27) in questions: Kansas City, MO, said as read (research places.ts), unless Kansas follows ("KC, KS"); typed, the state's
  { city: 'Kansas City', state: 'KS', forms: ['KCK', 'KC'], inQuestions: /\b(?:KCK|kck)\b|\b(?:KC|kc)(?=,?\s*(?:KS|ks|Kansas|kansas)\b)/ },
  { city: 'Kansas City', state: 'MO', forms: ['KC', 'KCMO'], inQuestions: /\b(?:KCMO|[Kk]cmo|KC|kc)\b/ },
  { city: 'St. Petersburg', state: 'FL', forms: ['St Pete'], inQuestions: /\bst\.? pete\b(?! beach)/i },
  // not "Las Vegas" (a New Mexico one too) or North Las Vegas in questions: the gazetteer reads those
  { city: 'Las Vegas', state: 'NV', forms: ['Vegas', 'Sin City'], inQuestions: /(?<!\blas\s+)\bvegas\b|\bsin city\b/i },
  { city: 'Phoenix', state: 'AZ', forms: ['Phx'], inQuestions: /\bphx\b/i },
  // "sac" is also a word: in questions after a place word only ("median price in sac"), never "Sac City" or "Sac County"
  // (Iowa), or capitalised ending the question ("median sale price Sac"); typed, only "Sacto" ("sac" is a word)
  { city: 'Sacramento', state: 'CA', forms: ['Sacto', 'Sactown'], inQuestions: /\bsacto\b|\bsactown\b|(?<=\b(?:in|near|around|from|vs\.?|versus|between|than|and)\s+)sac\b(?!\s+(?:city|county)\b)/i },
  { city: 'Sacramento', state: 'CA', forms: [], inQuestions: /\bSac(?=\s*[?.!]?\s*$)/ },
  { city: 'New Orleans', state: 'LA', forms: ['NOLA', 'Big Easy'], inQuestions: /\bnola\b|\bbig easy\b/i },
  // the nicknames people write for the cities of the build's markets and the largest others: whole phrases only
  { city: 'St. Louis', state: 'MO', forms: ['The Lou', 'STL'], inQuestions: /\bthe lou\b|\bSTL\b/i },
  { city: 'Nashville', state: 'TN', forms: ['Nashvegas', 'Music City'], inQuestions: /\bnashvegas\b|\bmusic city\b/i },
  { city: 'Louisville', state: 'KY', forms: ['Derby City'], inQuestions: /\bderby city\b/i },
  // the airport city's common spellings: the Census name is "SeaTac", typed "seatac" or "sea-tac" with no state (h74ask)
  { city: 'SeaTac', state: 'WA', forms: ['Sea-Tac', 'Sea Tac'], inQuestions: /\bsea-?tac\b|\bsea tac\b/i },
  { city: 'Chicago', state: 'IL', forms: ['Chi-town', 'Chitown', 'Windy City'], inQuestions: /\bchi-?town\b|\bwindy city\b/i },
  { city: 'Detroit', state: 'MI', forms: ['Motor City', 'Motown'], inQuestions: /\bmotor city\b|\bmotown\b/i },
  { city: 'Boston', state: 'MA', forms: ['Beantown'], inQuestions: /\bbeantown\b/i },
  { city: 'Denver', state: 'CO', forms: ['Mile High City'], inQuestions: /\bmile high city\b/i },
  { city: 'Seattle', state: 'WA', forms: ['Emerald City'], inQuestions: /\bemerald city\b/i },
  { city: 'Houston', state: 'TX', forms: ['H-Town'], inQuestions: /\bh-town\b/i },
  { city: 'Baltimore', state: 'MD', forms: ['Bmore', 'B-more', 'Charm City'], inQuestions: /\bb-?more\b|\bcharm city\b/i },
  { city: 'Cincinnati', state: 'OH', forms: ['Cincy'], inQuestions: /\bcincy\b/i },
  // short forms that are also words or other names: in questions in capitals only ("Indy" as written)
  { city: 'Indianapolis', state: 'IN', forms: ['Indy'], inQuestions: /\bIndy\b/ },
  { city: 'Oklahoma City', state: 'OK', forms: ['OKC'], inQuestions: /\bOKC\b/ },
  { city: 'Atlanta', state: 'GA', forms: ['ATL', 'Hotlanta'], inQuestions: /\bATL\b|\b[Hh]otlanta\b/ },
  { city: 'Albuquerque', state: 'NM', forms: ['ABQ', 'Burque'], inQuestions: /\bABQ\b|\bburque\b/i },
  { city: 'Salt Lake City', state: 'UT', forms: ['SLC'], inQuestions: /\bSLC\b/ },
  // the District's one city, Washington, as people name it (GET /v1/geo/lookup?city=DC&state=DC); research reads these
  // as the District, a state (live/research/place-words.ts STATE_ALIASES)
  { city: 'Washington', state: 'DC', forms: ['DC', 'Washington DC', 'District of Columbia'], inQuestions: null },
];

/** The nicknames by key as the resolver reads them: [key, state, city]. */
export const NICKNAMES: readonly [key: string, state: string, city: string][] = CITY_NICKNAMES
  .flatMap((n) => n.forms.map((f): [string, string, string] => [placeKey(f), n.state, n.city]));
