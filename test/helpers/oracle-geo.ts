// Independent oracles for test/api/values-geo-legal.test.ts. Nothing here imports the product: the raw public files
// are read in place with DuckDB read_csv, legal-facts.csv with csv-parse, the authored regulations dataset as its own
// JSON files, and every formula is written here from its prose in warehouse/docs/geo.md and warehouse/docs/legal.md.
// Over 300 lines: the geo and legal oracles stay one module (the raw-file reader RawGeo and the formulas it feeds), since
// the city parts (New York City's boroughs) joined them.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

import { REPO, SHARED_DATA } from './paths.ts';
export { REPO };
/** Raw sources: $REII_SOURCES (as the build reads them), else ../shared/data beside the checkout. */
export const SOURCES = SHARED_DATA;
export const LEGAL_FACTS_CSV = path.resolve(SOURCES, '../reference/legal-facts.csv');
const DATASET = path.join(REPO, 'warehouse/regulations');

// ---------------------------------------------------------------- small rules written from the docs

/** Accent- and case-insensitive name key (geo.md: "matches by slug (case- and accent-insensitive)"). */
export function nameKey(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).join('-');
}

const clamp = (x: number): number => Math.min(100, Math.max(0, x));
const round1 = (x: number): number => Math.round(x * 10) / 10;

/** legal.md label bands. */
export function friendlinessLabel(score: number): string {
  if (score >= 85) return 'Very Landlord-Friendly';
  if (score >= 70) return 'Landlord-Friendly';
  if (score >= 55) return 'Balanced';
  if (score >= 40) return 'Tenant-Friendly';
  return 'Very Tenant-Friendly';
}

export function riskLabel(score: number): string {
  if (score < 20) return 'Low';
  if (score < 35) return 'Moderate';
  if (score < 50) return 'Elevated';
  if (score < 65) return 'High';
  return 'Very High';
}

// ---------------------------------------------------------------- legal-facts.csv

export interface Fact {
  state_code: string;
  state_name: string;
  foreclosure_type: string;
  foreclosure_note: string;
  tax_sale_type: string;
  tax_lien_interest_rate_pct: string;
  tax_rate_basis: string;
  redemption_period_months: string;
  rent_control_preemption: string;
  statewide_rent_control: string;
  adverse_possession_years: string;
  adverse_possession_color_of_title_years: string;
  eviction_notice_nonpayment_days: string;
  eviction_notice_note: string;
  security_deposit_limit_months: string;
  security_deposit_note: string;
  eviction_timeline_days_est: string;
  uncertain_fields: string;
}

export function legalFacts(): Map<string, Fact> {
  const rows = parse(fs.readFileSync(LEGAL_FACTS_CSV), { columns: true, skip_empty_lines: true, bom: true }) as Fact[];
  return new Map(rows.map((r) => [r.state_code, r]));
}

export const num = (s: string): number | null => (s.trim() === '' ? null : Number(s));

/** How the CSV's note says notice days are counted: business / judicial days, else calendar (null: not said). */
export function noticeDayType(f: Fact): 'business' | 'judicial' | null {
  const note = f.eviction_notice_note.toLowerCase();
  if (/judicial days/.test(note)) return 'judicial';
  if (/business days|excludes (saturdays|weekends)/.test(note)) return 'business';
  return null;
}

export function timeline(f: Fact): { min: number; max: number } | null {
  const m = /^(\d+)-(\d+)$/.exec(f.eviction_timeline_days_est.trim());
  return m ? { min: Number(m[1]), max: Number(m[2]) } : null;
}

export interface Friendliness {
  components: { nonpayment_notice: number; eviction_timeline: number; security_deposit: number; rent_control_preemption: number; statewide_rent_cap: number; just_cause: number };
  /** unrounded weighted mean */
  exact: number;
  score: number;
  label: string;
}

