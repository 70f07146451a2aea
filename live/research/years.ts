// The calendar years a research question asks about (pure, no imports): read by intent.ts into the Understanding,
// answered by year-facts.ts. Rules: warehouse/docs/research.md "Years".

export interface Years { from: number; to: number | null; label: string }

/** "in 2022", "during 2021", "for 2014", "since 2020", "from 2019 to 2021", "between 2019 and 2021", "2019-2021", and a
 *  bare year ("nyc condo prices 2023"). */
export function parseYears(q: string): Years | null {
  // "the current price, now in 2026": today's figure (its data's age is said), not a past year's
  if (/\b(current(ly)?|right now|now|today)\b/i.test(q)) return null;
  const y = '((?:19|20)\\d{2})';
  const span = new RegExp(`\\b(?:from|between)\\s+${y}\\s*(?:to|and|through|until|-)\\s*${y}\\b|\\b${y}\\s*(?:-|to)\\s*${y}\\b`, 'i').exec(q);
  if (span) {
    const a = Number(span[1] ?? span[3]), b = Number(span[2] ?? span[4]);
    return { from: Math.min(a, b), to: Math.max(a, b), label: `${Math.min(a, b)} to ${Math.max(a, b)}` };
  }
  const since = new RegExp(`\\b(?:since|after|from)\\s+${y}\\b`, 'i').exec(q);
  if (since) return { from: Number(since[1]), to: null, label: `since ${since[1]}` };
  const one = new RegExp(`\\b(?:in|during|for|of|back in|year)\\s+${y}\\b(?!\\s*(?:sq|square|feet|ft|units?|homes|sales|\\$))`, 'i').exec(q);
  if (one) return { from: Number(one[1]), to: Number(one[1]), label: one[1]! };
  // a bare year ("median home price denver co 2018", "Denver 2018 median price"): four digits standing alone in
  // 1950-2049, not a price, a count or a figure with a unit, not a house number (a street word after it), not inside a
  // longer number, a zip or a date
  const bare = new RegExp(`(?<![\\d$#,.\\/-])\\b((?:19[5-9]|20[0-4])\\d)\\b(?![\\d,.]\\d|\\s*(?:${UNIT_AFTER})\\b|\\s+(?:[nsew]\\.?\\s+)?(?:[a-z]+\\s+)?(?:${STREET})\\b|-\\d{2}-)`, 'i').exec(q);
  if (bare) return { from: Number(bare[1]), to: Number(bare[1]), label: bare[1]! };
  return null;
}

/** Words after a number that make it a quantity, not a year. */
const UNIT_AFTER = "sq|square|feet|foot|ft|sf|units?|homes?|houses?|properties|sales|beds?|bedrooms?|br|bd|baths?|dollars|usd|k\\b|%|percent|people|residents|days?|months?|acres?";
/** Street words after a number (with one name word between): a house number, not a year. */
const STREET = "st|street|ave|avenue|rd|road|blvd|boulevard|dr|drive|ln|lane|way|ct|court|pl|place|pkwy|parkway|hwy|highway|ter|terrace|cir|circle|trl|trail|sq";
