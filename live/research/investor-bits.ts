// The clauses of an investor answer (market-facts.ts investorFact) from one investor overview shard: the investor
// share, the flips' median hold and margin, or why each is missing as the shard's note says (no buyer names, no
// flip, or fewer than 5 known buyers or flips: the minimum cohort, warehouse/docs/market.md "mart_investor").
import type { Understanding } from './intent.ts';
import { fmt, minConf, windowEnd, type Confidence, type Fact } from './facts.ts';
import type { Target } from './places.ts';

export interface Investor { city: string; state: string; investor_purchase_rate_pct: number | null; flip_velocity_days: number | null; gross_flip_margin_pct: number | null; distressed_pipeline_count: number | null; market_tier: string; confidence: Confidence; as_of: string; distress_as_of?: string | null; distressed_without_parcel?: number | null; note?: string | null; coverage?: { window_end: string } | null }

/** The shard's note says a figure is null for a cohort of 1-4 (30_mart_investor.sql): known buyers, or flips. */
const fewBuyers = (r: Investor): boolean => /fewer than 5 sales for value in the window record a buyer name/.test(r.note ?? '');
const fewFlips = (r: Investor): boolean => /fewer than 5 investor flips/.test(r.note ?? '');

/** Why a place's investor share is null, in a few words: a comparison shows it beside the other side's share (review r24:
 *  "Queens vs Brooklyn investor share" said "unknown" with no reason, which the one-place answer gives). */
export const unknownShareWhy = (r: Investor): string => (fewBuyers(r) ? 'under 5 sales record a buyer name' : noSales(r) ? 'no sale for value is recorded' : 'the sales records carry no buyer names');
/** The shard's note says the window holds no sale for value (a city of filings alone: Louisville, Pittsburgh): no
 *  sales records to carry buyer names (h67ask: before, "the sales records ... carry no buyer names" of a city with none). */
export const noSales = (r: Investor): boolean => /^no sale for value in the window/.test(r.note ?? '');
export const NO_SALE_SAID = 'no sale for value is recorded';
/** Why no investor purchase, so no flip, can be told: no buyer names, or no sale at all (a city of filings alone:
 *  h67ask2, before "without buyer names" of Louisville's flips, where no sale is recorded to carry one). */
const unbought = (r: Investor): string => (noSales(r) ? 'with no sale recorded' : 'without buyer names');

/** `gap`: the window's months the sales files do not cover, or cover in part only (window-gaps.ts windowGap), said
 *  after the window as a sales count's are (review 24: Denver's 24 months to 2019-07-09 hold 19 months of sales). */
export function investorBits(r: Investor, u: Understanding, months: number, gap = ''): string[] {
  const bits = [r.investor_purchase_rate_pct !== null
    ? `investors bought ${fmt(r.investor_purchase_rate_pct)}% of the homes sold in the ${months} months to ${windowEnd(r)}${gap}${u.asks.includes('llc') ? ' (investors are buyers named as companies: LLCs, corporations, partnerships and business trusts together; LLCs alone are not counted apart)' : ''}`
    : fewBuyers(r) ? `fewer than 5 sales of the ${months} months to ${windowEnd(r)}${gap} record a buyer name, too few for an investor share (minimum 5)`
      : noSales(r) ? `${NO_SALE_SAID} in the ${months} months to ${windowEnd(r)}${gap} (the records here are filings, not sales), so there is no investor share`
      : `the sales records of the ${months} months to ${windowEnd(r)}${gap} carry no buyer names, so the investor share is unknown`];
  // flip_velocity_days is the median days held from the investor's purchase deed to the resale deed (market.md): no
  // source has a listing date, so a flip is said to be resold, never re-listed
  if (r.flip_velocity_days !== null) bits.push(`flips resold after a median ${fmt(r.flip_velocity_days)} days held (purchase deed to resale deed)${u.asks.includes('flips') && !u.asks.includes('flip_share') ? ' (how many flips is not kept, only their median hold and margin)' : ''}`);
  // fewer than 5 flips: said so (never "none"), and no figure of them
  else if (fewFlips(r) && (u.asks.includes('flips') || u.asks.includes('flip_margin'))) bits.push(`and fewer than 5 flips have their resale in the ${months} months to ${windowEnd(r)}: too few for a median hold or margin (minimum 5)`);
  // a flip's speed or margin asked ("flip velocity", "how many days do flips take") with none kept: the shard's note
  // says why (no resale in the window, or no buyer names), never dropped silently
  else if (!u.asks.includes('flips') && !u.asks.includes('flip_margin') && FLIP_ASKED.test(u.query) && flipNote(r)) {
    // no buyer names: the share's clause has said so; the flip figures follow from it
    bits.push(r.investor_purchase_rate_pct === null && !fewBuyers(r) ? `and ${unbought(r)} no investor purchase, and so no flip, can be told: no flip velocity or margin` : `but ${flipNote(r)}`);
  }
  // how many flips asked and none recorded: said, never the share alone (a source with one sale per parcel shows no resale)
  else if (u.asks.includes('flips')) bits.push(r.investor_purchase_rate_pct === null && !fewBuyers(r)
    ? `and no flip can be told: ${unbought(r)} no investor purchase, and so no flip, is known`
    : `and no flip is recorded: no investor purchase in the records was resold within 365 days with the resale in the ${months} months to ${windowEnd(r)} (a flip needs both deeds in the source; a file with one sale per parcel shows no resales)`);
  if (r.gross_flip_margin_pct !== null) bits.push(`with a median gross margin of ${fmt(r.gross_flip_margin_pct)}%`);
  else if (fewFlips(r)) { /* said above when asked */ }
  else if (u.asks.includes('flip_margin')) bits.push(r.investor_purchase_rate_pct === null && !fewBuyers(r)
    ? `and there is no flip margin: ${unbought(r)} no investor purchase, and so no flip, can be told`
    : `and there is no flip margin: no investor purchase was resold within 365 days with the resale in the ${months} months to ${windowEnd(r)}`);
  return bits;
}

