// The `links` of a property answer (live/property/links.ts): a co-op apartment (F7: New York City's co-ops, property_type
// 'coop', which no comps type covers) links no comps, not the single-family comps the endpoint defaults to.
import { describe, expect, it } from 'vitest';
import { propertyLinks } from '../../../live/property/links.ts';

describe('property links', () => {
  const every = (): boolean => true;
  it('a condo links its condo comps, a co-op none', () => {
    expect(propertyLinks('11375', 'condo', every).comps).toBe('/v1/market/comps?zip=11375&property_type=condo');
    expect(propertyLinks('11375', 'coop', every)).toEqual({ comps: null, location_risk: '/v1/location/risk?zip=11375' });
    expect(propertyLinks('11375', null, every).comps).toBe('/v1/market/comps?zip=11375');
  });
});
