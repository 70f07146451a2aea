// "Is 37212 heating up?", "is Seattle cooling off", "hot market in 98103": a market's direction asked in words no
// topic names (h78ask: before, a generic "I don't have data" while the zip's rehab trend and price trend were kept).
// Read as the price trend (the 12-month change of the median sale price) and the rehab momentum trend (its permits
// against the months before), each where the build keeps it; the reading said.

/** A market's heat asked: warming, cooling, hot or cold. */
export const HEAT = /\b(heating|warming) up\b|\bcool(?:ing|ed)? (?:off|down)\b|\b(?:hot|hottest|cold|cooling) (?:market|zip|area|neighbou?rhood|spot)s?\b|\b(?:getting|is|are|still) (?:hot|hotter|cold|colder)\b/;

/** When no topic is read and a place is named: the heat words read as the price and rehab trends, the reading said. */
export function heatRead(lower: string, placed: boolean, intents: string[], readAs: string[]): void {
  const m = HEAT.exec(lower);
  if (!m || intents.length || !placed) return;
  intents.push('trends', 'rehab');
  readAs.push(`"${m[0]}" as the price trend (the 12-month change of the median sale price) and the rehab momentum trend (rehab permits against the months before), where each is kept`);
}
