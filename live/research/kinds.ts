// The kind of figure a question asks, read after intent.ts (pure, no I/O): a figure no source records is said not
// recorded, never answered with another figure that shares a word (a household income with the median sale price,
// homes for sale with the count of sales, FEMA's NRI with the legal risk score (a place's NRI: nri.ts), auction prices with the foreclosure
// law); a rent level with the rent law only after saying rents are not recorded; a price of a 2-family house; a
// question not in English; a place named alone; a court case's name not read as places. Rules: warehouse/docs/research.md
// "Kinds of figure".
import type { Intent, Understanding } from './intent.ts';
import { detectIntents, LEGAL_INTENTS } from './intent.ts';
import { withoutIndex } from './index-words.ts';

const MARKET: ReadonlySet<Intent> = new Set(['comps', 'trends', 'rehab', 'investor', 'location']);

/** Figures no source records that are asked by a word another topic shares ("median", "homes", "risk score",
 *  "foreclosure"): said not recorded whatever else the question's words read. */
const KIND_FIRST: [RegExp, string][] = [
  [/\b(household|family|per[- ]capita|personal|residents?'?|median|average|typical) incomes?\b|\bincome (levels?|data|statistics)\b|\bhow much do (people|residents|households|families) (make|earn)\b/,
    'We record no household or personal income (no census income figures): the medians we keep are sale prices, not incomes'],
  [/\b(homes?|houses?|properties|condos?|units?|listings?) (are |is )?(currently |now )?(for sale|listed|on the market|available)\b|\b(active |current |new |mls )?listings?\b(?! agreement)|\binventory\b(?!.{0,40}\b(distress|foreclos|pre-?foreclos|liens?|tax[- ]delinq))(?<!\b(distress|distressed|foreclosure|lien) inventory)|\bmonths of supply\b|\bhomes? to buy\b/,
    'We record sales, not listings: no homes for sale now, active listings or inventory (ask how many homes sold)'],
  [/\bnri\b( (composite )?risk)?( scores?| ratings?| index)?|\bnational risk index( scores?| ratings?)?|\bnat(ional|ionl|ioanl|inal|onal|'l|l\.?) risk ind(ex|ez|x)\b|\bfema('?s)? (natural )?(hazards? )?risk( scores?| ratings?| index)\b|\bexpected annual loss\b|\bsocial vulnerability\b|\bcommunity resilience\b/,
    "FEMA's National Risk Index (NRI) is kept per county, read from the build's location index: name a city, county or zip for its county's score (a quarter of each zip's environmental risk score, with its flood zone and Superfund sites); it is never the legal risk score"],
];
/** FEMA's NRI asked (answered from the location index when a place is named: nri.ts). */
export const NRI_SAY = KIND_FIRST[2]![1];
/** Auction prices asked with a legal word ("foreclosure auction prices"): not recorded, never the foreclosure law. */
const AUCTION = /\bauction (sale )?prices?\b|\bsheriff'?s? sale prices?\b|\b(foreclosure|lien|tax) (sale|auction) prices?\b|\bsold at auction for\b|\bprices? (at|of) (the )?(foreclosure |sheriff'?s? |tax )?auctions?\b/;
const AUCTION_SAY = 'We count foreclosure and lien filings, not the prices they sell for at auction or sheriff sale';
/** "rent in seattle", "rents for 98103", a follow-up's "what about rents in Brooklyn" (review 19: before, read as a
 *  market overview by its "what about", the sale prices given as if rents were answered): a rent level, not recorded;
 *  the rent law follows. */
const RENT_LEVEL = /^\s*(and\s+)?((what|how) about\s+|what('?s| is| are)\s+)?(the\s+)?(average\s+|median\s+|typical\s+)?rents?\s*(in|for|at|around|of|near)\b|^\s*rents?\s*[?.!]*\s*$/;
export const RENT_SAY = 'We record sales, not rents: no rent levels, rental yields or cap rates';
/** "how much is a 2 family in brooklyn": a house of a type, priced. */
const TYPE_PRICED = /\bhow much (is|are|does|do|would|for) (a |an )?(\d[- ]?family|(two|three|four|multi)[- ]?family|duplex|triplex|fourplex|[234][- ]?plex|townho(use|me)|co-?op|single[- ]family|sfr)\b/;
/** A question not in English: letters of another script, or French or German function words. */
const OTHER_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Greek}\p{Script=Devanagari}\p{Script=Thai}]/u;
const FOREIGN_WORDS = /(?<![\p{L}])(quel|quelle|quels|est|le|les|du|des|à|prix|médian|maison|maisons|combien|ist|der|die|das|wie|viel|kostet|ein|eine|und|haus|häuser|preis|durchschnittlich|wo|o|qual|quanto|preço|casa|casas|il|di|che|prezzo|het|een|wat|prijs)(?![\p{L}])/gu;
export const READS_ENGLISH = 'The service reads questions in English: this question is in another language; ask in English (for example "median sale price in Seattle" or "eviction notice in Florida")';

/** A question not in English (Spanish has its own reading, spanish.ts): another script, or two or more French,
 *  German, Portuguese, Italian or Dutch function words written in lower case. */
