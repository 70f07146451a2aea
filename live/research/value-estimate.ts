// "What is <address> worth" answered with the property's own estimate: the street line or parcel id a question asks
// the value of (address-value.ts), placed in its zip (addresses.ts, parcels.ts, or the zip typed), is sent in-process to
// the valuation engine that serves POST /v1/valuation/estimate (live/valuation/endpoint.ts loadValuationEngine: the
// endpoint's own engine for the build, shared, so its comps and models are held once): when the address matches a
// property record (the valuation's own lookup, live/valuation/match.ts: the property record's findAddress, one typo
// included), the answer leads with that
// estimate (value, range, confidence, comps, model, the matched record) and keeps the zip's price level beside it; else
// the zip's price level stays, said as no estimate and why (no zip, no record at the address, the valuation's 404).
// No estimate logic here: the figures are the endpoint's body. The property record's lookup (EstimateBook.find,
// recorded), the zip a property asked is placed in (askedZip) and its reading (sayReading) are shared with
// sale-history.ts, which answers a property asked its recorded sales. Rules: warehouse/docs/research.md "Entity rules".
import fs from 'node:fs';
import path from 'node:path';
import { loadValuationEngine, type ValuationBody, type ValuationInput } from '../valuation/endpoint.ts';
import { loadEngine as loadPropertyEngine } from '../property/endpoint.ts';
import type { BuildKey, LiveAnswer } from '../../warehouse/live.ts';
import { KEPT_PER_ZIP } from './addresses.ts';
import type { WorthAsked } from './address-value.ts';
import { inline, money, plural, type Depth, type Fact } from './facts.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import type { PropertyEngine } from '../property/engine.ts';
import type { StoredRecord, StoredRef } from '../property/layout.ts';
import { addressKey } from '../../warehouse/address.ts';

type Build = BuildKey;

/** The build's valuation engine (the endpoint's, shared: loadValuationEngine), first read by the endpoint or the
 *  first value question; and the build's property record (shared with GET /v1/property: loadEngine). */
export class EstimateBook {
  constructor(private readonly build: () => Build) {}
  /** `build`: the server's; without it (tests, scripts) the build's manifest gives its id and data date. */
  static ofBuild(dir: string, build?: Build): EstimateBook {
    return new EstimateBook(() => build ?? manifestBuild(dir));
  }

  /** The answer of POST /v1/valuation/estimate to a zip and an address, as the endpoint gives it. */
  async estimate(input: ValuationInput): Promise<LiveAnswer> {
    const engine = loadValuationEngine(this.build());
    return typeof engine === 'string' ? { ok: false, code: 'no_data', message: engine } : engine.answer(input);
  }

  /** The property record's own line of a property ("2835 UNRUH AVE, Philadelphia, PA 19149"), or its parcel id where
   *  the record keeps no street address (King County); and whether the typed address was read as it through one typo. */
  recorded(pid: string, typed: string, zip: string): { line: string; typo: boolean } | null {
    const e = loadPropertyEngine(this.build());
    const found = e?.findAddress(typed, zip);
    return e ? held(e, pid, zip, !!found && 'typo' in found && !!found.typo) : null;
  }

  /** The property record a typed street line names in a zip (the lookup of GET /v1/property, findAddress: one typo
   *  included, said by `typo`), or a parcel id in a state (`parcelState`); `closest`: no such property, with the
   *  closest recorded lines of the zip the lookup offers; null: the build has no property record. */
  find(typed: string, zip: string, parcelState?: string): HeldRecord | { closest: string[] } | null {
    const e = loadPropertyEngine(this.build());
    if (!e) return null;
    if (parcelState) {
      const pid = e.parcel(parcelState, typed)[0];
      return (pid ? held(e, pid, zip, false) : null) ?? { closest: [] };
    }
    const found = e.findAddress(typed, zip);
    if ('closest' in found) return { closest: found.closest.map((x) => `${addressKey(x[0], x[1])} (property_id ${x[2]})`) };
    return held(e, found.id, zip, !!found.typo) ?? { closest: [] };
  }
}

/** A property record as the research reads it: its id, its line ("2835 UNRUH AVE, Philadelphia, PA 19149"; its
 *  parcel id where the record keeps no street address, King County), whether read through one typo, its record. */
export interface HeldRecord { pid: string; line: string; typo: boolean; rec: StoredRecord; refs: StoredRef[] }

function held(e: PropertyEngine, pid: string, zip: string, typo: boolean): HeldRecord | null {
  const r = e.record(pid);
  if (!r) return null;
  const b = r.rec.body;
  const s = (k: string): string | null => (typeof b[k] === 'string' && b[k] ? (b[k] as string) : null);
  const street = s('address') ? `${s('address')}${s('unit') ? ` #${s('unit')}` : ''}` : s('parcel_id') ? `parcel ${s('parcel_id')}` : `property_id ${pid}`;
  return { pid, line: `${street}, ${[s('city'), `${s('state') ?? ''} ${s('zip') ?? zip}`.trim()].filter(Boolean).join(', ')}`, typo, rec: r.rec, refs: r.refs };
}

/** The reading a property asked is said with (address-value.ts's `line` in `u.readAs`): replaced by `text`, or
 *  dropped (null) where the property's own answer is given, the zip's reading then no longer saying the figures are
 *  per zip alone (the first is the property's own). */
