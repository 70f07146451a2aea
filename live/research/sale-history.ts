// A property asked its recorded sales ("what did 6234 Reedland St, Philadelphia 19142 sell for", "when was 551 Oakdale
// St 10312 last sold", "sale history of ...", "last sale price of ..."): the street line or parcel id (address-value.ts,
// `history`), placed in its zip as a property asked its value is (value-estimate.ts askedZip), is looked up in the
// property record that serves GET /v1/property (EstimateBook.find: its findAddress, one typo included, or a parcel id's
// row), and the answer leads with the record's own sales, newest first, as GET /v1/property lists them: date, price,
// the record's flags ($0 or nominal transfer, portfolio deed, not arm's-length, flip leg, investor buyer), buyer and
// seller where recorded, the source's title and vintage, and the request that repeats it; the zip's price level
// follows. An address no record holds, or a record with no sale, is said so, the zip's price level kept as the figure.
// Before (review 31), such a question was answered with the zip's typical sale price alone. Rules:
// warehouse/docs/research.md "Entity rules".
import type { SaleItem, StoredRef } from '../property/layout.ts';
import type { WorthAsked } from './address-value.ts';
import { money, plural, type Depth, type Fact } from './facts.ts';
import type { Understanding } from './intent.ts';
import { askedZip, sayReading, shownAs, type EstimateBook, type HeldRecord } from './value-estimate.ts';

/** A price under which a sale is a nominal transfer, never a market price (the sales flags' nominal_price_floor()). */
const NOMINAL = 10_000;
/** Sales listed in the answer; the rest are in the property record. */
const LISTED = 10;

/** The record's flags of a sale, as GET /v1/property gives them. */
function flags(s: SaleItem): string[] {
  return [
    ...(s.price === 0 ? ['a $0 transfer'] : s.price < NOMINAL ? [`a nominal price (under ${money(NOMINAL)})`] : []),
    ...(s.portfolio ? ['a portfolio deed (one price for several parcels)'] : []),
    ...(s.arms_length === false ? ["not arm's-length"] : []),
    ...(s.flip_leg ? ['a flip leg'] : []),
    ...(s.investor_buyer ? ['an investor buyer'] : []),
  ];
}

/** One sale as said: "2022-05-13 for $250,000 (not arm's-length; buyer X; seller Y)". */
function saleText(s: SaleItem): string {
  const more = [...flags(s), ...(s.buyer ? [`buyer ${s.buyer}`] : []), ...(s.seller ? [`seller ${s.seller}`] : [])];
  return `${s.date} for ${money(s.price)}${more.length ? ` (${more.join('; ')})` : ''}`;
}

/** The sources that recorded the sales: "Philadelphia OPA properties (vintage 2024-05)", each once. */
function recordedBy(h: HeldRecord, titles: ReadonlyMap<string, string>): string[] {
  const refs = h.rec.sales.map(([, c]) => h.refs[c[0]]).filter((r): r is StoredRef => !!r);
  return [...new Set(refs.map(([source, , , vintage]) => `${titles.get(source) ?? source}${vintage ? ` (vintage ${vintage})` : ''}`))];
}

/** The request that repeats the record: the address and zip as asked, or the parcel id and state. */
const request = (asked: WorthAsked, zip: string, state: string): string => (asked.parcel
  ? `GET /v1/property?parcel_id=${encodeURIComponent(asked.address)}&state=${state}`
  : `GET /v1/property?address=${encodeURIComponent(asked.address)}&zip=${zip}`);

/** The fact of a property asked its recorded sales (put first, before the zip's price level), its reading said in
 *  `u.readAs` in place of address-value.ts's; null when no record is found (the reading then says why). `titles`: the
 *  build's source titles by id (its manifest). */
export function saleHistory(u: Understanding, asked: WorthAsked, book: EstimateBook, depth: Depth, titles: ReadonlyMap<string, string>): Fact | null {
  const said = sayReading(u, asked);
  const shown = shownAs(asked);
  const lead = `"${shown}" asked its recorded sales: `;
  const placed = askedZip(u, said, lead, 'none of its sales are listed (a property\'s recorded sales: GET /v1/property with its address and zip)');
  if (!placed) return null;
  const { zip, target } = placed;
  const typical = `; the figure given is zip ${zip}'s typical sale price, not this property's`;
  const found = book.find(asked.address, zip, asked.parcel ? target.state : undefined);
  if (found === null) {
    said(`${lead}this build has no property record, so none of its sales are listed${typical}`);
    return null;
  }
  if ('closest' in found) {
    said(lead + (asked.parcel
      ? `no property with parcel id ${asked.address} in ${target.state} is in the property records`
      : `no property at that address is in zip ${zip}'s property records${found.closest.length ? ` (the closest recorded addresses: ${found.closest.join('; ')})` : ''}`)
      + `, so no sale of it is listed${typical}`);
    return null;
  }
  said(null);
  const sales = found.rec.body.sales;
  const again = request(asked, zip, target.state);
  const matched = `${found.line} (property_id ${found.pid}${found.typo ? `; "${asked.address}" read as it, one typo from the zip's one recorded address` : ''})`;
  const by = recordedBy(found, titles);
  const listed = sales.slice(0, LISTED).map(saleText);
  const sentence = !sales.length
    ? `the property record of ${matched} holds no recorded sale; the full record: ${again}`
    : `the property record of ${matched} holds ${sales.length === 1 ? 'one recorded sale' : `${plural(sales.length, 'recorded sale')}, newest first`}: ${listed.join('; ')}${sales.length > LISTED ? `; ${sales.length - LISTED} more in the full record` : ''}, as recorded by ${by.join(' and ')}; the full record: ${again}`;
  const detail = depth === 'deep' && sales.length
    ? [`Each sale's source row: ${sales.map((s, i) => { const c = found.rec.sales[i]?.[1]; const r = c ? found.refs[c[0]] : undefined; return `${s.date}: ${r?.[2] ?? r?.[0] ?? 'unknown file'}${c?.[1] != null ? ` line ${c[1]}` : ''}`; }).join('; ')} (${again}&include=lineage gives every field's).`,
      'A sale flagged $0 or nominal, a portfolio deed or not arm\'s-length is recorded but is no market price, and no price figure of the service counts it.']
    : [];
  return {
    intent: 'trends', target, value: sales.length ? money(sales[0]!.price) : null, sentence, detail, primary: true, uncertain: null, topic: `the recorded sales of ${found.line}`,
    confidence: found.typo ? 'medium' : 'high',
    source: { type: 'property', category: 'market', citation: `reii property record: ${again} (property_id ${found.pid}), ${plural(sales.length, 'recorded sale')}${by.length ? `, ${by.join(', ')}` : ''}` },
  };
}