/** legal.md "Landlord friendliness": six components from the CSV (just cause from the dataset), missing input 50. */
export function friendliness(f: Fact, justCauseRequired: boolean): Friendliness {
  const days = num(f.eviction_notice_nonpayment_days);
  const perDay = noticeDayType(f) === null ? 1 : 1.4;
  const notice = days === null ? 50 : days === 0 ? 100 : clamp(100 - (days * perDay - 3) * 100 / 27);
  const t = timeline(f);
  const tl = t === null ? 50 : clamp(100 - ((t.min + t.max) / 2 - 21) * 100 / 99);
  const dep = f.security_deposit_limit_months.trim();
  const deposit = dep === 'none' ? 100 : dep === '' ? 50 : clamp(10 + 30 * Number(dep));
  const preemption = ({ yes: 100, partial: 50, no: 0 } as Record<string, number>)[f.rent_control_preemption] ?? 50;
  const statewide = f.statewide_rent_control === 'yes' ? 0 : f.statewide_rent_control === 'no' ? 100 : 50;
  const jc = justCauseRequired ? 0 : 100;
  const exact = 0.15 * notice + 0.20 * tl + 0.15 * deposit + 0.20 * preemption + 0.15 * statewide + 0.15 * jc;
  const score = round1(exact);
  return {
    components: { nonpayment_notice: notice, eviction_timeline: tl, security_deposit: deposit, rent_control_preemption: preemption, statewide_rent_cap: statewide, just_cause: jc },
    exact, score, label: friendlinessLabel(score),
  };
}

/** legal.md squatter risk: period <= 7 y 2 points, <= 15 y 1; +1 if the estimate can exceed 60 days; +1 if friendliness < 55. */
export function squatterRisk(f: Fact, friendlinessScore: number): string {
  const years = Number(f.adverse_possession_years);
  let points = years <= 7 ? 2 : years <= 15 ? 1 : 0;
  if ((timeline(f)?.max ?? 0) > 60) points += 1;
  if (friendlinessScore < 55) points += 1;
  return points >= 3 ? 'High' : points === 2 ? 'Moderate' : 'Low';
}

// ---------------------------------------------------------------- the authored regulations dataset, as files

export interface Reg {
  id: string;
  jurisdiction_level: string;
  state_code: string;
  county_fips: string | null;
  city: string | null;
  category: string;
  subcategory: string;
  structured_data: Record<string, unknown>;
  status: string;
  last_reviewed_at: string;
}

export function regulationsDataset(): Reg[] {
  const out: Reg[] = [];
  for (const dir of ['states', 'local']) {
    for (const f of fs.readdirSync(path.join(DATASET, dir)).filter((x) => x.endsWith('.json')).sort()) {
      out.push(...(JSON.parse(fs.readFileSync(path.join(DATASET, dir, f), 'utf8')) as Reg[]));
    }
  }
  return out;
}

export function justCauseRequired(regs: Reg[], state: string): boolean {
  return regs.some((r) => r.state_code === state && r.status === 'active' && r.jurisdiction_level === 'state'
    && r.category === 'eviction' && r.subcategory === 'just_cause' && r.structured_data['just_cause_required'] === true);
}

export interface Overlay {
  /** the city's own active overlay records */
  city: Reg[];
  /** the active county overlay records of the city's county, when the city has none of its own */
  county: Reg[];
  cityRentControl: boolean;
  cityEviction: boolean;
  countyRentControl: boolean;
  countyEviction: boolean;
}

/** legal.md "Overlays": a city's own records count; a county's only for cities of that county without their own, and
 *  a county record of unincorporated areas only (unincorporated_only) never for an incorporated city (simplemaps). */
export function overlayFor(regs: Reg[], state: string, city: string, countyFips: string | null, incorporated: boolean | null = null): Overlay {
  const active = regs.filter((r) => r.status === 'active' && r.state_code === state && r.subcategory === 'local_overlay');
  const own = active.filter((r) => r.jurisdiction_level === 'city' && r.city !== null && nameKey(r.city) === nameKey(city));
  const county = own.length ? [] : active.filter((r) => r.jurisdiction_level === 'county' && r.county_fips === countyFips
    && !(r.structured_data['unincorporated_only'] === true && incorporated === true));
  const any = (rs: Reg[], k: string): boolean => rs.some((r) => r.structured_data[k] === true);
  return {
    city: own, county,
    cityRentControl: any(own, 'rent_control'), cityEviction: any(own, 'eviction_protections'),
    countyRentControl: any(county, 'rent_control'), countyEviction: any(county, 'eviction_protections'),
  };
}

/** legal.md "Legal risk per market": seven weighted component risks. */
export function legalRisk(f: Fact, fr: Friendliness, ov: Overlay): number {
  const foreclosure = ({ judicial: 100, hybrid: 50, 'non-judicial': 0 } as Record<string, number>)[f.foreclosure_type] ?? 50;
  const months = num(f.redemption_period_months);
  const tax = f.tax_sale_type === 'deed' ? 0 : months === null ? 50 : Math.min(100, months / 36 * 100);
  const years = num(f.adverse_possession_years);
  const adverse = years === null ? 50 : clamp((21 - years) * 100 / 16);
  const rc = ov.cityRentControl ? 100 : ov.countyRentControl ? 50 : 0;
  const ev = ov.cityEviction ? 100 : ov.countyEviction ? 50 : 0;
  return 0.35 * (100 - fr.exact) + 0.15 * foreclosure + 0.10 * (100 - fr.components.eviction_timeline)
    + 0.15 * rc + 0.10 * ev + 0.10 * tax + 0.05 * adverse;
}

