// A PO-box or unique zip (no Census ZCTA) in the area a permit source covers (mart_rehab_unaddressed, sales-cover.json
// `unaddressed`) has no rehab score: no area of its own, so no housing unit count and no permit rate, and no street
// address of a home. One wording for the rehab 404 (api/rehab-not-found.ts) and research's rehab answer
// (rehab-facts.ts), so the two say the same (h27: research answered "We have no renovation permit data for zip 37202"
// where the endpoint said the Nashville source covers the zip's county; Vanderbilt's unique zip 37240, whose one
// $13.2M renovation is recorded, read only "the zip has no housing unit count").
import fs from 'node:fs';
import type { PermitCover, SalesCoverFile, Unaddressed } from './sales-cover-build.ts';

/** "1 building permit in the zip (not a residential rehab permit)": a zip's permits and how many are residential rehab. */
export function permitsInZip(p: Pick<PermitCover, 'n' | 'rehab'>): string {
  const records = p.n === 1 ? '1 building permit' : `${p.n} building permits`;
  const rehab = p.rehab === p.n ? (p.n === 1 ? 'a residential rehab permit' : 'all residential rehab permits')
    : p.rehab === 0 ? (p.n === 1 ? 'not a residential rehab permit' : 'none of them a residential rehab permit')
    : `${p.rehab} of them ${p.rehab === 1 ? 'a residential rehab permit' : 'residential rehab permits'}`;
  return `${records} in the zip (${rehab})`;
}

/** Why such a zip with no sale record has no rehab score, after "<zip>: ", and what to ask instead. `p`: the permits
 *  that count in it, where any (a unique zip's: 37240); `window`: the endpoint's words on its sources' files and the
 *  window asked (" in its whole file, ...; it falls in the 12 months to ..."), empty where not known. */
export function unaddressedWhy(u: Unaddressed, p?: PermitCover, window = ''): { why: string; ask: string } {
  const covers = u.sources.map((s) => `the ${s.name} source (${s.id}) covers ${s.area}`).join(' and ');
  const lead = `it is a PO-box or unique zip of ${u.city}, ${u.state} (no Census ZCTA)`;
  if (!p || p.n === 0) {
    return { why: `${lead}: it has no street addresses, so no building permit or home sale is recorded in it, though ${covers}, the zip's area (each permit is recorded in the zip of its street address)`, ask: 'ask for the zip of an address' };
  }
  // the covering sources are the recording ones (every permit of 37240 is Nashville's): "it records"
  const same = p.sources.map((s) => s.id).sort().join() === u.sources.map((s) => s.id).sort().join();
  const by = same ? (u.sources.length === 1 ? 'it records' : 'they record') : `${p.sources.map((s) => `the ${s.name} source (${s.id})`).join(' and ')} records`;
  return { why: `${lead}: it has no area of its own, so no housing unit count and no permit rate, and no home sale is recorded in it, though ${covers}, the zip's area; ${by} ${permitsInZip(p)}${window}`, ask: "ask for the zip of a home's street address" };
}

/** The rehab 404 message of such a zip (api/rehab-not-found.ts). */
export function unaddressedMessage(zip: string, u: Unaddressed, p?: PermitCover, window = ''): string {
  const { why, ask } = unaddressedWhy(u, p, window);
  return `No renovation data for zip ${zip}: ${why}; no rehab score can be computed for this zip: ${ask}`;
}

/** A zip's PO-box record and its permits, where it is such a zip with no sale record (the rehab 404's test). */
export type UnaddressedOf = (zip: string) => { unaddressed: Unaddressed; permits?: PermitCover } | null;
export const NO_UNADDRESSED: UnaddressedOf = () => null;

/** The build's sales-cover.json, read at the first question that needs it (an older build without it: none). */
export function unaddressedOfFile(file: string): UnaddressedOf {
  let cover: SalesCoverFile | null | undefined;
  return (zip) => {
    if (cover === undefined) cover = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) as SalesCoverFile : null;
    const c = cover?.[`zip|${zip}`];
    return c?.unaddressed && c.sources.length === 0 ? { unaddressed: c.unaddressed, ...(c.permits ? { permits: c.permits } : {}) } : null;
  };
}
