// The 404 of a market whose records are all flagged not arm's-length (review 18), naming its sales source. Read once
// per build folder: live/research/sales-cover.json (live/research/sales-cover-build.ts, the rows of mart_market_source:
// every zip and city with a sale record of any kind, its sources, its `source` and its arm's-length and flagged
// counts; and a zip's permits and filings, for the rehab 404, with the permits of its window: market.json's permit_counts). The answers' own additive `source` is written in their shards from the same mart column
// (pipelines/shards/comps.sql, rehab.sql, investor.sql, trends.sql), so it is composed once, in SQL. A build without
// the file (older than it) has an empty cover: a market without a trends shard keeps the "no sales source" 404.
import fs from 'node:fs';
import path from 'node:path';
import type { LoadedBuild } from './builds.ts';
import type { SalesCover, SalesCoverFile } from '../live/research/sales-cover-build.ts';
import type { PermitCounts, PermitKind, PermitMonths } from '../live/research/permit-kinds.ts';
import { slug } from '../warehouse/layout.ts';

const byDir = new Map<string, SalesCoverFile>();

function coverOfBuild(dir: string): SalesCoverFile {
  let hit = byDir.get(dir);
  if (!hit) {
    hit = {};
    try { hit = JSON.parse(fs.readFileSync(path.join(dir, 'live', 'research', 'sales-cover.json'), 'utf8')) as SalesCoverFile; } catch { /* an older build */ }
    if (byDir.size > 8) byDir.clear();
    byDir.set(dir, hit);
  }
  return hit;
}

type MarketKeys = { zip: unknown } | { state: unknown; city: unknown };
const keyOf = (keys: MarketKeys): string | null =>
  'zip' in keys ? (typeof keys.zip === 'string' ? `zip|${keys.zip}` : null)
    : typeof keys.state === 'string' && typeof keys.city === 'string' ? `city|${keys.state.toUpperCase()}|${slug(keys.city)}` : null;

/** The sale records of a market (a zip, or a state and city), any kind: null where no sales source records one. */
export function salesCoverOf(build: LoadedBuild, keys: MarketKeys): SalesCover | null {
  const k = keyOf(keys);
  return k === null ? null : coverOfBuild(build.dir)[k] ?? null;
}

/** The 404 of a market a sales source covers with no arm's-length sale (all its records flagged), or null when no
 *  source records a sale there. `what`: what there is none of ("sfr sales to compare"). */
export function flaggedOnly(build: LoadedBuild, keys: MarketKeys, where: string, what: string): string | null {
  const cover = salesCoverOf(build, keys);
  const source = cover?.source;
  if (!cover || !source || cover.arms_length > 0) return null;
  const why = Object.entries(cover.reasons).map(([r, n]) => `${r.replaceAll('_', ' ')}: ${n}`).join(', ');
  const records = cover.flagged === 1 ? 'its 1 sale record there is' : `all ${cover.flagged} of its sale records there are`;
  return `The ${source.name} source (${source.id}) covers ${where}, but ${records} flagged not arm's-length (${why}), and the market endpoints count arm's-length sales only: no ${what}`;
}

/** A market's arm's-length sales in this build (0 where no sales source records one). */
export function armsLengthSales(build: LoadedBuild, keys: MarketKeys): number {
  return salesCoverOf(build, keys)?.arms_length ?? 0;
}

/** Whether any sales source records a sale (arm's-length or flagged) of a market (a zip of permits or filings alone
 *  has an entry with no source). */
export function salesRecorded(build: LoadedBuild, keys: MarketKeys): boolean {
  return (salesCoverOf(build, keys)?.sources.length ?? 0) > 0;
}

/** A zip's permits that count in it and its filings, as the build recorded them, and the permit sources whose area
 *  holds it where it is a PO-box or unique zip without one (absent where none, or in an older build). */
export function zipRecords(build: LoadedBuild, zip: string): Pick<SalesCover, 'permits' | 'distress' | 'unaddressed'> {
  const cover = salesCoverOf(build, { zip });
  return { permits: cover?.permits, distress: cover?.distress, unaddressed: cover?.unaddressed };
}

/** The 404 of a zip no sales source records a sale in, whose city one does (review 23 #2: Denver's 80205 and Seattle's
 *  98101 were told the build's sources were "files of other markets"): the city's source and count, and why the zip has
 *  none (its records carry no zip code, or none has this one), with the city endpoints to ask instead (`askCity`: the
 *  comps and trends 404; comps take no city, h25: "ask for the city instead (city=Denver&state=CO)" was a 400 there);
 *  null otherwise. */