// ---------------------------------------------------------------- raw Census / OMB / simplemaps files (DuckDB read_csv)

export interface RawCity { city: string; state: string; countyFips: string; population: number | null; ranking: number | null; id: string; zips: string[]; incorporated: boolean | null }
export interface CountyFacts { name: string; cbsa: string | null; metroArea: string; tier: string }

export class RawGeo {
  private constructor(private readonly inst: DuckDBInstance, readonly conn: DuckDBConnection,
    readonly counties: Map<string, CountyFacts>) {}

  /** Loads the county side once: us_geo county names, the OMB July 2023 delineation, ACS 2023 county populations. */
  static async open(): Promise<RawGeo> {
    const inst = await DuckDBInstance.create(':memory:');
    const conn = await inst.connect();
    const rows = (await conn.runAndReadAll(`
      with names as (
        select GEOID as fips, Name as name from read_csv('${sqlPath('usgeo-census-tables/counties.csv')}', all_varchar = true)
      ), omb as (
        select "FIPS State Code" || "FIPS County Code" as fips, "CBSA Code" as cbsa, "CBSA Title" as title
        from read_csv('${sqlPath('census-cbsa-delineation-2023/list1_Jul_2023.csv')}', all_varchar = true)
      ), acs as (
        select geoid as fips, B01003_001E::bigint as pop from read_csv('${sqlPath('census-acs2023-population/acs5_2023_county_population.csv')}', all_varchar = true)
      ), cbsa_pop as (
        select cbsa, sum(pop) as pop from omb join acs using (fips) group by cbsa
      )
      select names.fips, names.name, omb.cbsa, omb.title, cbsa_pop.pop::double as cbsa_pop
      from names left join omb using (fips) left join cbsa_pop using (cbsa)`)).getRowObjectsJson() as { fips: string; name: string; cbsa: string | null; title: string | null; cbsa_pop: number | null }[];
    const counties = new Map<string, CountyFacts>();
    for (const r of rows) {
      // geo.md market tier rule, by the CBSA's ACS 2023 population (sum of its counties)
      const tier = r.cbsa === null ? 'rural' : r.cbsa_pop! >= 1_000_000 ? 'primary' : r.cbsa_pop! >= 250_000 ? 'secondary' : 'tertiary';
      counties.set(r.fips, { name: r.name, cbsa: r.cbsa, metroArea: r.title ?? '', tier });
    }
    return new RawGeo(inst, conn, counties);
  }

  async rows<T>(sql: string): Promise<T[]> {
    return (await this.conn.runAndReadAll(sql)).getRowObjectsJson() as T[];
  }

  private simplemaps: Promise<Map<string, RawCity[]>> | null = null;

  /** The simplemaps row a (state, city name) lookup resolves to: geo.md dedupe (most populous, better ranking, smaller id). */
  async simplemapsCity(state: string, city: string): Promise<RawCity | null> {
    this.simplemaps ??= this.loadSimplemaps();
    const byState = await this.simplemaps;
    const key = nameKey(city);
    const hits = (byState.get(state) ?? []).filter((r) => nameKey(r.city) === key);
    hits.sort((a, b) => (b.population ?? -1) - (a.population ?? -1) || (a.ranking ?? 9) - (b.ranking ?? 9) || a.id.localeCompare(b.id));
    return hits[0] ?? null;
  }

  private async loadSimplemaps(): Promise<Map<string, RawCity[]>> {
    const rows = await this.rows<{ city: string; state_id: string; county_fips: string; population: string | null; ranking: string | null; id: string; zips: string | null; incorporated: string | null }>(
      `select city, state_id, county_fips, population, ranking, id, zips, incorporated from read_csv('${sqlPath('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true)`);
    const byState = new Map<string, RawCity[]>();
    for (const r of rows) {
      const list = byState.get(r.state_id) ?? [];
      list.push({
        city: r.city, state: r.state_id, countyFips: r.county_fips, population: r.population === null ? null : Number(r.population),
        ranking: r.ranking === null ? null : Number(r.ranking), id: r.id, zips: (r.zips ?? '').split(/\s+/).filter(Boolean),
        incorporated: r.incorporated === null ? null : r.incorporated.toUpperCase() === 'TRUE',
      });
      byState.set(r.state_id, list);
    }
    return byState;
  }

