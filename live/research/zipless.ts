// A zip of a city whose sales carry no zip code (Denver: its assessor's sales file has none): a zip's sale figure asked
// is said missing for that reason, with the city's own figure offered, never "We have no single-family sales" as if
// the zip had none (review r16b: 80205, 80211, 80220, 80202). Rules: warehouse/docs/research.md "Answer templates".
import type { ResearchData } from './data.ts';
import type { Fact } from './facts.ts';
import type { Understanding } from './intent.ts';
import { windowFigure } from './market-window.ts';

const TYPE_WORDS: Record<string, string> = { sfr: 'single-family', multi: 'multi-family', condo: 'condo', land: 'land', commercial: 'commercial' };
const SALE_INTENTS: ReadonlySet<Fact['intent']> = new Set(['trends', 'comps']);

/** The facts with each zip's missing sale figure said as its city's zipless sales, in place. */
export function ziplessCities(data: ResearchData, u: Pick<Understanding, 'propertyType'>, facts: Fact[]): void {
  if (!data.market) return;
  for (const [i, f] of facts.entries()) {
    const t = f.target;
    // "too few for a median" of a zip whose city's sales mostly carry no zip (Stamford's 06902) is that, said
    if (f.value !== null || !SALE_INTENTS.has(f.intent) || !t?.zip || !/^We have no |has no month with \d+ or more /.test(f.sentence)) continue;
    const city = data.zips.get(t.zip)?.city ?? t.city;
    if (!city) continue;
    const why = ziplessCity(data, t.state, city, u.propertyType) ?? fewZipped(data, t.state, city, u.propertyType);
    if (why) facts[i] = { ...f, sentence: `We have no ${TYPE_WORDS[u.propertyType] ?? u.propertyType} sale figure for zip ${t.zip} (${city}, ${t.state}): ${why}` };
  }
}

/** Why a zip of a city has too few sales for a figure, when most of the city's sales carry no zip code (Stamford: its
 *  sales of Connecticut's 2022 file, which records no location, have none: review 20, before "no month with 5 or more
 *  single-family sales", as if the zip sold little); null when its zips together hold half its sales or more. */
function fewZipped(data: ResearchData, state: string, city: string, type: string, ask = 'median sale price in'): string | null {
  const whole = windowFigure(data.market, { state, city }, type, 12);
  if (!whole || whole.sales === 0) return null;
  const zipped = data.zipsOfCity(city, state).reduce((a, z) => a + (windowFigure(data.market, { zip: z, state }, type, 24)?.sales ?? 0), 0);
  if (zipped * 2 >= whole.sales) return null;
  const noun = TYPE_WORDS[type] ?? type;
  // the records with no residential subtype are the 2022 file's (sales-facts.ts mixedTypeNote), which has no coordinates
  const file = whole.untyped ? ` (${whole.untyped === whole.sales ? 'all' : whole.untyped.toLocaleString('en-US')} of them from Connecticut's 2022 sales file, which records no location)` : '';
  return `most of ${city}'s ${whole.sales.toLocaleString('en-US')} arm's-length ${noun} sales in the 12 months to ${whole.asOf} carry no zip code in the source${file}: its zips hold ${zipped.toLocaleString('en-US')} in their latest 24 months, too few for a zip's figure; ${city}'s city-wide figure can be asked instead ("${ask} ${city}")`;
}

/** fewZipped of a zip's city (its USPS city, else the target's), or null. */
export function fewZippedZip(data: ResearchData, t: { zip?: string; city?: string; state: string }, type: string, ask?: string): string | null {
  const city = (t.zip ? data.zips.get(t.zip)?.city : undefined) ?? t.city;
  return city && data.market ? fewZipped(data, t.state, city, type, ask) : null;
}

/** Why no zip of a city has a sale figure, when its sales carry no zip code ("Denver's 10,319 arm's-length ...
 *  sales ... carry no zip code in the source, so no zip of Denver has a figure; ..."); null when a zip of it has sales
 *  in its 24 months, or the city has none in its 12. Also said when the zips of such a city are ranked (zip-years.ts). */
export function ziplessCity(data: ResearchData, state: string, city: string, type: string): string | null {
  if (!data.market) return null;
  const whole = windowFigure(data.market, { state, city }, type, 12);
  if (!whole || whole.sales === 0) return null;
  if (data.zipsOfCity(city, state).some((z) => (windowFigure(data.market, { zip: z, state }, type, 24)?.sales ?? 0) > 0)) return null;
  const noun = TYPE_WORDS[type] ?? type;
  return `${city}'s ${whole.sales.toLocaleString('en-US')} arm's-length ${noun} sales in the 12 months to ${whole.asOf} carry no zip code in the source, so no zip of ${city} has a figure; ${city}'s city-wide figure can be asked instead ("median sale price in ${city}")`;
}
