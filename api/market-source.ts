// The 404 of a market whose records are all flagged not arm's-length (review 18), naming its sales source. Read once
// per build folder: live/research/sales-cover.json (live/research/sales-cover-build.ts, the rows of mart_market_source:
// every zip and city with a sale record of any kind, its sources and its arm's-length and flagged counts) and the
// manifest's sources (id, title, vintage). The answers' own additive `source` is written in their shards from the same
// mart (pipelines/shards/comps.sql, rehab.sql, investor.sql, trends.sql). A build without the file (older than it) has
// an empty cover: a market without a trends shard keeps the "no sales source" 404.
import fs from 'node:fs';
import path from 'node:path';
import type { LoadedBuild } from './builds.ts';
import type { SalesCover, SalesCoverFile } from '../live/research/sales-cover-build.ts';
import { slug } from '../warehouse/layout.ts';

/** The sales source of a market's records, as the build's manifest names it (a shard's `source` has the same value). */
export interface MarketSource { id: string; name: string; vintage: string | null }

interface BuildCover { cover: SalesCoverFile; names: Map<string, { title: string; vintage: string | null }> }
const byDir = new Map<string, BuildCover>();

function coverOfBuild(dir: string): BuildCover {
  let hit = byDir.get(dir);
  if (!hit) {
    hit = { cover: {}, names: new Map() };
    try { hit.cover = JSON.parse(fs.readFileSync(path.join(dir, 'live', 'research', 'sales-cover.json'), 'utf8')) as SalesCoverFile; } catch { /* an older build */ }
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { sources?: { id: string; title?: string; vintage?: string }[] };
      for (const s of manifest.sources ?? []) hit.names.set(s.id, { title: s.title ?? s.id, vintage: s.vintage ?? null });
    } catch { /* no names: ids stand for them */ }
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
  return k === null ? null : coverOfBuild(build.dir).cover[k] ?? null;
}

/** The market's sales source (several: their ids and names joined), null where none records a sale there. */
export function marketSource(build: LoadedBuild, keys: MarketKeys): MarketSource | null {
  const cover = salesCoverOf(build, keys);
  if (!cover || cover.sources.length === 0) return null;
  const { names } = coverOfBuild(build.dir);
  const named = cover.sources.map((id) => ({ id, ...(names.get(id) ?? { title: id, vintage: null }) }));
  return {
    id: named.map((s) => s.id).join('+'), name: named.map((s) => s.title).join('; '),
    vintage: named.every((s) => s.vintage === null) ? null : named.map((s) => s.vintage ?? '?').join('; '),
  };
}

/** The 404 of a market a sales source covers with no arm's-length sale (all its records flagged), or null when no
 *  source records a sale there. `what`: what there is none of ("sfr sales to compare"). */
export function flaggedOnly(build: LoadedBuild, keys: MarketKeys, where: string, what: string): string | null {
  const cover = salesCoverOf(build, keys);
  const source = marketSource(build, keys);
  if (!cover || !source || cover.arms_length > 0) return null;
  const why = Object.entries(cover.reasons).map(([r, n]) => `${r.replaceAll('_', ' ')}: ${n}`).join(', ');
  const records = cover.flagged === 1 ? 'its 1 sale record there is' : `all ${cover.flagged} of its sale records there are`;
  return `The ${source.name} source (${source.id}) covers ${where}, but ${records} flagged not arm's-length (${why}), and the market endpoints count arm's-length sales only: no ${what}`;
}
