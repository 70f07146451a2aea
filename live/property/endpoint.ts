// GET /v1/property: one property's facts, sales, permits and distress filings, with ?include=lineage the source row of
// every field. Answered in-process from <build>/live/property/ (live/property/build.ts), each file read when a request
// first needs it (live/property/engine.ts). The core has validated the parameters (api/routes.ts): exactly one of
// property_id, address + zip, parcel_id + state. Rules: warehouse/docs/property.md.
import fs from 'node:fs';
import path from 'node:path';
import { lastBuildOnly, unavailable, type BuildKey, type LiveBuild, type LiveInstance, type LiveModule } from '../../warehouse/live.ts';
import { PropertyEngine, type PropertyInput } from './engine.ts';
import { addressPlaceNames } from '../places/address-place.ts';
import { loadResolver } from '../places/endpoint.ts';
import { PROPERTY_FORMAT, type PropertyMeta } from './layout.ts';

/** The engine over a build folder; null when the build has no complete property data. The last one made is given
 *  again for the same build (lastBuildOnly): GET /v1/property and the valuation (its subject's property) share one
 *  engine, so the files they read are parsed and kept once (each engine keeps up to 256 of each kind). */
export const loadEngine: (build: BuildKey) => PropertyEngine | null = lastBuildOnly((build) => makeEngine(build));

function makeEngine(build: BuildKey): PropertyEngine | null {
  const dir = path.join(build.dir, 'live', 'property');
  const metaFile = path.join(dir, 'meta.json');
  if (!fs.existsSync(metaFile)) return null;
  const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as PropertyMeta;
  if (meta.format !== PROPERTY_FORMAT) return null;
  const read = (rel: string): Buffer | null => {
    try {
      return fs.readFileSync(path.join(dir, rel));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };
  // a full address's place ("..., Philadelphia, Pennsylvania 19146", "... Bronx NY") read by the build's place names
  const resolver = loadResolver(build.dir);
  // whether the build has a shard a record's links name (links.ts): a build's shards never change, so each is looked up once
  const shardKnown = new Map<string, boolean>();
  return new PropertyEngine(read, { buildId: build.buildId, asOf: build.asOf, sourceAsOf: meta.source_as_of ?? {}, sourceKindAsOf: meta.source_kind_as_of ?? {}, parcelOnlyZips: meta.parcel_only_zips ?? {},
    hasShard: (rel) => { let h = shardKnown.get(rel); if (h === undefined) shardKnown.set(rel, h = fs.existsSync(path.join(build.dir, 'shards', rel))); return h; } }, addressPlaceNames(resolver, null), resolver);
}

const property: LiveModule<PropertyInput> = {
  name: 'property',
  async load(build: LiveBuild): Promise<LiveInstance<PropertyInput>> {
    const engine = loadEngine(build);
    if (!engine) return unavailable(`Property data is not available in build ${build.buildId}`);
    return { handle: (input) => engine.answer(input) };
  },
};

export default property;