export function sayReading(u: Understanding, asked: WorthAsked): (text: string | null) => void {
  const at = u.readAs.indexOf(asked.line);
  return (text) => {
    if (at >= 0 && text !== null) u.readAs[at] = text;
    if (text !== null) return;
    if (at >= 0) u.readAs.splice(at, 1);
    for (let i = 0; i < u.readAs.length; i++) u.readAs[i] = u.readAs[i]!.replace(new RegExp(`: ${KEPT_PER_ZIP} (address|parcel)$`), '');
  };
}

/** The one zip a property asked is placed in (typed, or read from the address index or the property record), with its
 *  place; null when none or several, the reading then saying so: `lead` what was asked, `none` what is not given. */
export function askedZip(u: Understanding, say: (text: string) => void, lead: string, none: string): { zip: string; target: Target } | null {
  const zips = [...new Set(u.targets.map((t) => t.zip).filter((z): z is string => !!z))];
  if (zips.length !== 1) {
    say(`${lead}${zips.length ? 'more than one zip is named with it' : 'it is not placed in a zip'}, so no property record is looked up and ${none}`);
    return null;
  }
  return { zip: zips[0]!, target: u.targets.find((t) => t.zip === zips[0])! };
}

/** The property asked as said: its street line as written, or "parcel <id>". */
export const shownAs = (asked: WorthAsked): string => (asked.parcel ? `parcel ${asked.address}` : asked.address);

function manifestBuild(dir: string): Build {
  const m = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { build_id?: string; as_of?: string };
  return { dir, buildId: m.build_id ?? path.basename(dir), asOf: m.as_of ?? '' };
}

/** The request that repeats the estimate with its comps. */
const request = (zip: string, address: string): string => `POST /v1/valuation/estimate {"zip": "${zip}", "address": "${address}"}`;

/** The fact of a property asked its value (put first, before the zip's price level), with its reading said in
 *  `u.readAs` in place of address-value.ts's; null when no estimate is given (the reading then says why). */
export async function valueEstimate(u: Understanding, asked: WorthAsked, book: EstimateBook, depth: Depth): Promise<Fact | null> {
  const said = sayReading(u, asked);
  const shown = shownAs(asked);
  const placed = askedZip(u, said, `"${shown}" asked its value: `, 'no estimate of it is given (the valuation engine, POST /v1/valuation/estimate, values an address with its zip)');
  if (!placed) return null;
  const { zip, target } = placed;
  const r = await book.estimate({ zip, address: asked.address });
  const lead = `"${shown}" asked its value: `, typical = `; the figure given is zip ${zip}'s typical sale price`;
  if (!r.ok) {
    said(`${lead}the valuation engine gives no estimate of it (POST /v1/valuation/estimate: ${inline(r.message)})${typical}`);
    return null;
  }
  const v = r.body as ValuationBody;
  if (!v.subject.matched) {
    said(lead + (v.subject.property_id
      ? `the property record holds it (property_id ${v.subject.property_id}) but with no living area the valuation can read, so no estimate of it is given (the valuation engine, POST /v1/valuation/estimate, values a house of the zip's typical size for it)`
      : `no property at that address in zip ${zip} is in the property records, so no estimate of it is given (the valuation engine, POST /v1/valuation/estimate, would value the zip's typical house for it, not this one)`) + typical);
    return null;
  }
  said(null);
  const pid = v.subject.property_id!;
  const rec = book.recorded(pid, asked.address, zip);
  const matched = `${rec?.line ?? `${v.address}, ${v.city}, ${v.state} ${zip}`} (property_id ${pid}${rec?.typo ? `; "${asked.address}" read as it, one typo from the zip's one recorded address` : ''})`;
  const sentence = `the valuation engine's estimate of ${matched} is ${money(v.estimated_value)} (range ${money(v.value_low)} to ${money(v.value_high)}), ${v.confidence} confidence, from ${plural(v.comp_count, 'comparable sale')} (model: ${v.model}), as of ${v.as_of}; the full answer with its comps: ${request(zip, asked.address)}`;
  const detail = [...v.notes, ...(v.data_age_note ? [v.data_age_note] : []),
    ...(depth === 'deep' && v.comps.length ? [`Its comps, highest weight first: ${v.comps.slice(0, 5).map((c) => `${c.address ?? c.property_id ?? 'no address'} sold ${c.sale_date} for ${money(c.price)} (${c.sqft.toLocaleString('en-US')} sqft, adjusted ${money(c.adjusted_price)}, weight ${c.weight.toFixed(3)})`).join('; ')}${v.comps.length > 5 ? `; ${v.comps.length - 5} more in the full answer` : ''}`] : [])].map((x) => `${inline(x)}.`);
  return {
    intent: 'trends', target, value: money(v.estimated_value), sentence, detail, primary: true, uncertain: null, confidence: v.confidence,
    topic: `the value of ${rec?.line ?? v.address}`,
    source: { type: 'valuation', category: 'valuation', citation: `reii valuation engine: ${request(zip, asked.address)}, ${plural(v.comp_count, 'comp')}, as of ${v.as_of}` },
  };
}