export function notEnglish(q: string): boolean {
  if (OTHER_SCRIPT.test(q)) return true;
  const words = new Set(q.match(FOREIGN_WORDS) ?? []);
  return words.size >= 2 || /[àâçéèêëîïôûœäöüß]/.test(q) && words.size >= 1;
}

/** A legal case named "X v. Y" ("Tyler v Hennepin"): the names are parties, not places. */
const CASE = /\b([A-Z][a-z]+)\s+v\.?\s+([A-Z][a-z]+)(\s+County)?\b/;

/** Reads the kind of figure a question asks into its understanding (in place). `query`: the question as asked. */
export function readKinds(u: Understanding, query: string): void {
  const lower = u.query.toLowerCase();
  const legal = u.intents.some((i) => LEGAL_INTENTS.has(i));
  const first = KIND_FIRST.find(([re]) => re.test(lower));
  // asked beside a figure we keep ("median income and median price in 98103"): that figure answered, the part said
  // (the NRI's own words, "FEMA" and "risk score", ask nothing else: index-words.ts)
  if (first && detectIntents(first[1] === NRI_SAY ? withoutIndex(lower, first[0]) : lower.replace(new RegExp(first[0].source, 'g'), ' ')).length) {
    u.gaps.unshift(`${first[1]}: that part of the question is not answered`);
    return;
  }
  const kind = first?.[1] ?? (AUCTION.test(lower) && (legal || u.intents.some((i) => MARKET.has(i) && i !== 'investor')) ? AUCTION_SAY : undefined);
  if (kind) { say(u, kind); return; }
  if (u.intents.length === 0 && !u.notRecorded && notEnglish(query)) { say(u, READS_ENGLISH); return; }
  const placed = u.targets.some((t) => t.zip || t.city);
  // a rent level: said not recorded, then the rent law of the place
  if (RENT_LEVEL.test(lower) && !u.notRecorded && !u.intents.some((i) => LEGAL_INTENTS.has(i) && i !== 'rent_control')) {
    if (!u.targets.length) { say(u, RENT_SAY); return; }
    u.notRecorded = null;
    u.intents.splice(0, u.intents.length, 'rent_control');
    u.readAs.unshift(`"${/\brents?\b/.exec(lower)![0]}" as the rent law of the place: we record sales, not rents (no rent levels, rental yields or cap rates)`);
    return;
  }
  // a house of a type priced: that type's sale price
  if (u.intents.length === 0 && placed && !u.notRecorded && TYPE_PRICED.test(lower)) { u.intents.push('trends'); u.priceLevel = true; return; }
  // a court case's name ("Tyler v. Hennepin"): its parties are not places
  const c = CASE.exec(query);
  if (c && u.intents.some((i) => LEGAL_INTENTS.has(i))) {
    const names = new Set([c[1]!.toLowerCase(), c[2]!.toLowerCase()]);
    const before = u.targets.length;
    u.targets.splice(0, u.targets.length, ...u.targets.filter((t) => !(t.city && names.has(t.city.toLowerCase())) && !(t.area && names.has(t.area.name.toLowerCase().replace(/ county$/, '')))));
    if (u.targets.length < before) {
      for (let i = u.readAs.length - 1; i >= 0; i--) if ([...names].some((n) => u.readAs[i]!.toLowerCase().startsWith(`"${n}`))) u.readAs.splice(i, 1);
      u.comparison = u.targets.length >= 2;
      u.readAs.push(`"${c[0]}" as a court case's name, not places: cases are not recorded by name, the rules we record are${/tyler/i.test(c[1]!) ? ' (Tyler v. Hennepin County, 2023, is the Supreme Court case on keeping the surplus of a tax sale)' : ''}`);
    }
  }
}

/** A place named alone ("Seattle", "98103", "the bronx", "seattle and denver"): its market overview (the median sale price and change, and
 *  its investor activity), as "how's the Seattle market" is answered. */
export function barePlace(u: Understanding): boolean {
  if (u.intents.length || u.notRecorded || !u.targets.length || u.unknown.length) return false;
  if (!u.targets.every((t) => t.zip || t.city)) return false;
  // (places listed alone, "seattle and denver": each one's overview, compared; a neighbourhood read as its city, "capitol
  // hill seattle", the city's: h77ask, it was a bare no-data)
  const hoods = u.readAs.map((r) => /^"([^"]+)" as a neighbourhood of /.exec(r)?.[1]?.toLowerCase()).filter((w) => w !== undefined);
  if (hoods.reduce((t, w) => t.split(w).join(' '), u.topicText.toLowerCase()).replace(/\b(the|zip|zip ?code|city|of|in|about|info|information|please|data|and|or|vs|versus|compare)\b|&/gi, '').replace(/[\s?.!,;:'"()-]/g, '') !== '') return false;
  u.intents.push('trends', 'investor');
  u.priceLevel = true;
  return true;
}

function say(u: Understanding, text: string): void {
  u.notRecorded = text;
  u.intents.splice(0, u.intents.length);
  u.priceLevel = false;
  u.gaps.splice(0, u.gaps.length);
}