export function zipOfCoveredCity(build: LoadedBuild, zip: string, what: string, askCity = true): string | null {
  const c = salesCoverOf(build, { zip })?.city;
  if (!c) return null;
  const by = c.source ? `the ${c.source.name} source (${c.source.id})` : 'a sales source of this build';
  const none = c.zipless ? `its records carry no zip code, so no zip of ${c.city} has sales of its own` : `none of them is recorded in this zip`;
  return `No ${what} for zip ${zip}: ${by} records ${c.arms_length.toLocaleString('en-US')} arm's-length sales in ${c.city}, ${c.state}, the zip's city, but ${none}${askCity ? `; ask for the city's trends or investor overview instead (city=${c.city}&state=${c.state}; comps are by zip only)` : ''}`;
}

/** The permit counts of the research index (market.json `permit_counts` and `permit_months.spans`, live/research/
 *  permit-counts-build.ts), read once per build folder; empty in a build without them. */
const permitsByDir = new Map<string, { counts: PermitCounts; spans: PermitMonths['spans'] }>();
function permitsOfBuild(dir: string): { counts: PermitCounts; spans: PermitMonths['spans'] } {
  let hit = permitsByDir.get(dir);
  if (!hit) {
    hit = { counts: {}, spans: {} };
    try {
      const m = JSON.parse(fs.readFileSync(path.join(dir, 'live', 'research', 'market.json'), 'utf8')) as { permit_counts?: PermitCounts; permit_months?: PermitMonths };
      hit = { counts: m.permit_counts ?? {}, spans: m.permit_months?.spans ?? {} };
    } catch { /* an older build */ }
    if (permitsByDir.size > 8) permitsByDir.clear();
    permitsByDir.set(dir, hit);
  }
  return hit;
}

/** The permit types a residential rehab permit is one of (warehouse/macros.sql is_residential_rehab): market.json counts
 *  a window's permits by type, not by the building's use, so these are rehab permits on residential buildings or not. */
const REHAB_TYPES: readonly PermitKind[] = ['renovation', 'addition', 'repair'];

/** A zip's permits in the rehab score's permit window (warehouse/docs/market.md mart_rehab "Window": the `months` to
 *  the last permit of its permit sources, (as_of - months, as_of]): `n` of every type and use, `rehabTypes` of them of
 *  a rehab type (REHAB_TYPES, whatever the use), `rehab` the residential rehab ones the score counts and `useUnrecorded`
 *  of those the ones whose use the source does not record (the score's own counts, mart_rehab_permits, sales-cover.json;
 *  null in an older build, whose market.json counts by type only); and the first and last permit day of those sources'
 *  files; null where the build has no such counts (1..24 months only). */
export function zipWindowPermits(build: LoadedBuild, zip: string, sources: readonly string[], months: number): { n: number; rehabTypes: number; rehab: number | null; useUnrecorded: number | null; asOf: string; file: [string, string] } | null {
  const { counts, spans } = permitsOfBuild(build.dir);
  const files = sources.map((s) => spans[s]).filter((x): x is [string, string] => x !== undefined);
  if (files.length === 0 || files.length < sources.length || !(months >= 1 && months <= 24)) return null;
  const file: [string, string] = [files.map((f) => f[0]).sort()[0]!, files.map((f) => f[1]).sort().at(-1)!];
  const scored = zipRecords(build, zip).permits?.windows;
  const w = scored?.counts[months - 3];
  if (scored && w) return { n: w[0], rehabTypes: w[1], rehab: w[2], useUnrecorded: w[3], asOf: scored.as_of, file };
  const c = counts[`zip|${zip}`]; // no entry: no permit of the zip in the 24 months to its sources' end
  const inWindow = (kinds: readonly string[]) => (c ? Object.entries(c[2]).filter(([k]) => kinds.includes(k)).reduce((a, [, byWindow]) => a + (byWindow[months - 1] ?? 0), 0) : 0);
  return { n: inWindow(Object.keys(c?.[2] ?? {})), rehabTypes: inWindow(REHAB_TYPES), rehab: null, useUnrecorded: null, asOf: c?.[0] ?? file[1], file };
}
