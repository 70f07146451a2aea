// The property types of the canonical sales and parcels tables (warehouse/docs/market.md) and of the API's
// property_type parameter: one list, in this order (the valuation's comp files store a type as its index here).
// The SQL side is the macro property_types() in warehouse/macros.sql; test/warehouse/property-types.test.ts
// checks that both say the same.
export const PROPERTY_TYPES = ['sfr', 'multi', 'condo', 'land', 'commercial'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];