/** A flip asked by any word ("flip velocity", "flips", "flippers", "flipping"). */
const FLIP_ASKED = /\bflip(s|ping|pers?|ped)?\b/i;
/** The clause of the shard's note on its flip figures ("no investor purchase resold 1 to 365 days later has its resale
 *  in the window (...): no flip velocity or margin"), or null. */
const flipNote = (r: Investor): string | null => (r.note ?? '').split(/;\s*/).find((x) => /\bflip velocity\b/.test(x)) ?? null;

/** The share of sales that were flips asked: no flip count is kept, so no share; said first (investorFact), never the
 *  investor share in its place. */
export const FLIP_SHARE_NOT_KEPT = 'the share of sales that were flips is not kept (nor how many flips there were, only their median hold and margin); what is kept: ';

/** A zip asked of a figure kept per city (the investor share, the distressed filings): its city's figure, said so,
 *  at most medium, and never ranked among zips (zips of one city all show the city's figure: "19125, 19134 and 19146
 *  are tied (27.9% each)" before). */
export function cityOfZip(f: Fact, t: Target): Fact {
  if (!t.zip || !t.city || f.source === null) return f;
  const { ranks: _ranks, ...rest } = f;
  const city = `${t.city}, ${t.state}`;
  const s = f.sentence.startsWith('In ') ? `in ${f.sentence.slice(3)}` : f.sentence;
  return {
    ...rest, value: f.value === null ? null : `${f.value} (${city} as a whole)`, confidence: minConf(f.confidence, 'medium'),
    sentence: `Investor activity and distressed filings are kept per city, not per zip, so zip ${t.zip}'s figure is ${city}'s as a whole: ${s}`,
  };
}

/** A distressed-properties count in words: the count, what it counts, and, where some of its filings name neither a
 *  parcel nor an address (distressed_without_parcel: each counted as a property of its own), how many properties are
 *  identified and how many are such filings (review r16b #2: Penn Hills' 63 are 61 parcels and 2 filings without one). */
export function distressWords(count: number, without: number | null | undefined, kinds: readonly string[] = []): string {
  const split = without ? `; ${fmt(count - without)} identified by parcel or address and ${fmt(without)} ${without === 1 ? 'filing' : 'filings'} naming neither, each counted as a property of its own` : '';
  return `${fmt(count)} distressed properties (${filingKinds(kinds)}${split})`;
}

/** Each filing kind (distress.kind) as an answer names its filings, and in short. */
const FILING_WORDS: [kind: string, words: string, short: string][] = [
  ['pre_foreclosure', 'mortgage foreclosure', 'mortgage'], ['tax_delinquent', 'tax-lien foreclosure', 'tax-lien'],
  ['lien_foreclosure', 'code-enforcement or vacant-property lien foreclosure', 'other lien'],
];
/** What a place's distressed count counts, by the filing kinds its sources record (distress-kinds.ts
 *  distressKindsOf; none known: every kind named, as before): review 29, Louisville's lien cases and Allegheny's
 *  mortgage foreclosures were both said as "pre-foreclosure, tax-delinquent or lien filings". */
export function filingKinds(kinds: readonly string[]): string {
  const held = FILING_WORDS.filter(([k]) => kinds.includes(k)).map(([, w]) => w);
  if (!held.length) return heldKinds(kinds);
  const missing = FILING_WORDS.filter(([k]) => !kinds.includes(k)).map(([, , w]) => w);
  return `${heldKinds(kinds)}${missing.length ? `, the only ${held.length > 1 ? 'kinds' : 'kind'} its records hold: no ${list(missing, 'or')} foreclosure is counted` : ''}`;
}
const list = (ws: string[], and: string): string => ws.join(', ').replace(/, ([^,]+)$/, ` ${and} $1`);
/** The filing kinds a place's records hold, alone ("mortgage foreclosure filings"): what its distressed count counts,
 *  compared like for like (like-for-like.ts). */
export function heldKinds(kinds: readonly string[]): string {
  const held = FILING_WORDS.filter(([k]) => kinds.includes(k)).map(([, w]) => w);
  return held.length ? `${list(held, 'and')} filings` : 'pre-foreclosure, tax-delinquent or lien filings';
}
