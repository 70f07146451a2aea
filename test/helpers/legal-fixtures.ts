// Helpers for the legal-domain tests: the spec's regulation categories and a regulation record built from a few
// fields (the record shape is warehouse/regulations/SCHEMA.md's).
import type { RegulationRecord } from '../../warehouse/regulations/schema.ts';

// the nine categories of interface-v1.md (Regulation object), in the spec's order
export const CATEGORIES = ['landlord_tenant', 'eviction', 'creative_finance', 'adverse_possession', 'foreclosure', 'zoning', 'disclosure', 'rent_control', 'tax_deed_lien'];

export type Sd = Record<string, unknown>;
/** A state-level active record of one subcategory; `o` overrides any field. */
export function rec(st: string, category: string, subcategory: string, sd: Sd, o: Partial<RegulationRecord> = {}): RegulationRecord {
  return {
    id: `${st.toLowerCase()}-${category}-${subcategory}`.replaceAll('_', '-'),
    jurisdiction_level: 'state', state_code: st, county_fips: null, city: null,
    category: category as RegulationRecord['category'], subcategory,
    title: `${st} ${subcategory}`, summary: `${st} ${subcategory} rule.`,
    structured_data: { ...sd, uncertain_fields: [] }, source_citation: `${st} Code ${subcategory}`, source_url: null,
    effective_date: null, status: 'active', verified_at: null, last_reviewed_at: '2026-11-21', ...o,
  };
}