  /** The counties a Census place spans (us_geo place_counties), for the place of that short name in the state. */
  async placeCounties(state: string, shortName: string): Promise<string[]> {
    const rows = await this.rows<{ county: string }>(`
      select pc."County GEOID" as county
      from read_csv('${sqlPath('usgeo-census-tables/places.csv.gz')}', all_varchar = true) p
      join read_csv('${sqlPath('usgeo-census-tables/place_counties.csv.gz')}', all_varchar = true) pc on pc."Place GEOID" = p.GEOID
      where p.State = '${state.replace(/[^A-Z]/g, '')}' and p."Short Name" = '${shortName.replaceAll("'", "''")}'
      order by 1`);
    return rows.map((r) => r.county);
  }

  /**
   * geo.md "int_geo_city_parts", from the raw us_geo files: a consolidated place covers its counties wholly (its land
   * area equals theirs, within 0.1%); a simplemaps city of such a county that is no Census place of its state (no place
   * of that short name, nor named in one) is a part of it. Map of 'ST|part's simplemaps name' -> the place's short name (every state when
   * none is given, else the part's name alone as the key).
   */
  async cityParts(state?: string): Promise<Map<string, string>> {
    const st = (state ?? '').replace(/[^A-Z]/g, '');
    const rows = await this.rows<{ st: string; city: string; parent: string }>(`
      with p as (
        select GEOID as g, State as st, "Short Name" as sn, "Land Area"::double as land
        from read_csv('${sqlPath('usgeo-census-tables/places.csv.gz')}', all_varchar = true)
      ), pc as (
        select distinct "Place GEOID" as g, "County GEOID" as c from read_csv('${sqlPath('usgeo-census-tables/place_counties.csv.gz')}', all_varchar = true)
      ), co as (
        select GEOID as c, "Land Area"::double as land from read_csv('${sqlPath('usgeo-census-tables/counties.csv')}', all_varchar = true)
      ), covering as (
        select pc.g, list(pc.c) as cs from pc join co using (c) join p using (g)
        group by pc.g having abs(any_value(p.land) - sum(co.land)) <= 0.001 * sum(co.land)
      )
      select distinct sm.state_id as st, sm.city, p.sn as parent
      from read_csv('${sqlPath('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true) sm
      join covering k on list_contains(k.cs, sm.county_fips)
      join p on p.g = k.g and p.st = sm.state_id
      where ('${st}' = '' or sm.state_id = '${st}') and sm.city <> p.sn
        and not exists (select 1 from p p2 where p2.st = sm.state_id and p2.sn = sm.city)
      order by 1`);
    // a simplemaps city that names the place itself is the place, not a part (geo.md "cities": a place whose name holds
    // the city's name as whole words, "Macon-Bibb County" is Macon; "Saint Louis" is St. Louis)
    const key = (x: string): string => `-${nameKey(x).replace(/^saint-/, 'st-')}-`;
    return new Map(rows.filter((r) => !key(r.parent).includes(key(r.city)))
      .map((r) => [state ? r.city : `${r.st}|${r.city}`, r.parent]));
  }

  close(): void {
    this.conn.closeSync();
    this.inst.closeSync();
  }
}

export function sqlPath(rel: string): string {
  return path.join(SOURCES, rel).replaceAll("'", "''");
}

/** What a seeded sample of markets is drawn from and checked against (test/api/h77-*-sample.test.ts): the raw files
 *  opened, legal-facts.csv, the regulations dataset, the city parts (not markets of their own), and every simplemaps
 *  row of a city of 5,000 people or more (the market list's floor, geo.md), namesakes in a state each a row. */
export async function openMarketSample(): Promise<{ geo: RawGeo; facts: Map<string, Fact>; regs: Reg[]; parts: Map<string, string>; cities: { state: string; city: string }[] }> {
  const geo = await RawGeo.open();
  const cities = await geo.rows<{ state: string; city: string }>(`
    select state_id as state, city from read_csv('${sqlPath('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true)
    where try_cast(population as double) >= 5000 order by 1, 2`);
  return { geo, facts: legalFacts(), regs: regulationsDataset(), parts: await geo.cityParts(), cities };
}
