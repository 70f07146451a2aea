// The research question set's oracles (oracle-research-legal.ts, -market.ts, -location.ts) read the shared real
// build's warehouse through one read-only connection, opened before the question set runs: the canonical tables, the
// raw files it holds, and the active `regulations` records (the lowest id wins a subcategory, warehouse/docs/legal.md).
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openWarehouse, queryRows, type Warehouse } from '../../warehouse/db.ts';
import { CITY_NAMES, SET, type Sources } from './research-questions.ts';

export const round1 = (v: number): number => Math.round(v * 10) / 10;
export const clamp = (v: number): number => Math.max(0, Math.min(100, v));

// ---- the warehouse, read-only, one connection for the question set ----
let wh: Warehouse | null = null;
let conn: DuckDBConnection | null = null;
export async function sql<T>(text: string, params?: Record<string, unknown>): Promise<T[]> {
  if (!conn) throw new Error('the warehouse is not open');
  return queryRows<T>(conn, text, params);
}
export const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Active regulation records of the warehouse, by state|category|subcategory (state level) or state|city|category|subcategory. */
export interface RegRow { id: string; jurisdiction_level: string; state_code: string; county_fips: string | null; city: string | null; category: string; subcategory: string; source_citation: string | null; structured_data: string }
export let regs = new Map<string, RegRow>();
export let regRows: RegRow[] = [];
export const regKey = (st: string, cat: string, sub: string, city?: string): string => `${st}|${city ?? ''}|${cat}|${sub}`;
/** A record is cited when its own citation (or, without one, its id) is among the sources. */
export const citesRecord = (r: RegRow) => (sources: Sources): boolean => sources.some((s) => (r.source_citation !== null && s.citation === r.source_citation) || s.citation.includes(r.id));
export const sd = (r: RegRow | undefined): Record<string, unknown> | null => (r ? JSON.parse(r.structured_data) as Record<string, unknown> : null);
export const slugOf = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
export let cityCounty = new Map<string, string>(); // state|city slug -> county fips (raw simplemaps)

/** Opens the build's warehouse and reads the regulation records, the cities they and the question set name, and the
 *  county of each city. */
export async function openResearchOracle(build: string): Promise<void> {
  wh = await openWarehouse(path.join(build, 'warehouse.duckdb'), { readOnly: true });
  conn = await wh.connect();
  regRows = await sql<RegRow>(`select id, jurisdiction_level, state_code, county_fips, city, category, subcategory, source_citation, structured_data::varchar as structured_data
    from regulations where status = 'active' and jurisdiction_level in ('state', 'county', 'city') order by id`);
  // when two active records share a subcategory, the lowest id wins (warehouse/docs/legal.md): keep the first
  regs = new Map();
  for (const r of regRows) {
    if (r.jurisdiction_level === 'county') continue;
    const k = regKey(r.state_code, r.category, r.subcategory, r.jurisdiction_level === 'city' ? r.city ?? '' : undefined);
    if (!regs.has(k)) regs.set(k, r);
  }
  for (const r of regRows) if (r.jurisdiction_level === 'city' && r.city) CITY_NAMES.add(r.city);
  for (const q of SET.questions) for (const e of q.expect) { const c = e.keys?.['city'] ?? e.record?.city ?? e.cityZips?.city; if (c) CITY_NAMES.add(c); }
  const cities = await sql<{ st: string; city: string; county: string }>('select state_id as st, city, lpad(county_fips, 5, \'0\') as county from raw.simplemaps__cities');
  cityCounty = new Map(cities.map((c) => [`${c.st}|${slugOf(c.city)}`, c.county]));
}
export function closeResearchOracle(): void {
  conn?.closeSync();
  wh?.close();
}
