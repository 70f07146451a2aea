// Neighbourhoods a research question may name alone ("median price in Astoria", "Williamsburg home prices"): the ones
// a source names for its own sales (int_market_neighborhoods: NYC's Department of Finance NEIGHBORHOOD column), so the
// answer reads the neighbourhood's own sales and its zips, never a guessed boundary (warehouse/docs/research.md
// "Neighbourhoods"). Pure: the name rule (hoodKeys) the build (live/research/build.ts) writes the names asked by.

/** A neighbourhood of the build: its name as asked (lower case), as the source writes it, the city part it lies in,
 *  its zips (those holding at least ZIP_SHARE of its sales, most first) and its sales. */
export interface Hood { key: string; names: string[]; state: string; city: string; part: string; zips: string[]; sales: number }

/** A zip holds a neighbourhood when at least this share of its sales lie in it (Astoria: 11105, 11106, 11103 and 11102
 *  hold 2,393 of its 2,443 sales; 11377, 11101 and 11370 the other 50). */
export const ZIP_SHARE = 0.05;

/** A neighbourhood's name in an answer: its name asked, in title case ("Upper East Side"). */
export const hoodName = (h: Pick<Hood, 'key'>): string => h.key.replace(/(^|[\s-])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());

/** DOF names that name no neighbourhood anyone would ask by ("DOWNTOWN-FULTON MALL" reads "downtown"). */
const GENERIC = new Set(['downtown', 'financial', 'fashion', 'civic center', 'javits center', 'midtown cbd']);

/** A part of a neighbourhood the source writes after its name ("WASHINGTON HEIGHTS UPPER", "HARLEM-EAST",
 *  "MIDTOWN CBD"), and the words of it asked first ("East Harlem", "Upper Washington Heights"; not "CBD"). */
const SIDE = /^(.{4,}?)(-| )(lower|upper|east|west|north|south|central|cbd)$/;
const SIDE_FIRST = new Set(['lower', 'upper', 'east', 'west', 'north', 'south', 'central']);

/** Well-known names of a neighbourhood the source writes otherwise, each to the source's name (taken only when the
 *  build's source writes that name): Spanish Harlem and El Barrio are East Harlem, DOF's HARLEM-EAST; the West
 *  Village is DOF's GREENWICH VILLAGE-WEST. */
const KNOWN_AS: Readonly<Record<string, string>> = { 'spanish harlem': 'HARLEM-EAST', 'el barrio': 'HARLEM-EAST', 'west village': 'GREENWICH VILLAGE-WEST' };

/** A written name in lower case without a range in brackets ("UPPER EAST SIDE (59-79)"). */
const plain = (written: string): string => written.toLowerCase().replace(/\s*\([^)]*\)\s*$/, '').trim();
const askable = (p: string): boolean => p.length >= 4 && !GENERIC.has(p) && /^[a-z][a-z .'-]*[a-z]$/.test(p);

/** The names each of a source's neighbourhood names (all of one source) is asked by: lower case, a range in brackets
 *  dropped ("UPPER EAST SIDE (59-79)"), each side of a slash ("BEDFORD PARK/NORWOOD"). A part written after the name
 *  ("WILLIAMSBURG-NORTH", "WASHINGTON HEIGHTS UPPER", not "CO-OP CITY") is asked by the name alone too, so the parts
 *  are summed, unless the name has a row of its own: then the name keeps its own sales and the part is asked by its
 *  words ("PARK SLOPE SOUTH" is "park slope south", never "park slope"; "NEW DORP-BEACH" is "new dorp beach"). A side
 *  is asked first too ("HARLEM-EAST": "east harlem"), and a well-known name by KNOWN_AS. A second neighbourhood of
 *  two words or more after a hyphen is asked alone too ("NEW BRIGHTON-ST. GEORGE": "st. george", "st george"). */
export function hoodKeys(written: readonly string[]): Map<string, string[]> {
  const own = new Set(written.flatMap((w) => plain(w).split('/').map((p) => p.trim())));
  const out = new Map<string, string[]>();
  for (const w of new Set(written)) {
    const keys: string[] = [];
    for (const p of plain(w).split('/').map((x) => x.trim())) {
      const side = SIDE.exec(p);
      const hyphen = side ? null : /^([a-z .']{4,}?)-([a-z .' ]+)$/.exec(p);
      const [base, sep, part] = side ? [side[1]!, side[2]!, side[3]!] : hyphen ? [hyphen[1]!.trim(), '-', hyphen[2]!.trim()] : [p, '', ''];
      if (!part) { keys.push(p); continue; }
      if (!own.has(base)) keys.push(base);
      // the part's own words: a name written with a space ("MIDTOWN EAST"), or a part of a name with a row of its own
      if (sep === ' ' || own.has(base)) keys.push(`${base} ${part}`);
      // a second neighbourhood after the hyphen ("NEW BRIGHTON-ST. GEORGE", "ARROCHAR-SHORE ACRES"): asked alone too, by
      // its words with and without their periods ("st. george", "st george"), where it is two words or more and no name
      // of its own (a one-word part, "BEACH", "HEIGHTS", "COLONY", "CLIFTON", is a common word or another town's name)
      if (sep === '-' && !side && /\s/.test(part) && !own.has(part)) keys.push(part, part.replace(/\./g, ''));
      if (side && SIDE_FIRST.has(part) && !own.has(`${part} ${base}`)) keys.push(`${part} ${base}`);
    }
    for (const [known, name] of Object.entries(KNOWN_AS)) if (name === w) keys.push(known);
    out.set(w, [...new Set(keys.filter(askable))]);
  }
  return out;
}

/** One neighbourhood per name asked: rows (written name, state, city, city part, zip, sales) grouped by name; a name in
 *  two city parts (SUNNYSIDE: Queens and Staten Island) is no one neighbourhood and is left out. */
export function groupHoods(rows: readonly { n: string; s: string; c: string; p: string; z: string | null; k: number }[]): Hood[] {
  const by = new Map<string, { names: Set<string>; state: string; city: string; parts: Set<string>; zips: Map<string, number>; sales: number }>();
  const keys = hoodKeys(rows.map((r) => r.n));
  for (const r of rows) {
    for (const key of keys.get(r.n) ?? []) {
      const h = by.get(`${r.s}|${key}`) ?? { names: new Set<string>(), state: r.s, city: r.c, parts: new Set<string>(), zips: new Map<string, number>(), sales: 0 };
      h.names.add(r.n); h.parts.add(r.p); h.sales += r.k;
      if (r.z) h.zips.set(r.z, (h.zips.get(r.z) ?? 0) + r.k);
      by.set(`${r.s}|${key}`, h);
    }
  }
  const out: Hood[] = [];
  for (const [k, h] of by) {
    if (h.parts.size !== 1) continue;
    const zips = [...h.zips].filter(([, n]) => n >= ZIP_SHARE * h.sales).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([z]) => z);
    out.push({ key: k.slice(k.indexOf('|') + 1), names: [...h.names].sort(), state: h.state, city: h.city, part: [...h.parts][0]!, zips, sales: h.sales });
  }
  return out.sort((a, b) => a.key.localeCompare(b.key) || a.state.localeCompare(b.state));
}
