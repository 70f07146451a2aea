// A street line written in a question ("2926 ridge ave", "7921 Doe Trail Way", "711 Greenwood Avenue"): its house
// number, street words and suffix (pure, no imports), read by addresses.ts (the address's zip), address-value.ts (its
// value asked) and place-aliases.ts (a house number is not a zip).
/** "60614 a good place (to invest)": a place judged, no street named Place (h67ask: read as an address not found). */
const JUDGED = "(?!\\s+(?:a|an|the)\\s+(?:[a-z]+\\s+)?(?:good|great|nice|bad|safe|smart|better|best|decent|cheap|solid|top)\\s+(?:pl|place)\\b)";
/** A house number, up to four street words and a street suffix (and a direction after it). */
const WORD = "(?!(?:in|of|for|near|around|and|or|the|at|to|from|million|thousand|k|bedrooms?|beds?|baths?|sq|sqft|homes?|houses?|sales?|years?|months?|days?|zips?)\\b)[a-z0-9']+";
export const ADDRESS = new RegExp(`(?<![$\\d,.])\\b(\\d{1,6})${JUDGED}\\s+((?:[nsew]\\.?\\s+)?(?:${WORD}\\s+){0,3}?${WORD})\\s+(st|street|ave|avenue|av|way|wy|rd|road|blvd|boulevard|dr|drive|ln|lane|pl|place|ct|court|ter|terrace|pkwy|parkway|hwy|highway|cir|circle|sq|square)\\b\\.?(?:\\s+(n|s|e|w|ne|nw|se|sw)\\b)?`, 'i');

/** A measure after a number, never a street ("98103 per square foot", "98103 over 2,000 sq ft"): the ADDRESS suffix
 *  "sq" or "square" followed by a unit. */
const MEASURE = /^\s*(?:ft|feet|foot|footage|meters?|metres?|m|mi|miles?)\b/i;

/** Whether the number at `at` of `q` starts a street line: the number, street words and a street suffix (ADDRESS, a
 *  direction after it: "12345 NE 80th St", "10001 Lake City Way NE"). Such a number is a house number, never a zip,
 *  even where five digits are a zip elsewhere ("19149 Main St": 19149 is also a Philadelphia zip); a zip is five digits
 *  that start no street line. The one rule every reader of a zip in a question keeps (places.ts, state-clash.ts,
 *  area-towns.ts, place-aliases.ts houseNumber). */
export function startsStreetLine(q: string, at: number): boolean {
  const line = new RegExp(ADDRESS.source, 'iy');
  line.lastIndex = at;
  const m = line.exec(q);
  if (!m) return false;
  return !(/^(?:sq|square)$/i.test(m[3]!) && MEASURE.test(q.slice(m.index + m[0].length)));
}

/** The spans of the street lines of `q` (startsStreetLine): their words are no place, their number no zip. */
export function streetLines(q: string): { start: number; end: number }[] {
  return [...q.matchAll(new RegExp(ADDRESS.source, 'gi'))].filter((m) => startsStreetLine(q, m.index)).map((m) => ({ start: m.index, end: m.index + m[0].length }));
}
