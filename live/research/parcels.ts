// A parcel id in a market question ("sold comps for parcel 5393601635 in King County"): looked up in the build's
// property record (live/property, GET /v1/property?parcel_id=&state=), the question then answered for the parcel's zip,
// said; a parcel id the record does not hold is said not found, with the place the answer is for. Before (review 28),
// the id was dropped and King County's range answered, detailing Medina 98039 for a parcel in 98144. Rules:
// warehouse/docs/research.md "Entity rules".
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine } from '../property/endpoint.ts';
import type { PropertyEngine } from '../property/engine.ts';
import { KEPT_PER_ZIP } from './addresses.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';

/** "parcel 5393601635", "parcel id 079500-0620", "parcel #2-04607-0042", "APN 123-456", "PIN 5393601635". */
export const PARCEL = /\b(?:parcel(?:\s+(?:id|number|no\.?|#))?|apn|pin|tax\s+(?:parcel|lot)\s+(?:id|number))\s*(?:#|:)?\s*([0-9][0-9/-]{4,16}[0-9])\b/i;
const MARKET = new Set(['comps', 'trends', 'rehab', 'investor', 'location']);

/** A parcel's place as its property record keeps it. */
export interface ParcelPlace { zip: string; city: string | null; state: string; address: string | null }

/** The build's property record, opened when a question first names a parcel; absent in a build without it. */
export class ParcelBook {
  private engine: PropertyEngine | null | undefined;
  constructor(private readonly dir: string) {}
  static ofBuild(buildDir: string): ParcelBook { return new ParcelBook(buildDir); }

  private load(): PropertyEngine | null {
    if (this.engine === undefined) {
      try {
        // the build's own id and day, so the property endpoint and the research share one engine (loadEngine)
        const m = JSON.parse(fs.readFileSync(path.join(this.dir, 'manifest.json'), 'utf8')) as { build_id?: string; as_of?: string };
        this.engine = loadEngine({ dir: this.dir, buildId: m.build_id ?? path.basename(this.dir), asOf: m.as_of ?? '' });
      } catch { this.engine = null; }
    }
    return this.engine;
  }

  get available(): boolean { return this.load() !== null; }

  /** The place of a parcel id in a state (in each form its source documents: warehouse/parcel-id.ts); null when none. */
  find(state: string, id: string): ParcelPlace | null {
    const e = this.load();
    const pid = e?.parcel(state, id)[0];
    const b = pid ? e!.record(pid)?.rec.body : undefined;
    if (!b?.zip) return null;
    const s = (k: string): string | null => (b[k] as string | null | undefined) ?? null;
    return { zip: b.zip, city: s('city'), state: s('state') ?? state, address: s('address') };
  }
}

/** The parcel a market question names, read into its place (in place): its zip when the property record holds it in
 *  the state the question names (said), else said not found with the place the answer is for. */
export function readParcel(u: Understanding, query: string, book: ParcelBook | null, state?: string): void {
  const m = PARCEL.exec(query);
  if (!m || !u.intents.length || !u.intents.every((i) => MARKET.has(i))) return;
  const id = m[1]!;
  const st = u.targets.find((t) => t.state)?.state ?? state;
  if (!st) {
    u.readAs.push(`parcel ${id}: a parcel id is looked up within a state; name the state or county for its zip's figures`);
    return;
  }
  const found = book?.find(st, id) ?? null;
  if (found) {
    const t: Target = { state: found.state, zip: found.zip, ...(found.city ? { city: found.city } : {}), from: 'query' };
    u.targets.splice(0, u.targets.length, t);
    u.comparison = false;
    const where = [found.address, found.city, found.state].filter(Boolean).join(', ');
    u.readAs.push(`parcel ${id} as zip ${found.zip} (${where} in the property record, GET /v1/property?parcel_id=${id}&state=${st}): ${KEPT_PER_ZIP} parcel`);
    return;
  }
  const place = u.targets.find((t) => t.zip || t.city || t.area);
  const where = place ? `${place.zip ? `zip ${place.zip}` : place.area?.name ?? place.city}, ${place.state} as a whole` : `${st} as a whole`;
  u.readAs.push(`parcel ${id}: ${book?.available ? `no property with that parcel id in ${st} in the property record` : 'this build has no property record'}, so it is not placed in a zip; the answer is for ${where}`);
}
