// The `links` of a property answer: the requests that answer for its zip. Each names a shard the build has, or is
// null: a link that answers 404 is worse than none (review 30: a Louisville parcel linked /v1/market/comps?zip=40212,
// a zip no sales source covers). The comps link asks the record's own property type where the comps have one (else
// sfr, the endpoint's default; none for a co-op) over the shortest window of 6 (the default), 12 or 24 months that has such sales;
// parameters at their defaults are left out.
import { shardPath, type FamilyName } from '../../warehouse/layout.ts';
import { PROPERTY_TYPES } from '../../warehouse/property-types.ts';

export interface PropertyLinks { comps: string | null; location_risk: string | null }

const WINDOWS = [6, 12, 24] as const;

/** `hasShard(rel)`: whether the build holds the shard file at `rel` (under its shards/ folder). */
export function propertyLinks(zip: string | null | undefined, propertyType: unknown, hasShard: (rel: string) => boolean): PropertyLinks {
  if (!zip) return { comps: null, location_risk: null };
  const has = (family: FamilyName, keys: Record<string, string>): boolean => {
    const p = shardPath(family, keys);
    return p.ok && hasShard(p.path);
  };
  const type = (PROPERTY_TYPES as readonly unknown[]).includes(propertyType) ? String(propertyType) : 'sfr';
  // a co-op apartment has no comps: no property type of the comps covers co-ops (market.md "Co-ops"), and sfr's are not its
  const months = propertyType === 'coop' ? undefined : WINDOWS.find((m) => has('comps', { zip, property_type: type, months: String(m) }));
  const query = [`zip=${zip}`, ...(type !== 'sfr' ? [`property_type=${type}`] : []), ...(months && months !== 6 ? [`months=${months}`] : [])];
  return {
    comps: months ? `/v1/market/comps?${query.join('&')}` : null,
    location_risk: has('location-zip', { zip }) ? `/v1/location/risk?zip=${zip}` : null,
  };
}
