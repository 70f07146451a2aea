// A street address in a market or risk question ("flood risk for 2926 ridge ave philadelphia"): looked up in the
// build's address index (the autocomplete index, live/autocomplete/, loaded on the first such question) and answered
// for its zip, said; an address the index does not hold is said not found, with the place used instead, never
// answered silently for the city (whose summary details its highest zip: review r16b, "flood risk for 4000 stone way n
// seattle" detailed 98134). Rules: warehouse/docs/research.md "Entity rules".
import fs from 'node:fs';
import path from 'node:path';
import { AutocompleteIndex } from '../autocomplete/index-search.ts';
import { ADDRESS } from './street-line.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';

const MARKET = new Set(['comps', 'trends', 'rehab', 'investor', 'location']);

/** How a reading into a zip ends (here and parcels.ts); value-estimate.ts drops it where a property's own estimate is given. */
export const KEPT_PER_ZIP = 'figures are kept per zip, not per';

/** An address found: its street line as the index keeps it, its zip, city and state. */
export interface FoundAddress { address: string; zip: string; city: string; state: string }

/** The build's address index, loaded when first asked; absent in a build without it. */
export class AddressBook {
  private index: AutocompleteIndex | null | undefined;
  constructor(private readonly file: string) {}
  static ofBuild(buildDir: string): AddressBook { return new AddressBook(path.join(buildDir, 'live', 'autocomplete', 'index.bin')); }

  get available(): boolean { return this.load() !== null; }

  private load(): AutocompleteIndex | null {
    if (this.index === undefined) {
      try { this.index = fs.existsSync(this.file) ? AutocompleteIndex.fromFile(this.file) : null; } catch { this.index = null; }
    }
    return this.index;
  }

  /** The record of a street line (house number and street words as written), in `state` when given: the same house
   *  number and every street word as a word of the record's line (a suffix's short form counts); null when none or
   *  when the matches lie in more than one zip. */
  find(line: string, number: string, words: string[], state: string | null): FoundAddress | null {
    const ix = this.load();
    if (!ix) return null;
    const r = ix.search(line, { limit: 10, budgetMs: 100, state });
    const hits = r.ids.map((id) => ix.match(id)).filter((m) => {
      const parts = m.address.toUpperCase().split(/\s+/);
      return parts[0] === number && words.every((w) => parts.includes(w.toUpperCase()) || parts.includes(SHORT[w.toLowerCase()] ?? ''));
    }).filter((m) => m.zip);
    const zips = new Set(hits.map((m) => m.zip));
    if (zips.size !== 1) return null;
    const m = hits[0]!;
    return { address: m.address, zip: m.zip, city: m.city, state: m.state };
  }
}

const SHORT: Record<string, string> = { street: 'ST', avenue: 'AVE', av: 'AVE', way: 'WAY', wy: 'WAY', road: 'RD', boulevard: 'BLVD', drive: 'DR', lane: 'LN', place: 'PL', court: 'CT', terrace: 'TER', parkway: 'PKWY', highway: 'HWY', circle: 'CIR', square: 'SQ' };

/** A street named with no suffix ("flood risk at 1 broadway cambridge ma": before, the address went unsaid and the
 *  city's zips were answered as if it were read), in ADDRESS's groups: number, no words, the street, no direction. */
const BARE_STREET = /(?<![$\d,.])\b(\d{1,6})\s+()(broadway|bowery)\b()/i;

/** The address a market question names, read into its place (in place): its zip when the index holds it (said), else
 *  said not found with the place the answer is for. */
export function readAddress(u: Understanding, query: string, book: AddressBook | null): void {
  if (!u.intents.length || !u.intents.every((i) => MARKET.has(i))) return;
  const m = ADDRESS.exec(query) ?? BARE_STREET.exec(query);
  if (!m) return;
  const written = m[0].trim();
  const words = `${m[2]} ${m[3]}${m[4] ? ` ${m[4]}` : ''}`.replace(/\./g, '').split(/\s+/).filter(Boolean);
  // the street's own words are no place ("2926 Ridge Avenue" is not Ridge, NY)
  const street = new Set(m[2]!.toLowerCase().split(/\s+/));
  const own = (t: Target): boolean => !!t.city && !t.zip && t.city.toLowerCase().split(/\s+/).every((w) => street.has(w));
  if (u.targets.some(own)) {
    for (let i = u.readAs.length - 1; i >= 0; i--) if (u.targets.some((t) => own(t) && u.readAs[i]!.toLowerCase().startsWith(`"${t.city!.toLowerCase()}`))) u.readAs.splice(i, 1);
    u.targets.splice(0, u.targets.length, ...u.targets.filter((t) => !own(t)));
  }
  // nor are readings of its words said where another rule already took the town back ("51 Omaha Ct 95823": "Omaha Ct"
  // as Omaha, NE, not Connecticut, and "Omaha 95823" as the zip beside Omaha, NE): a quoted reading of street words alone,
  // a zip aside (five digits, not the line's own house number: "12345 NE 80th St" asked its value is no street word alone)
  const line = new Set(words.map((w) => w.toLowerCase()));
  const ownRead = (r: string): boolean => {
    const q = /^"([^"]+)"/.exec(r)?.[1]?.toLowerCase().replace(/[,.]/g, ' ').split(/\s+/).filter((w) => w && (!/^\d{5}$/.test(w) || w === m[1]));
    return !!q?.length && q.every((w) => line.has(w));
  };
  u.readAs.splice(0, u.readAs.length, ...u.readAs.filter((r) => !ownRead(r)));
  const state = u.targets.find((t) => t.state)?.state ?? null;
  const found = book?.find(written, m[1]!, words, state) ?? null;
  // a zip typed with the address is the zip the question asks
  if (u.targets.some((t) => t.zip)) {
    if (found && !u.targets.some((t) => t.zip === found.zip)) u.readAs.push(`the zip typed, not "${written}": our address index places ${found.address}, ${found.city}, ${found.state} in zip ${found.zip}, another zip`);
    return;
  }
  if (found) {
    const t: Target = { state: found.state, zip: found.zip, city: found.city, from: 'query' };
    u.targets.splice(0, u.targets.length, t);
    u.comparison = false;
    u.readAs.push(`"${written}" as zip ${found.zip} (${found.address}, ${found.city}, ${found.state} in our address index): ${KEPT_PER_ZIP} address`);
    return;
  }
  const place = u.targets.find((t) => t.city || t.area);
  const where = place ? `${place.area?.name ?? place.city}, ${place.state} as a whole (its zips, not the address's own)` : 'no place';
  u.readAs.push(`"${written}": ${book?.available ? 'the address is not in our address index (the property records of the sales and distress sources)' : 'this build has no address index'}, so it is not placed in a zip; the answer is for ${where}; name its zip for that zip's figures`);
}
