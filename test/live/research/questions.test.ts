// Research (POST /v1/research/query): the question set test/live/research/questions.json run through the live module
// against the shared real build. Every question counts in the gate (>= 98% of all of them answered right and cited).
// Expected facts come from oracles independent of what the research module reads (its index under
// <build>/live/research/ and the build's shards): legal facts from ../shared/reference/legal-facts.csv and the
// warehouse's canonical `regulations` table; landlord friendliness and market legal risk recomputed here from the
// `regulations` records with the formulas of warehouse/docs/legal.md; comps, rehab and investor figures from our own
// SQL over the canonical `sales`, `permits` and `distress` tables and the raw ACS file; location figures from the raw
// FEMA flood GeoJSON (point-in-polygon on a grid of our own), the canonical `superfund_sites` and the raw NRI table.
// An expected figure the oracle cannot find FAILS the test, naming the question: a question never drops out of the
// count. Only a question whose data provably does not exist in any source (an independent query shows no record)
// may expect an honest "don't have", and then the answer must say so and state no figure.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { booleanPointInPolygon } from '@turf/turf';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, buildDir } from '../../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';
import { loadSettings } from '../../../warehouse/settings.ts';
import research, { acceptRephrase, llmFromSettings, numbersIn, rephraseProblem, ResearchEngine, type ResearchBody, type ResearchInput } from '../../../live/research/endpoint.ts';
import { ResearchData } from '../../../live/research/data.ts';
import { understand, detectIntents } from '../../../live/research/intent.ts';
import { countSentences } from '../../../live/research/compose.ts';
import { NOT_LEGAL_ADVICE } from '../../../live/research/facts.ts';
import { shardPath, type FamilyName } from '../../../warehouse/layout.ts';
import { fileShards } from '../../../warehouse/live.ts';
import { buildBm25, Bm25, queryTerms } from '../../../live/research/text.ts';
import { makeContext } from '../../helpers/context.ts';
import { run as runIndex } from '../../../live/research/build.ts';
import { openWarehouse, queryRows, type Warehouse } from '../../../warehouse/db.ts';
import { ARMS_LENGTH_SALES_SQL } from '../../helpers/oracle-market.ts';
import { REFERENCE, SHARED_DATA } from '../../helpers/paths.ts';

type Row = Record<string, string>;
const DATA = SHARED_DATA;
const CSV = path.join(REFERENCE, 'legal-facts.csv');
const csvRows = parse(fs.readFileSync(CSV), { columns: true, skip_empty_lines: true }) as Row[];
const byState = new Map(csvRows.map((r) => [r['state_code']!, r]));

/** A figure of a market, location or legal-risk family, computed by an oracle of this file (never read from a shard). */
type Family = 'comps' | 'rehab' | 'investor' | 'location-zip' | 'legal-market-risk';
interface Expect {
  csv?: string; state?: string; csvMax?: string; csvMin?: string; stateLegal?: string;
  family?: Family; keys?: Record<string, string>; field?: string; round?: boolean; format?: string;
  /** a regulation record of the warehouse (state, optional city) that must be cited, with a fact of it in the answer */
  record?: { state: string; city?: string; category: string; subcategory: string };
  /** with record: a structured_data field whose value must appear next to `unit` ('%', 'months', 'property'), or a
   *  string field that must appear as written */
  unit?: string;
  /** with record: a phrase the record's own rule implies, as a regular expression */
  pattern?: string;
  /** the warehouse records no local rent control ordinance for this city, and the answer must say so */
  noOverlay?: { state: string; city: string };
  /** how many jurisdictions have "none" in this CSV column: the count must be stated, and only such states cited */
  csvNone?: string;
  /** a zip-level family asked about a city: a figure of one of the city's own zips (simplemaps `zips`), cited */
  cityZips?: { family: 'comps' | 'rehab' | 'location-zip'; state: string; city: string; months?: string };
  /** no source has this data (proved by a query over the canonical tables): the answer must say so, with no figure */
  noData?: { family: 'comps' | 'investor'; zip?: string; state?: string; city?: string };
}
interface Question { id: string; query: string; context?: ResearchInput['context']; depth?: 'quick' | 'deep'; expect: Expect[]; cite: { type: string; category: string } }
const SET = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'questions.json'), 'utf8')) as { questions: Question[]; unanswerable: { query: string; context?: ResearchInput['context'] }[] };

const fmtNum = (v: number): string => (Number.isInteger(v) ? String(v) : String(Number(v.toFixed(2))));
const round1 = (v: number): number => Math.round(v * 10) / 10;
const clamp = (v: number): number => Math.max(0, Math.min(100, v));
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Dates are not figures: "last reviewed 2026-11-21" must not pass for 21 (or 2026, or 11). */
const stripDates = (text: string): string => text.replace(/\b\d{4}-\d{2}-\d{2}\b/g, '<date>');
/** A number as a whole token directly followed by its unit ("3 days", "3 business days", "1 month's", "18%"), dates ignored. */
function hasNumberUnit(text: string, n: string, unit: string): boolean {
  const t = stripDates(text).replace(/(\d),(?=\d{3}\b)/g, '$1');
  const u = unit === '%' ? '%' : `(?:\\s+(?:business|calendar|judicial|court))?[\\s-]+${unit}`;
  return new RegExp(`(?<![\\d.])${esc(n)}${u}`, 'i').test(t);
}
const stateName = (code: string): string => (code === 'DC' ? 'District of Columbia' : byState.get(code)!['state_name']!);
const PLACE_NAMES = [...csvRows.map((r) => r['state_code'] === 'DC' ? 'District of Columbia' : r['state_name']!)];
/** cities the question set asks about (and cities with an overlay record, added once the warehouse is read): window stops too */
const CITY_NAMES = new Set<string>();
/** A sentence ends at . ! ? before a capital, not after "St." (St. Paul) */
const SENTENCE_END = /(?<=[.!?])(?<!\bSt\.)\s+(?=[A-Z])/;
const nameRe = (name: string): string => `${name === 'Virginia' ? '(?<!West )' : ''}\\b${esc(name)}\\b`;
/**
 * The stretches of the answer that speak about one place: from each mention of the name to the next mention of
 * another state (or the end of the sentence). "Texas 3 days; California 3 business days" gives Texas "3 days" only.
 */
function windows(answer: string, name: string): string[] {
  const out: string[] = [];
  const others = [...PLACE_NAMES, ...CITY_NAMES].filter((n) => n !== name && !name.includes(n));
  const stop = new RegExp(others.map(nameRe).join('|'));
  for (const sentence of answer.split(SENTENCE_END)) {
    for (const m of sentence.matchAll(new RegExp(nameRe(name), 'g'))) {
      const rest = sentence.slice(m.index! + m[0].length);
      const cut = rest.search(stop);
      out.push(m[0] + (cut >= 0 ? rest.slice(0, cut) : rest));
    }
  }
  return out;
}
const about = (answer: string, name: string, ok: (w: string) => boolean): boolean => windows(answer, name).some(ok);
/** The sentences that name the place and no other state. */
const sentencesAbout = (answer: string, name: string): string[] => answer.split(SENTENCE_END)
  .filter((x) => new RegExp(nameRe(name)).test(x) && !PLACE_NAMES.some((n) => n !== name && !name.includes(n) && new RegExp(nameRe(n)).test(x)));

type Sources = ResearchBody['sources'];
type Cite = { label: string; ok: (sources: Sources) => boolean };
/** What must appear in the answer for one expectation (a predicate, a label for the misses list, the citation it
 *  needs), or, for data no source has, the proof of that and the kind of source the answer must not cite. */
type Fact = { label: string; ok: (answer: string) => boolean; cite?: Cite };
type NoData = { noData: string; type: string };
type Check = Fact | NoData;

/** The oracle could not find an expected figure: the question fails by name, it is never left out of the count. */
class LookupFailed extends Error {}
const fail = (why: string): never => { throw new LookupFailed(why); };

// ---- the warehouse, read-only, one connection for the file ----
let wh: Warehouse | null = null;
let conn: DuckDBConnection | null = null;
async function sql<T>(text: string, params?: Record<string, unknown>): Promise<T[]> {
  if (!conn) throw new Error('the warehouse is not open');
  return queryRows<T>(conn, text, params);
}
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Active regulation records of the warehouse, by state|category|subcategory (state level) or state|city|category|subcategory. */
interface RegRow { id: string; jurisdiction_level: string; state_code: string; county_fips: string | null; city: string | null; category: string; subcategory: string; source_citation: string | null; structured_data: string }
let regs = new Map<string, RegRow>();
let regRows: RegRow[] = [];
const regKey = (st: string, cat: string, sub: string, city?: string): string => `${st}|${city ?? ''}|${cat}|${sub}`;
/** A record is cited when its own citation (or, without one, its id) is among the sources. */
const citesRecord = (r: RegRow) => (sources: Sources): boolean => sources.some((s) => (r.source_citation !== null && s.citation === r.source_citation) || s.citation.includes(r.id));
const sd = (r: RegRow | undefined): Record<string, unknown> | null => (r ? JSON.parse(r.structured_data) as Record<string, unknown> : null);

const CSV_RECORD: Record<string, [string, string]> = {
  eviction_notice_nonpayment_days: ['eviction', 'nonpayment_notice'], eviction_timeline_days_est: ['eviction', 'timeline_estimate'],
  security_deposit_limit_months: ['landlord_tenant', 'security_deposit'], foreclosure_type: ['foreclosure', 'process'],
  tax_sale_type: ['tax_deed_lien', 'tax_sale'], tax_lien_interest_rate_pct: ['tax_deed_lien', 'tax_sale'], redemption_period_months: ['tax_deed_lien', 'tax_sale'],
  rent_control_preemption: ['rent_control', 'state_preemption'], adverse_possession_years: ['adverse_possession', 'standard_period'],
  adverse_possession_color_of_title_years: ['adverse_possession', 'color_of_title'],
};
function recordCite(st: string, col: string): Cite {
  const [cat, sub] = CSV_RECORD[col]!;
  const r = regs.get(regKey(st, cat, sub)) ?? fail(`no active ${cat}/${sub} record for ${st} in the warehouse regulations table`);
  return { label: `${st}'s own ${cat}/${sub} record (${r.source_citation ?? r.id})`, ok: citesRecord(r) };
}

function csvCheck(col: string, st: string): Check {
  const r = byState.get(st) ?? fail(`no legal-facts.csv row for ${st}`);
  const v = (r[col] ?? '').trim();
  const name = stateName(st);
  const cite = recordCite(st, col);
  const said = (label: string, re: RegExp): Check => ({ label: `${col}[${st}] = ${label}`, ok: (a) => about(stripDates(a), name, (w) => re.test(w)), cite });
  // "none" is said of the whole sentence ("We have no public estimate of how long an eviction takes in Kansas")
  const none = (re: RegExp): Check => ({ label: `${col}[${st}] = none`, ok: (a) => sentencesAbout(a, name).some((x) => re.test(x)), cite });
  const num = (n: string, unit: string): Check => ({ label: `${col}[${st}] = ${n} ${unit}`, ok: (a) => about(a, name, (w) => hasNumberUnit(w, n, unit)), cite });
  switch (col) {
    case 'eviction_notice_nonpayment_days':
      return v === '0' ? none(/no statutory notice/i) : num(v, 'days?\\b');
    case 'security_deposit_limit_months':
      return v === 'none' ? none(/no statutory cap/i) : num(v, 'months?\\b');
    case 'foreclosure_type':
      // the state's own type: "Florida is judicial", "Florida judicial" (a comparison), never "non-judicial" for judicial
      return said(v, new RegExp(`^${nameRe(name)}(?: is)? ${esc(v)}\\b`, 'i'));
    case 'tax_sale_type':
      // the stated type of that state: "Iowa is a tax lien state", "Texas uses a hybrid tax sale system", "Iowa lien, 24%"
      return said(v, v === 'hybrid' ? new RegExp(`^${nameRe(name)} (?:uses a hybrid|hybrid\\b)`, 'i') : new RegExp(`^${nameRe(name)}(?: is a tax)? ${v}\\b`, 'i'));
    case 'tax_lien_interest_rate_pct':
      return v === '' ? fail(`legal-facts.csv has no ${col} for ${st}`) : num(v, '%');
    case 'redemption_period_months':
      return v === '' ? none(/no redemption period/i) : num(v, 'months?\\b');
    case 'rent_control_preemption':
      return said(v, ({ yes: /prohibits local rent control/i, no: /does not preempt local rent control/i, partial: /partially preempts/i } as Record<string, RegExp>)[v] ?? fail(`${col}[${st}] = "${v}"`));
    case 'adverse_possession_years':
    case 'adverse_possession_color_of_title_years':
      return v === '' ? fail(`legal-facts.csv has no ${col} for ${st}`) : num(v, 'years?\\b');
    case 'eviction_timeline_days_est':
      return v === '' ? none(/no public estimate/i) : num(v, 'days?\\b');
    default:
      return fail(`no rule for CSV column ${col}`);
  }
}

const UNIT_OF: Record<string, string> = { eviction_notice_nonpayment_days: 'days?\\b', tax_lien_interest_rate_pct: '%', adverse_possession_years: 'years?\\b', security_deposit_limit_months: 'months?\\b' };
function extreme(col: string, dir: 'max' | 'min'): Check {
  const vals = csvRows.map((r) => ({ st: r['state_code']!, v: Number(r[col]) })).filter((x) => Number.isFinite(x.v) && x.v > 0);
  vals.sort((a, b) => (dir === 'max' ? b.v - a.v : a.v - b.v));
  const best = vals[0] ?? fail(`no numeric ${col} in legal-facts.csv`);
  return { label: `${dir} ${col} = ${stateName(best.st)} ${best.v}`, ok: (a) => about(a, stateName(best.st), (w) => hasNumberUnit(w, fmtNum(best.v), UNIT_OF[col]!)), cite: recordCite(best.st, col) };
}

// ---- legal scores, recomputed from the regulations records with the formulas of warehouse/docs/legal.md ----
const stateRec = (st: string, cat: string, sub: string): Record<string, unknown> | null => sd(regs.get(regKey(st, cat, sub)));
/** timeline component: the midpoint of the uncontested estimate, 21 days or fewer 100, 120 or more 0 (null: no estimate) */
function timelineScore(st: string): number | null {
  const t = stateRec(st, 'eviction', 'timeline_estimate');
  const lo = num(t?.['min_days']); const hi = num(t?.['max_days']);
  return lo === null || hi === null ? null : clamp(100 - ((lo + hi) / 2 - 21) * 100 / 99);
}
/** Landlord friendliness (0-100, one decimal), a missing input scoring the neutral 50. */
function friendlinessOf(st: string): number {
  if (!regs.has(regKey(st, 'eviction', 'nonpayment_notice'))) fail(`no nonpayment notice record for ${st}: friendliness cannot be derived`);
  const n = stateRec(st, 'eviction', 'nonpayment_notice');
  const days = num(n?.['notice_days']);
  const calendar = days === null ? null : days * (['business', 'judicial', 'court'].includes(String(n?.['day_type'] ?? '')) ? 1.4 : 1);
  const notice = calendar === null ? 50 : days === 0 ? 100 : clamp(100 - (calendar - 3) * 100 / 27);
  const timeline = timelineScore(st) ?? 50;
  const d = stateRec(st, 'landlord_tenant', 'security_deposit');
  const cap = num(d?.['deposit_limit_months']);
  const deposit = !d ? 50 : d['has_statutory_cap'] === false ? 100 : cap === null ? 50 : clamp(10 + 30 * cap);
  const p = stateRec(st, 'rent_control', 'state_preemption');
  const preemption = ({ yes: 100, partial: 50, no: 0 } as Record<string, number>)[String(p?.['preempts_local'])] ?? 50;
  const sc = stateRec(st, 'rent_control', 'statewide_cap');
  const hasCap = sc ? sc['statewide_cap'] === true : p && typeof p['statewide_cap'] === 'boolean' ? p['statewide_cap'] : null;
  const statewide = hasCap === null ? 50 : hasCap ? 0 : 100;
  const justCause = stateRec(st, 'eviction', 'just_cause')?.['just_cause_required'] === true ? 0 : 100;
  return round1(0.15 * notice + 0.20 * timeline + 0.15 * deposit + 0.20 * preemption + 0.15 * statewide + 0.15 * justCause);
}
const slugOf = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
let cityCounty = new Map<string, string>(); // state|city slug -> county fips (raw simplemaps)
/** Market legal risk (0-100, one decimal) of a city: seven component risks, weights as documented. */
function legalRiskOf(st: string, city: string): number {
  const county = cityCounty.get(`${st}|${slugOf(city)}`) ?? fail(`${city}, ${st} is not in the raw simplemaps city list`);
  const own = regRows.filter((r) => r.jurisdiction_level === 'city' && r.state_code === st && slugOf(r.city ?? '') === slugOf(city) && r.subcategory === 'local_overlay');
  const countyRecs = own.length ? [] : regRows.filter((r) => r.jurisdiction_level === 'county' && r.state_code === st && r.county_fips === county && r.subcategory === 'local_overlay');
  const any = (rs: RegRow[], k: string): boolean => rs.some((r) => sd(r)![k] === true);
  const local = (k: string): number => (any(own, k) ? 100 : any(countyRecs, k) ? 50 : 0);
  const fc = ({ judicial: 100, hybrid: 50, 'non-judicial': 0 } as Record<string, number>)[String(stateRec(st, 'foreclosure', 'process')?.['foreclosure_type'])] ?? 50;
  const ts = timelineScore(st);
  const tax = stateRec(st, 'tax_deed_lien', 'tax_sale');
  const months = num(tax?.['redemption_period_months']);
  const redemption = tax?.['sale_type'] === 'deed' ? 0 : months === null ? 50 : Math.min(100, months / 36 * 100);
  const years = num(stateRec(st, 'adverse_possession', 'standard_period')?.['years']);
  const adverse = years === null ? 50 : clamp((21 - years) * 100 / 16);
  return round1(0.35 * (100 - friendlinessOf(st)) + 0.15 * fc + 0.10 * (ts === null ? 50 : 100 - ts) + 0.15 * local('rent_control')
    + 0.10 * local('eviction_protections') + 0.10 * redemption + 0.05 * adverse);
}

// ---- market figures, from our own SQL over the canonical tables ----
const ZIP = /^\d{5}$/;
/** The arm's-length sales, decided by the market oracle's own SQL (market.md "Arm's-length rule"), not by the
 *  build's flags: a temp table made once on the read-only connection. */
let armsMade: Promise<unknown> | null = null;
const arms = (): Promise<unknown> => (armsMade ??= sql(`create temp table oracle_arms as ${ARMS_LENGTH_SALES_SQL}`));
const zipOk = (z: string): string => (ZIP.test(z) ? z : fail(`bad zip ${z}`));
const REHAB_TYPES = `('renovation', 'addition', 'repair')`;

/** Median price per sqft of a zip's arm's-length comps of one type in the window ending at the zip's latest arm's-length sale. */
async function compsOracle(zip: string, type: string, months: number): Promise<{ n: number; median: number | null }> {
  await arms();
  const [r] = await sql<{ zip_sales: number; n: number; median: number | null }>(`
    with e as (select max(sale_date) as window_end from oracle_arms where zip = $zip)
    select (select count(*) from oracle_arms where zip = $zip)::int as zip_sales, count(s.sale_price)::int as n,
           quantile_cont(s.sale_price / s.sqft, 0.5) as median
    from e left join oracle_arms s on s.zip = $zip and s.property_type = $type and s.sqft > 0
      and s.sale_date > e.window_end - to_months($months::int) and s.sale_date <= e.window_end`, { zip: zipOk(zip), type, months });
  if (!r || r.zip_sales === 0) fail(`no sale recorded for zip ${zip}: no arm's-length sale in the sales table (if no source covers it, the question must expect noData)`);
  return { n: r!.n, median: r!.n >= 5 ? num(r!.median) : null };
}

/** Rehab momentum of a zip whose window has no sale (the permit components only; the resale component is not derived here). */
async function rehabOracle(zip: string, months: number): Promise<number> {
  await arms();
  const [r] = await sql<{ as_of: string | null; sales: number; rehab: number; valued: number; value: number; units: number | null; permits_ever: number }>(`
    with e as (select max(d) as as_of from (select issue_date as d from permits where zip = $zip union all select sale_date from oracle_arms where zip = $zip)),
    p as (select count(*) filter (where permit_type in ${REHAB_TYPES})::int as rehab,
                 count(*) filter (where permit_type in ${REHAB_TYPES} and valuation > 0)::int as valued,
                 coalesce(sum(valuation) filter (where permit_type in ${REHAB_TYPES} and valuation > 0), 0)::double as value
          from permits, e where zip = $zip and issue_date > e.as_of - to_months($months::int) and issue_date <= e.as_of)
    select e.as_of::varchar as as_of, p.rehab, p.valued, p.value,
      (select count(*) from oracle_arms where zip = $zip and sale_date > e.as_of - to_months($months::int) and sale_date <= e.as_of)::int as sales,
      (select count(*) from permits where zip = $zip)::int as permits_ever,
      (select try_cast("B25001_001E" as integer) from raw.acs_population__zctas where "zip code tabulation area" = $zip) as units
    from e, p`, { zip: zipOk(zip), months });
  if (!r || r.as_of === null) fail(`no permit or sale for zip ${zip}`);
  if (r!.sales > 0) fail(`zip ${zip} has sales in its ${months}-month window: this oracle derives the permit components only`);
  if (!r!.permits_ever || !r!.units) fail(`zip ${zip} has no permit data or no ACS housing units: no permit component`);
  const { rehab, valued, value } = r!; const units = r!.units!;
  const perYear = 12 / months;
  const permit = 100 * Math.min(1, Math.log(1 + rehab * 1000 / units * perYear) / Math.log(51));
  // with rehab permits but none declaring a cost the value component is unknown (left out), never $0
  const share = rehab === 0 ? 1 : valued / rehab;
  const valueScore = rehab > 0 && valued === 0 ? null : 100 * Math.min(1, Math.log(1 + value / units * perYear) / Math.log(2001));
  const w = valueScore === null ? 0 : 0.35 * share;
  return round1((0.45 * permit + w * (valueScore ?? 0)) / (0.45 + w));
}

/** Investor purchase rate of a city: investor buyers / arm's-length sales with a known buyer, in the window ending at its latest arm's-length sale or filing. */
async function investorOracle(st: string, city: string, months: number): Promise<number | null> {
  await arms();
  const [r] = await sql<{ as_of: string | null; known: number; inv: number }>(`
    with c as (select * from oracle_arms where state_code = $st and lower(city) = lower($city)),
    e as (select max(d) as as_of from (select sale_date as d from c union all select filing_date from distress where state_code = $st and lower(city) = lower($city)))
    select e.as_of::varchar as as_of, count(c.buyer_is_investor)::int as known, count(*) filter (where c.buyer_is_investor)::int as inv
    from e left join c on c.sale_date > e.as_of - to_months($months::int) and c.sale_date <= e.as_of
    group by e.as_of`, { st, city, months });
  if (!r || r.as_of === null) fail(`no sale or distress filing for ${city}, ${st} (if no source covers it, the question must expect noData)`);
  return r!.known === 0 ? null : round1(100 * r!.inv / r!.known);
}

// ---- location figures: the raw FEMA GeoJSON, our own sampling grid, superfund_sites, the raw NRI table ----
/** The declared area of each sample flood file, from fema-nfhl-flood-zones/SOURCE.md: the Cambridge file covers the
 *  floodplains "inside Cambridge only" (outside its polygons Cambridge is minimal hazard), the Belmont file is a
 *  complete layer (it has minimal-hazard X polygons; outside them nothing is mapped). */
const FLOOD_FILES: Record<string, { complete: boolean; places: string[] }> = {
  'cambridge_ma_25017C_fld_haz_ar.geojson': { complete: false, places: ['Cambridge|MA'] },
  'belmont_county_oh_39013_fld_haz_ar_dissolved.geojson': { complete: true, places: [] },
};
type FloodClass = 'V' | 'A' | 'X-shaded' | 'open-water' | 'D' | 'X-levee' | 'X-minimal';
const RANK: Record<FloodClass, number> = { V: 7, A: 6, 'X-shaded': 5, 'open-water': 4, D: 3, 'X-levee': 2, 'X-minimal': 1 };
const POINTS: Record<FloodClass, number> = { V: 100, A: 80, 'X-shaded': 45, 'open-water': 45, D: 35, 'X-levee': 15, 'X-minimal': 0 };
const WINS = new Set<FloodClass>(['V', 'A', 'X-shaded']); // the classes that win at >= 10% of the zip
interface FloodPoly { cls: FloodClass; zone: string; feature: GeoJSON.Feature; bbox: [number, number, number, number] }
interface FloodMap { file: string; complete: boolean; places: string[]; polys: FloodPoly[]; bbox: [number, number, number, number] }
let floodMaps: FloodMap[] | null = null;
function classOf(zone: string, subtype: string): FloodClass | null {
  const z = zone.toUpperCase().replace(/^ZONE /, '').trim(); const s = subtype.toUpperCase();
  if (/^V/.test(z)) return 'V';
  if (/^A/.test(z)) return 'A';
  if (z === 'B' || (z === 'X' && /0\.2 PCT|1 PCT|FUTURE/.test(s))) return 'X-shaded';
  if (z === 'X' && /LEVEE/.test(s)) return 'X-levee';
  if (z === 'X' || z === 'C') return 'X-minimal';
  if (z === 'D') return 'D';
  if (z === 'OPEN WATER') return 'open-water';
  return null;
}
function loadFloodMaps(): FloodMap[] {
  if (floodMaps) return floodMaps;
  const dir = path.join(DATA, 'fema-nfhl-flood-zones');
  floodMaps = fs.readdirSync(dir).filter((f) => f.endsWith('.geojson')).sort().map((file) => {
    const area = FLOOD_FILES[file] ?? fail(`flood file ${file} has no declared area in this test (fema-nfhl-flood-zones/SOURCE.md)`);
    const g = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as GeoJSON.FeatureCollection;
    const polys: FloodPoly[] = [];
    for (const f of g.features) {
      const p = Object.fromEntries(Object.entries(f.properties ?? {}).map(([k, v]) => [k.toLowerCase(), v])) as Record<string, unknown>;
      const cls = classOf(String(p['fld_zone'] ?? ''), String(p['zone_subty'] ?? ''));
      if (!cls || (f.geometry.type !== 'Polygon' && f.geometry.type !== 'MultiPolygon')) continue;
      const coords = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates).flat(2);
      const xs = coords.map((c) => c[0]!); const ys = coords.map((c) => c[1]!);
      polys.push({ cls, zone: String(p['fld_zone']).toUpperCase(), feature: f, bbox: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] });
    }
    const bbox: [number, number, number, number] = [Math.min(...polys.map((p) => p.bbox[0])), Math.min(...polys.map((p) => p.bbox[1])), Math.max(...polys.map((p) => p.bbox[2])), Math.max(...polys.map((p) => p.bbox[3]))];
    return { file, ...area, polys, bbox };
  });
  return floodMaps;
}
interface ZipFacts { zip: string; city: string; state: string; county: string; lat: number; lng: number; aland: number; nri: number | null }
async function zipFacts(zip: string): Promise<ZipFacts> {
  const [r] = await sql<{ city: string; state: string; county: string; lat: string; lng: string; aland: string | null; nri: string | null }>(`
    select z.city, z.state_code as state, z.county_fips as county, g."INTPTLAT" as lat, g."INTPTLONG" as lng, g."ALAND" as aland,
      (select "RISK_SCORE" from raw.fema_nri__counties where lpad("STCOFIPS", 5, '0') = z.county_fips) as nri
    from zips z join raw.gazetteer__zctas g on g."GEOID" = z.zip where z.zip = $zip`, { zip: zipOk(zip) });
  if (!r) fail(`zip ${zip} is not a ZCTA of the 2025 gazetteer: this oracle needs its centroid and land area`);
  if (['DE', 'DC', 'RI'].includes(r!.state)) fail(`zip ${zip} has a ZCTA polygon (DE, DC, RI): this oracle samples the centroid disk only`);
  return { zip, city: r!.city, state: r!.state, county: r!.county, lat: Number(r!.lat), lng: Number(r!.lng), aland: Number(r!.aland), nri: num(r!.nri) };
}
/** The flood class of a zip from a uniform grid over its equivalent disk (our own sampling, not the build's H3 cells).
 *  A share within 3 points of a threshold is too close for two different samplings to agree: the oracle refuses it. */
function floodOf(z: ZipFacts): { zone: string; cls: FloodClass | 'unmapped' } {
  const r = Math.max(400, Math.sqrt(z.aland / Math.PI));
  const mPerLat = 111_320; const mPerLng = 111_320 * Math.cos(z.lat * Math.PI / 180);
  const dLat = r / mPerLat; const dLng = r / mPerLng;
  const maps = loadFloodMaps();
  const inArea = (m: FloodMap): boolean => m.places.includes(`${z.city}|${z.state}`);
  const near = maps.filter((m) => inArea(m) || !(z.lng + dLng < m.bbox[0] || z.lng - dLng > m.bbox[2] || z.lat + dLat < m.bbox[1] || z.lat - dLat > m.bbox[3]));
  if (near.length === 0) return { zone: 'D', cls: 'unmapped' }; // no loaded map reaches the zip
  const counts = new Map<FloodClass | 'unmapped', number>(); const zones = new Map<FloodClass, Set<string>>();
  let total = 0; const n = 24;
  for (let i = -n; i <= n; i++) for (let j = -n; j <= n; j++) {
    if (i * i + j * j > n * n) continue;
    const lng = z.lng + (i / n) * dLng; const lat = z.lat + (j / n) * dLat;
    let best: FloodPoly | null = null; let mapped = false;
    for (const m of near) {
      if (!m.complete && inArea(m)) mapped = true;
      for (const p of m.polys) {
        if (lng < p.bbox[0] || lng > p.bbox[2] || lat < p.bbox[1] || lat > p.bbox[3]) continue;
        if (best && RANK[p.cls] <= RANK[best.cls]) continue;
        if (booleanPointInPolygon([lng, lat], p.feature as GeoJSON.Feature<GeoJSON.Polygon | GeoJSON.MultiPolygon>)) best = p;
      }
    }
    const cls: FloodClass | 'unmapped' = best ? best.cls : mapped ? 'X-minimal' : 'unmapped';
    if (best) { const s = zones.get(best.cls) ?? new Set(); s.add(best.zone); zones.set(best.cls, s); }
    counts.set(cls, (counts.get(cls) ?? 0) + 1); total++;
  }
  const share = (c: FloodClass | 'unmapped'): number => (counts.get(c) ?? 0) / total;
  const classes = [...counts.keys()].filter((c): c is FloodClass => c !== 'unmapped').sort((a, b) => RANK[b] - RANK[a]);
  for (const c of classes) if (Math.abs(share(c) - 0.10) < 0.03) fail(`zip ${z.zip}: ${c} covers ${(share(c) * 100).toFixed(1)}% of our grid, too near the 10% rule to decide`);
  if (Math.abs(1 - share('unmapped') - 0.5) < 0.05 && share('unmapped') < 1) fail(`zip ${z.zip}: mapped share near 50%`);
  const code = (c: FloodClass): string => (c === 'X-shaded' || c === 'X-minimal' || c === 'X-levee' ? 'X' : [...(zones.get(c) ?? [])].length === 1 ? [...zones.get(c)!][0]! : fail(`zip ${z.zip}: several ${c} zone codes`));
  const win = classes.find((c) => WINS.has(c) && share(c) >= 0.10);
  if (win) return { zone: code(win), cls: win };
  if (1 - share('unmapped') >= 0.5) {
    const c = classes.find((x) => share(x) >= 0.10) ?? fail(`zip ${z.zip}: no class covers 10%`);
    return { zone: code(c), cls: c };
  }
  return share('unmapped') === 1 ? { zone: 'D', cls: 'unmapped' } : fail(`zip ${z.zip} is partly mapped: whether flood counts in its score is not derived here`);
}
/** Counted NPL sites within the zip's equivalent radius plus one mile of its centroid (haversine, our own SQL). */
async function superfundCount(z: ZipFacts): Promise<number> {
  const reach = Math.max(400, Math.sqrt(z.aland / Math.PI)) + 1609.344;
  const rows = await sql<{ d: number }>(`
    select 2 * 6371008.8 * asin(sqrt(pow(sin(radians(lat - $lat) / 2), 2) + cos(radians($lat)) * cos(radians(lat)) * pow(sin(radians(lng - $lng) / 2), 2))) as d
    from superfund_sites where counted and abs(lat - $lat) < 1 and abs(lng - $lng) < 1.5`, { lat: z.lat, lng: z.lng });
  if (rows.some((r) => Math.abs(r.d - reach) < 100)) fail(`zip ${z.zip}: a Superfund site within 100 m of the 1-mile line`);
  return rows.filter((r) => r.d <= reach).length;
}
async function environmentalScore(zip: string): Promise<number> {
  const z = await zipFacts(zip);
  const flood = floodOf(z);
  const sites = await superfundCount(z);
  const parts: [number, number][] = [[0.30, sites === 0 ? 0 : sites === 1 ? 50 : sites === 2 ? 75 : 100]];
  if (flood.cls !== 'unmapped') parts.push([0.45, POINTS[flood.cls]]);
  if (z.nri !== null) parts.push([0.25, z.nri]);
  const raw = parts.reduce((s, [w, v]) => s + w * v, 0) / parts.reduce((s, [w]) => s + w, 0);
  if (Math.abs(raw - Math.floor(raw) - 0.5) < 0.01) fail(`zip ${zip}: score ${raw} sits on a rounding boundary`);
  return Math.round(raw);
}

/** How a figure is written: the number with its unit, so a stray number elsewhere cannot pass. */
const FIGURE_RE: Record<string, (n: string) => RegExp> = {
  'price_per_sqft.median': (n) => new RegExp(`\\$${esc(n)}(?: per sqft|/sqft)`),
  investor_purchase_rate_pct: (n) => new RegExp(`(?<![\\d.])${esc(n)}%`),
  rehab_momentum_score: (n) => new RegExp(`(?<![\\d.])${esc(n)}(?: out of 100| \\()`),
  environmental_risk_score: (n) => new RegExp(`(?<![\\d.])${esc(n)} out of 100`),
  legal_risk_score: (n) => new RegExp(`(?:legal risk score of |, [A-Z]{2} )${esc(n)} \\(`),
};
/** The citation of a market or location answer names its place (zip, or city and state), and for market figures
 *  the property type and the window asked ("comps for 98103, sfr, 12 months"), so a figure of another window fails. */
const familyCite = (family: string, keys: Record<string, string>): Cite => {
  const where = [keys['zip'] ?? `${keys['city']}, ${keys['state']}`, keys['property_type'], keys['months'] && `${keys['months']} months`].filter(Boolean).join(', ');
  return { label: `${family} for ${where}`, ok: (src) => src.some((s) => s.citation.includes(`for ${where},`)) };
};
/** A figure of one family for one key set, from the oracles above (a number, a string, or null for "none"). */
async function figureOf(family: Family, keys: Record<string, string>, field: string): Promise<number | string | null> {
  const months = Number(keys['months'] ?? 0);
  switch (`${family}.${field}`) {
    case 'comps.price_per_sqft.median': return (await compsOracle(keys['zip']!, keys['property_type']!, months)).median;
    case 'rehab.rehab_momentum_score': return rehabOracle(keys['zip']!, months);
    case 'investor.investor_purchase_rate_pct': return investorOracle(keys['state']!, keys['city']!, months);
    case 'location-zip.flood_zone': return floodOf(await zipFacts(keys['zip']!)).zone;
    case 'location-zip.environmental_risk_score': return environmentalScore(keys['zip']!);
    case 'legal-market-risk.legal_risk_score': return legalRiskOf(keys['state']!, keys['city']!);
    default: return fail(`no oracle for ${family}.${field}`);
  }
}

/** Zips of a city as the raw simplemaps file lists them. */
async function cityZipList(st: string, city: string): Promise<string[]> {
  const rows = await sql<{ zips: string }>(`select zips from raw.simplemaps__cities where state_id = $st and city = $city`, { st, city });
  const zips = (rows[0]?.zips ?? '').split(/\s+/).filter((z) => ZIP.test(z));
  return zips.length ? zips : fail(`no zips for ${city}, ${st} in the raw simplemaps file`);
}

/** Proof that no source has the data: the figure must then be absent from every canonical table it would come from. */
async function noDataProof(e: NonNullable<Expect['noData']>): Promise<string> {
  if (e.family === 'comps') {
    const zips = e.zip ? [zipOk(e.zip)] : await cityZipList(e.state!, e.city!);
    const [r] = await sql<{ n: number }>(`select count(*)::int as n from sales where zip in (${zips.map((z) => `'${zipOk(z)}'`).join(', ')})`);
    if (r!.n > 0) fail(`noData claimed for comps of ${e.zip ?? e.city}, but the sales table has ${r!.n} sales there`);
    return `no sale in any source for ${e.zip ? `zip ${e.zip}` : `the ${zips.length} zips of ${e.city}, ${e.state}`}`;
  }
  const [r] = await sql<{ n: number }>(`select ((select count(*) from sales where state_code = $st and lower(city) = lower($city))
    + (select count(*) from distress where state_code = $st and lower(city) = lower($city)))::int as n`, { st: e.state!, city: e.city! });
  if (r!.n > 0) fail(`noData claimed for investor data of ${e.city}, ${e.state}, but sales or distress has ${r!.n} rows there`);
  return `no sale and no distress filing in any source for ${e.city}, ${e.state}`;
}

async function checkFor(e: Expect): Promise<Check> {
  if (e.csv) return csvCheck(e.csv, e.state!);
  if (e.csvMax) return extreme(e.csvMax, 'max');
  if (e.csvMin) return extreme(e.csvMin, 'min');
  if (e.stateLegal) {
    const st = e.stateLegal;
    const v = friendlinessOf(st);
    return {
      label: `landlord friendliness ${st} = ${fmtNum(v)}`, ok: (a) => about(a, stateName(st), (w) => new RegExp(`(?<![\\d.])${esc(fmtNum(v))} out of 100`).test(stripDates(w))),
      cite: { label: `landlord friendliness for ${st}`, ok: (src) => src.some((s) => s.category === 'landlord_friendliness' && s.citation.includes(` for ${st},`)) },
    };
  }
  if (e.record) {
    const { state, city, category, subcategory } = e.record;
    const r = regs.get(regKey(state, category, subcategory, city)) ?? fail(`no active record ${state}${city ? `/${city}` : ''} ${category}/${subcategory} in the warehouse regulations table`);
    const cite = { label: `record ${r.id}`, ok: citesRecord(r) };
    if (e.pattern) { const re = new RegExp(e.pattern, 'i'); return { label: `${r.id}: /${e.pattern}/`, ok: (a) => re.test(stripDates(a)), cite }; }
    const raw = sd(r)![e.field!];
    // a city's figure must be said of that city (the District's overlay is the District's)
    const place = city ? (state === 'DC' ? 'District of Columbia' : city) : stateName(state);
    if (typeof raw === 'number') return { label: `${r.id}.${e.field} = ${fmtNum(raw)}${e.unit}`, ok: (a) => about(a, place, (w) => hasNumberUnit(w, fmtNum(raw), e.unit!)), cite };
    if (typeof raw === 'string') return { label: `${r.id}.${e.field} = "${raw}"`, ok: (a) => about(a, place, (w) => w.includes(raw)), cite };
    return fail(`${r.id}.${e.field} is ${JSON.stringify(raw)}: no figure to expect`);
  }
  if (e.noOverlay) {
    const { state, city } = e.noOverlay;
    if (regs.has(regKey(state, 'rent_control', 'local_overlay', city))) fail(`noOverlay claimed for ${city}, but the warehouse has its rent control overlay`);
    return { label: `no ordinance recorded for ${city}`, ok: (a) => new RegExp(`no (?:local )?rent control ordinance recorded for ${esc(city)}`, 'i').test(a) };
  }
  if (e.csvNone) {
    const col = e.csvNone;
    const none = csvRows.filter((r) => (r[col] ?? '').trim() === 'none').map((r) => r['state_code']!);
    if (none.length === 0) fail(`no state has ${col} = none in legal-facts.csv`);
    const allowed = none.map((st) => recordCite(st, col));
    const capped = csvRows.filter((r) => (r[col] ?? '').trim() !== 'none').map((r) => recordCite(r['state_code']!, col));
    return {
      label: `${none.length} jurisdictions with ${col} = none`, ok: (a) => new RegExp(`(?<![\\d.])${none.length} jurisdictions have no`).test(a),
      cite: { label: `only states without a cap`, ok: (src) => allowed.some((c) => c.ok(src)) && !capped.some((c) => c.ok(src.filter((s) => s.category === CSV_RECORD[col]![0]))) },
    };
  }
  if (e.cityZips) {
    const { family, state, city } = e.cityZips;
    const zips = await cityZipList(state, city);
    const field = family === 'comps' ? 'price_per_sqft.median' : family === 'rehab' ? 'rehab_momentum_score' : 'environmental_risk_score';
    const months = e.cityZips.months ?? (family === 'location-zip' ? '' : '6');
    const figures: { zip: string; n: string }[] = [];
    const refused: string[] = [];
    for (const zip of zips) {
      const keys: Record<string, string> = family === 'comps' ? { zip, property_type: 'sfr', months } : family === 'rehab' ? { zip, months } : { zip };
      try {
        const v = await figureOf(family, keys, field);
        if (typeof v === 'number') figures.push({ zip, n: family === 'comps' ? String(Math.round(v)) : fmtNum(v) });
      } catch (err) {
        if (!(err instanceof LookupFailed)) throw err;
        refused.push(zip); // a zip without data (or one this oracle cannot derive): the answer's zip must be another
      }
    }
    if (figures.length === 0) fail(`no ${family} figure for any of the ${zips.length} zips of ${city}, ${state} (refused: ${refused.join(' ')})`);
    return {
      label: `${family} figure of a ${city} zip (oracle has ${figures.map((f) => `${f.zip}=${f.n}`).join(', ')})`,
      ok: (a) => figures.some((f) => new RegExp(`\\b${f.zip}\\b`).test(a) && FIGURE_RE[field]!(f.n).test(stripDates(a))),
      cite: { label: `a ${family} source for a ${city} zip`, ok: (src) => src.length > 0 && src.every((s) => zips.some((z) => s.citation.includes(`for ${z},`))) },
    };
  }
  if (e.family) {
    const keys = e.keys ?? {};
    const v = await figureOf(e.family, keys, e.field!);
    const cite = familyCite(e.family, keys);
    // a city's figure is said of that city ("Denver, CO 13% ...; Seattle, WA investor share unknown")
    const inPlace = (a: string, ok: (w: string) => boolean): boolean => (keys['city'] ? about(stripDates(a), keys['city'], ok) : ok(stripDates(a)));
    // a cohort under 5 comps has no prices: the answer must say so rather than give a figure
    if (v === null && e.field === 'price_per_sqft.median') return { label: `${e.family}.${e.field} = none (fewer than 5 comps)`, ok: (a) => /fewer than 5\b[^.]*sales/i.test(a) && !/\$\d/.test(a), cite };
    if (v === null && e.field === 'investor_purchase_rate_pct') return { label: `${e.family}.${e.field} = unknown (no buyer names)`, ok: (a) => inPlace(a, (w) => /investor share (?:is )?unknown/i.test(w) && !/\d%/.test(w)), cite };
    if (typeof v === 'number') {
      const n = e.round ? String(Math.round(v)) : fmtNum(v);
      const re = FIGURE_RE[e.field!] ?? fail(`no unit rule for ${e.field}`);
      return { label: `${e.family}.${e.field} = ${n}`, ok: (a) => inPlace(a, (w) => re(n).test(w)), cite };
    }
    if (typeof v !== 'string') return fail(`${e.family}.${e.field} ${JSON.stringify(keys)} has no figure`);
    const s = (e.format ?? '{}').replace('{}', v);
    return { label: `${e.family}.${e.field} = ${s}`, ok: (a) => new RegExp(`\\b${esc(s)}\\b`, 'i').test(a), cite };
  }
  if (e.noData) return { noData: await noDataProof(e.noData), type: e.noData.family };
  return fail(`expectation without a fact check: ${JSON.stringify(e)}`);
}

const DONT_HAVE = /don't have|do not have|we have no|not part of this build|no data for/i;
/** Any figure at all, once zip codes and ISO dates are taken out. */
const statesAFigure = (a: string): boolean => /\d/.test(stripDates(a).replace(/\b\d{5}\b/g, ''));
/** The words an answer about each kind of source uses (the intent was understood). */
const TOPIC: Record<string, RegExp> = { comps: /comparable|sales/i, rehab: /rehab|renovation/i, investor: /investor/i, legal: /legal risk|friendliness/i, location: /location|flood/i };

let data: ResearchData;
let engine: ResearchEngine;
const ask = (q: ResearchInput): Promise<ResearchBody> => engine.answer(q);

beforeAll(async () => {
  const d = ResearchData.fromBuild(buildDir());
  if (!d) throw new Error('the shared build has no live/research index (live/research/build.ts)');
  data = d;
  engine = new ResearchEngine(data, null);
  wh = await openWarehouse(path.join(buildDir(), 'warehouse.duckdb'), { readOnly: true });
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
});
afterAll(() => {
  conn?.closeSync();
  wh?.close();
});

/** One question graded: right (value and citation), or why not. A lookup failure is thrown, never graded. */
async function grade(q: Question): Promise<{ right: boolean; why: string[]; answer: ResearchBody }> {
  const checks: Check[] = [];
  for (const e of q.expect) checks.push(await checkFor(e));
  const r = await ask({ query: q.query, context: q.context, depth: 'quick' });
  const why: string[] = [];
  const none = checks.filter((c): c is NoData => 'noData' in c);
  if (none.length) {
    // no source has the data: an honest "don't have", low confidence, no figure, no source of that kind, on topic
    if (!DONT_HAVE.test(r.answer)) why.push(`does not say it has no data (${none.map((c) => c.noData).join('; ')})`);
    if (statesAFigure(r.answer)) why.push('states a figure for data no source has');
    if (r.confidence !== 'low') why.push(`confidence ${r.confidence}, not low`);
    if (none.some((c) => r.sources.some((s) => s.type === c.type))) why.push('cites a source for data no source has');
    const topic = TOPIC[q.cite.type];
    if (topic && !topic.test(r.answer)) why.push(`intent misread: the answer is not about ${q.cite.type}`);
  }
  const facts = checks.filter((c): c is Fact => 'ok' in c);
  if (facts.length) {
    const failed = facts.filter((c) => !c.ok(r.answer)).map((c) => c.label);
    const uncited = facts.filter((c) => c.cite && !c.cite.ok(r.sources)).map((c) => c.cite!.label);
    const kind = r.sources.some((s) => s.type === q.cite.type && s.category === q.cite.category);
    if (r.sources.length === 0 && failed.length === facts.length) why.push(DONT_HAVE.test(r.answer) ? 'says it has no data, but the oracle finds the figure' : 'intent misread (no fact, no source)');
    if (failed.length) why.push(`wrong or missing figure: ${failed.join(', ')}`);
    if (!kind) why.push(`missing citation: no ${q.cite.type}/${q.cite.category} source`);
    if (uncited.length) why.push(`missing citation: ${uncited.join(', ')}`);
    if (why.length) why.push(`(got ${r.sources.map((s) => `${s.type}/${s.category}: ${s.citation}`).join(' | ') || 'no sources'})`);
  }
  return { right: why.length === 0, why, answer: r };
}

describe('the question set', () => {
  it('has at least 80 questions over every intent', () => {
    expect(SET.questions.length).toBeGreaterThanOrEqual(80);
    expect(new Set(SET.questions.map((q) => q.id)).size).toBe(SET.questions.length);
    const intents = new Set(SET.questions.flatMap((q) => detectIntents(q.query)));
    for (const i of ['eviction_notice', 'eviction_timeline', 'security_deposit', 'foreclosure', 'tax_sale', 'redemption', 'rent_control',
      'adverse_possession', 'comps', 'rehab', 'investor', 'location', 'legal_risk', 'landlord_friendliness']) expect(intents, i).toContain(i);
    expect(SET.questions.filter((q) => q.id.startsWith('compare-')).length).toBeGreaterThanOrEqual(4);
    expect(new Set(SET.questions.flatMap((q) => q.expect.map((e) => e.state).filter(Boolean))).size).toBeGreaterThanOrEqual(25);
    for (const q of SET.questions) expect(q.expect.length, `${q.id} expects nothing`).toBeGreaterThan(0);
  });

  it('answers >= 98% of ALL questions right and cited (quick); a figure the oracle cannot look up fails the question by name', async () => {
    let right = 0;
    const lookupFailures: string[] = [];
    const misses: string[] = [];
    for (const q of SET.questions) {
      let g: Awaited<ReturnType<typeof grade>>;
      try {
        g = await grade(q);
      } catch (err) {
        if (!(err instanceof LookupFailed)) throw err;
        lookupFailures.push(`${q.id}: ${err.message}`);
        continue;
      }
      if (g.right) right++;
      else misses.push(`${q.id}: ${g.why.join('; ')}\n      Q: ${q.query}${q.context ? ` (context ${JSON.stringify(q.context)})` : ''}\n      A: ${g.answer.answer}`);
    }
    const total = SET.questions.length;
    const report = `research: ${right}/${total} answered right and cited (${(100 * right / total).toFixed(1)}%)`
      + (lookupFailures.length ? `\n  expected figure not found by the oracle:\n    ${lookupFailures.join('\n    ')}` : '')
      + (misses.length ? `\n  misses:\n    ${misses.join('\n    ')}` : '');
    console.log(report);
    expect(lookupFailures, report).toEqual([]);
    expect(right / total, report).toBeGreaterThanOrEqual(0.98);
  });

  it('the scoring itself rejects wrong answers: another state, a date, a number without its unit, a type not stated for the state', async () => {
    const fact = async (e: Expect): Promise<Fact> => { const c = await checkFor(e); if (!('ok' in c)) throw new Error('not a fact'); return c; };
    const days = byState.get('TX')!['eviction_notice_nonpayment_days']!;
    const other = String(Number(days) + 2);
    const notice = await fact({ csv: 'eviction_notice_nonpayment_days', state: 'TX' });
    expect(notice.ok(`In Texas, a landlord must give ${days} days' notice.`)).toBe(true);
    expect(notice.ok(`Texas ${days} days; California ${other} days.`)).toBe(true);
    expect(notice.ok(`Texas ${other} days; California ${days} days.`)).toBe(false); // California's figure
    expect(notice.ok(`In Texas, a landlord must give ${other} days' notice (last reviewed 2026-11-0${days}).`)).toBe(false); // only a date holds it
    expect(notice.ok(`In Texas, fee ${days} and ${other} days' notice.`)).toBe(false); // not next to its unit
    const tx = regs.get(regKey('TX', 'eviction', 'nonpayment_notice'))!;
    const ca = regs.get(regKey('CA', 'eviction', 'nonpayment_notice'))!;
    const src = (r: RegRow) => [{ type: 'regulation', category: 'eviction', citation: r.source_citation ?? `reii regulations: ${r.id}` }];
    expect(notice.cite!.ok(src(tx))).toBe(true);
    expect(notice.cite!.ok(src(ca))).toBe(false); // same category, another state's record
    const deed = csvRows.find((r) => r['tax_sale_type'] === 'deed')!;
    const lien = csvRows.find((r) => r['tax_sale_type'] === 'lien')!;
    const deedCheck = await fact({ csv: 'tax_sale_type', state: deed['state_code'] });
    expect(deedCheck.ok(`${deed['state_name']} is a tax deed state.`)).toBe(true);
    expect(deedCheck.ok(`${lien['state_name']} is a tax deed state; ${deed['state_name']} sells liens.`)).toBe(false);
    const lienCheck = await fact({ csv: 'tax_sale_type', state: lien['state_code'] });
    expect(lienCheck.ok(`${lien['state_name']} is a tax deed state; a lien attaches first.`)).toBe(false); // "lien" anywhere is not enough
    const ia = byState.get('IA')!['redemption_period_months']!;
    expect((await fact({ csv: 'redemption_period_months', state: 'IA' })).ok(`In Iowa the owner can redeem (last reviewed 2026-11-${ia}).`)).toBe(false);
  });

  it('a lookup the oracle cannot make is a failure, not a dropped question; a false "no data" claim is caught', async () => {
    await expect(checkFor({ record: { state: 'TX', category: 'rent_control', subcategory: 'no_such_subcategory' }, field: 'x', unit: '%' })).rejects.toThrow(LookupFailed);
    await expect(checkFor({ family: 'comps', keys: { zip: '02139', property_type: 'sfr', months: '6' }, field: 'price_per_sqft.median' })).rejects.toThrow(/no sale recorded for zip 02139/);
    await expect(checkFor({ family: 'investor', keys: { state: 'TN', city: 'Nashville', months: '12' }, field: 'investor_purchase_rate_pct' })).rejects.toThrow(LookupFailed);
    // 98103 has sales, Denver has sales: claiming no data there is refused
    await expect(checkFor({ noData: { family: 'comps', zip: '98103' } })).rejects.toThrow(/sales table has \d+ sales/);
    await expect(checkFor({ noData: { family: 'investor', state: 'CO', city: 'Denver' } })).rejects.toThrow(/sales or distress has \d+ rows/);
  });

  it('a "don\'t have" answer is graded: a figure, a source or a high confidence makes it wrong', async () => {
    const q = SET.questions.find((x) => x.expect.some((e) => e.noData?.zip))!;
    expect(q, 'the set has a noData question about a zip').toBeDefined();
    const real = await grade(q);
    const saved = engine;
    try {
      for (const [name, change] of [
        ['a figure', (b: ResearchBody): ResearchBody => ({ ...b, answer: `${b.answer} The median is $412 per sqft.` })],
        ['a source', (b: ResearchBody): ResearchBody => ({ ...b, sources: [{ type: q.cite.type, category: 'market', citation: `reii warehouse: ${q.cite.type}` }] })],
        ['high confidence', (b: ResearchBody): ResearchBody => ({ ...b, confidence: 'high' })],
        ['no "don\'t have"', (b: ResearchBody): ResearchBody => ({ ...b, answer: 'Prices are rising.' })],
      ] as const) {
        engine = { answer: async () => change(real.answer) } as unknown as ResearchEngine;
        expect((await grade(q)).right, name).toBe(false);
      }
    } finally {
      engine = saved;
    }
  });

  it('the independent oracles agree with hand-derivable facts of the raw data', async () => {
    // 98103 comps: King County sales with a living area, the window ends at the zip's latest sale (2015-05-14)
    const king = await compsOracle('98103', 'sfr', 6);
    expect(king.n).toBeGreaterThanOrEqual(50);
    expect(king.median).toBeGreaterThan(100);
    // Seattle sales carry no buyer names (King County): the investor share is unknown, never 0
    expect(await investorOracle('WA', 'Seattle', 12)).toBeNull();
    // Seattle and Nashville: no loaded FEMA map reaches them (SOURCE.md: Cambridge MA and Belmont County OH only)
    expect(floodOf(await zipFacts('98103')).zone).toBe('D');
    // Texas: 3 days' notice, no deposit cap, preemption, no statewide cap or just cause: friendliness near the top
    expect(friendlinessOf('TX')).toBeGreaterThan(90);
    expect(friendlinessOf('CA')).toBeLessThan(friendlinessOf('TX'));
  });
  it('quick answers are at most three sentences; deep answers carry every citation and every quick source', async () => {
    for (const q of SET.questions) {
      const quick = await ask({ query: q.query, context: q.context, depth: 'quick' });
      expect(countSentences(quick.answer), `${q.id}: ${quick.answer}`).toBeLessThanOrEqual(3);
      expect(quick.depth).toBe('quick');
      const deep = await ask({ query: q.query, context: q.context, depth: 'deep' });
      expect(deep.depth).toBe('deep');
      for (const s of deep.sources) expect(deep.answer, `${q.id} deep lacks ${s.citation}`).toContain(s.citation);
      for (const s of quick.sources) expect(deep.sources, `${q.id}: quick source not in deep`).toContainEqual(s);
      expect(deep.answer.length).toBeGreaterThanOrEqual(quick.answer.length);
    }
  });

  it('every answer matches the ResearchAnswer schema; legal answers carry the not-legal-advice caveat', async () => {
    for (const q of SET.questions) {
      for (const depth of ['quick', 'deep'] as const) {
        const r = await ask({ query: q.query, context: q.context, depth });
        expect(schemaErrors('ResearchAnswer', r), q.id).toEqual([]);
        expect(r.processing_ms).toBeGreaterThanOrEqual(0);
        if (r.sources.some((s) => s.type === 'regulation' || s.type === 'legal')) expect(r.answer, q.id).toMatch(/not legal advice/);
        for (const s of r.sources) for (const k of ['type', 'category', 'citation'] as const) expect(s[k].length, `${q.id} ${k}`).toBeGreaterThan(0);
      }
    }
  });

  it('states the dates of the facts it uses', async () => {
    const r = await ask({ query: 'How many days notice to evict for nonpayment in Texas?' });
    expect(r.answer).toMatch(/last reviewed \d{4}-\d{2}-\d{2}/);
    const deep = await ask({ query: 'How many days notice to evict for nonpayment in Texas?', depth: 'deep' });
    expect(deep.answer).toMatch(/Effective|effective date not recorded/i);
    expect(deep.answer).toContain('Tex. Prop. Code 24.005');
  });
});

describe('honesty', () => {
  it('unanswerable questions get confidence low and a plain "don\'t have"', async () => {
    for (const u of SET.unanswerable) {
      for (const depth of ['quick', 'deep'] as const) {
        const r = await ask({ query: u.query, context: u.context, depth });
        expect(r.confidence, `${u.query}: ${r.answer}`).toBe('low');
        expect(r.answer, u.query).toMatch(DONT_HAVE);
        expect(r.answer, u.query).not.toMatch(/\d+ days|\d+%|\$\d/);
        expect(schemaErrors('ResearchAnswer', r)).toEqual([]);
      }
    }
  });

  it('uncertain facts lower confidence to medium and say so', async () => {
    const unc = data.docs.find((d) => d.level === 'state' && d.category === 'eviction' && d.subcategory === 'nonpayment_notice' && d.status === 'active' && d.uncertain.includes('notice_days'));
    if (!unc) return;
    const r = await ask({ query: `eviction notice for nonpayment in ${data.stateNames.get(unc.state)}`, depth: 'quick' });
    expect(r.confidence).toBe('medium');
    expect(r.answer).toMatch(/unverified|conflicting/);
  });

  it('says what it cannot answer inside an answerable question (mortgage redemption), at medium', async () => {
    const r = await ask({ query: 'How long do I have to redeem my house after foreclosure in Michigan?' });
    expect(r.answer).toMatch(/tax sales only/);
    expect(r.answer).toMatch(/non-judicial/);
    expect(r.confidence).toBe('medium');
  });

  it('a question with a topic but no place asks for one, naming the closest topic', async () => {
    const r = await ask({ query: 'lead paint disclosure' });
    expect(r.confidence).toBe('low');
    expect(r.answer).toMatch(/name a state/);
    expect(r.sources).toEqual([]);
  });

  it('a place we do not cover is named in quick and deep answers too, never dropped, and caps confidence at medium', async () => {
    for (const depth of ['quick', 'deep'] as const) {
      const r = await ask({ query: 'tax lien interest rate in Puerto Rico and Texas?', depth });
      expect(r.answer, depth).toMatch(/no data for Puerto Rico/i);
      expect(r.answer, depth).toContain('Texas');
      expect(r.confidence, depth).toBe('medium');
    }
  });

  it('a county ordinance "may apply" in a city of the county, at medium (as the legal endpoints say it)', async () => {
    const county = data.docs.find((d) => d.level === 'county' && d.subcategory === 'local_overlay' && d.category === 'rent_control' && d.status === 'active');
    if (!county) throw new Error('the build has no county rent control overlay');
    // a city of that county without its own overlay
    const city = [...data.citiesByName.values()].flat().find((c) => c.state === county.state && c.county_fips === county.county_fips
      && !data.docs.some((d) => d.level === 'city' && d.state === c.state && d.city === c.name));
    if (!city) throw new Error(`no city in county ${county.county_fips}`);
    const r = await ask({ query: `Does ${city.name}, ${county.state} have rent control?` });
    expect(r.answer).toMatch(new RegExp(`A county ordinance may apply in ${city.name}`));
    expect(r.answer).not.toMatch(/The county has local rent control/);
    expect(r.confidence).toBe('medium');
    expect(r.sources.map((s) => s.citation)).toContain(county.citation);
  });

  it('a structured fact of the asked state is high confidence', async () => {
    const r = await ask({ query: 'Is Texas a judicial or non-judicial foreclosure state?' });
    expect(r.confidence).toBe('high');
  });

  it('comparisons put both places side by side', async () => {
    const r = await ask({ query: 'Compare eviction notice periods in Texas and California' });
    expect(r.answer).toMatch(/Texas 3 days; California 3 business days/);
    expect(r.sources.map((s) => s.citation)).toEqual(expect.arrayContaining(['Tex. Prop. Code 24.005']));
    expect(r.sources.length).toBe(2);
  });
});

describe('understanding', () => {
  const u = (q: string, ctx = {}) => understand(q, ctx, data);
  const states = (q: string, ctx = {}) => u(q, ctx).targets.map((t) => t.state);

  it('does not read English words as state codes', () => {
    expect(states('Is it OK to raise the rent in Texas?')).toEqual(['TX']);
    expect(states('Can I evict a tenant in Texas OR California')).toEqual(['TX', 'CA']);
    expect(states('what notice do I give in texas')).toEqual(['TX']);
    expect(states('Tell ME about eviction notice IN Texas')).toEqual(['TX']);
    expect(states('HOW LONG IS AN EVICTION IN TEXAS')).toEqual(['TX']);
    expect(states('ID needed for an eviction filing in Georgia?')).toEqual(['GA']);
    expect(states('is a 3 day notice OK?')).toEqual([]);
  });

  it('reads codes with a cue', () => {
    expect(states('eviction notice in OR?')).toEqual(['OR']);
    expect(states('Portland, OR rent control')).toEqual(['OR']);
    expect(u('Portland, ME rent control').targets).toMatchObject([{ state: 'ME', city: 'Portland' }]);
    expect(states('security deposit limit MA')).toEqual(['MA']);
    expect(states('TX vs CA eviction timeline')).toEqual(['TX', 'CA']);
    expect(states('Compare foreclosure in NY and NJ')).toEqual(['NY', 'NJ']);
  });

  it('handles DC and the ambiguous Washington', () => {
    expect(states('rent control in Washington DC')).toEqual(['DC']);
    expect(states('rent control in Washington, D.C.')).toEqual(['DC']);
    expect(states('District of Columbia eviction notice')).toEqual(['DC']);
    expect(states('eviction notice in DC')).toEqual(['DC']);
    expect(states('eviction notice in Washington state')).toEqual(['WA']);
    const w = u('eviction notice in Washington');
    expect(w.targets.map((t) => t.state)).toEqual(['WA']);
    expect(w.notes.join(' ')).toMatch(/Washington State/);
    expect(states('eviction notice in Washington', { state: 'DC' })).toEqual(['DC']);
  });

  it('finds cities, zips and context', () => {
    expect(u('rent control in Seattle').targets).toMatchObject([{ state: 'WA', city: 'Seattle' }]);
    expect(u('comps for 98103').targets).toMatchObject([{ zip: '98103', state: 'WA' }]);
    expect(u('Kansas City eviction notice').targets).toMatchObject([{ city: 'Kansas City' }]);
    expect(u('Springfield, Illinois foreclosure').targets).toMatchObject([{ state: 'IL', city: 'Springfield' }]);
    expect(u('Deposit limits in New York?').targets).toEqual([{ state: 'NY', from: 'query' }]);
    expect(u('what is the price of a $12345 house in Texas').targets.map((t) => t.zip)).toEqual([undefined]);
    expect(u('eviction notice', { zip: '37206' }).targets).toMatchObject([{ zip: '37206', state: 'TN', from: 'context' }]);
    expect(u('eviction notice', { city: 'Denver', state: 'CO' }).targets).toMatchObject([{ city: 'Denver', state: 'CO' }]);
    expect(u('eviction notice in Ohio', { state: 'TX' }).targets.map((t) => t.state)).toEqual(['OH']);
    expect(u('rules in Puerto Rico').unknown).toEqual(['Puerto Rico']);
    expect(u('rehab activity in Nashville 37206').targets).toMatchObject([{ zip: '37206', city: 'Nashville', state: 'TN' }]); // one place, not two
  });

  it('detects intents', () => {
    expect(detectIntents('How long does an eviction take in Texas?')).toEqual(['eviction_timeline']);
    expect(detectIntents('How many days notice to evict in Texas?')).toEqual(['eviction_notice']);
    expect(detectIntents('tax lien interest rate')).toEqual(['tax_sale']);
    expect(detectIntents('redemption period after a tax sale')).toEqual(['redemption']);
    expect(detectIntents('Is it a judicial foreclosure state')).toEqual(['foreclosure']);
    expect(detectIntents('squatters rights')).toEqual(['adverse_possession']);
    expect(detectIntents('flood zone')).toEqual(['location']);
    expect(detectIntents('price per square foot')).toEqual(['comps']);
    expect(detectIntents('rehab momentum')).toEqual(['rehab']);
    expect(detectIntents('investor activity')).toEqual(['investor']);
    expect(detectIntents('legal risk score')).toEqual(['legal_risk']);
    expect(detectIntents('Does Texas permit rent control?')).toEqual(['rent_control']);
  });
});

describe('retrieval', () => {
  it('BM25 ranks the record whose words match', () => {
    const idx = new Bm25(buildBm25(['eviction notice to pay or quit', 'security deposit limit months', 'adverse possession color of title years']));
    expect(idx.search(queryTerms('squatters and color of title'))[0]!.doc).toBe(2);
    expect(idx.search(queryTerms('deposits'))[0]!.doc).toBe(1);
    const s = idx.search(queryTerms('notice to evict'));
    expect(s[0]!.doc).toBe(0);
    expect(idx.coverage(queryTerms('capital gains'), [])).toBe(0);
  });

  it('full-text search finds rules outside the named intents', async () => {
    const r = await ask({ query: 'Garn-St Germain due-on-sale clause in Ohio', depth: 'quick' });
    expect(r.sources[0]).toMatchObject({ type: 'regulation', category: 'creative_finance' });
    expect(r.confidence).toBe('medium');
  });
});

describe('optional LLM rephrase (fake OpenAI-compatible server on loopback)', () => {
  let server: http.Server;
  let url = '';
  /** what the fake model does to the draft it is sent */
  let reply: (draft: string) => string = (d) => d;
  let calls = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        calls++;
        const parsed = JSON.parse(body) as { messages: { content: string }[] };
        const draft = parsed.messages[1]!.content.split('DRAFT:\n')[1] ?? '';
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: reply(draft) } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const llm = () => new ResearchEngine(data, { url, model: 'fake', key: null, timeoutMs: 2000 });
  const q = { query: 'How many days notice to evict for nonpayment in Texas?', depth: 'quick' as const };
  it('takes a faithful rephrase', async () => {
    reply = (d) => `Rephrased: ${d}`;
    const r = await llm().answer(q);
    expect(r.answer.startsWith('Rephrased:')).toBe(true);
    expect(calls).toBeGreaterThan(0);
  });

  /** The fake model rewrites the draft of `input`; the engine must return the draft unchanged. */
  async function rejected(input: ResearchInput, change: (draft: string) => string): Promise<void> {
    const draft = (await engine.answer(input)).answer;
    expect(change(draft), 'the change must change something').not.toBe(draft);
    reply = change;
    const before = calls;
    const r = await llm().answer(input);
    expect(calls).toBe(before + 1);
    expect(r.answer).toBe(draft);
  }
  it('rejects a rephrase that invents a number', () => rejected(q, () => 'In Texas a landlord must give 5 days of notice. Not legal advice.'));
  it('rejects a rephrase that drops the not-legal-advice caveat', () => rejected(q, (d) => d.replace(NOT_LEGAL_ADVICE, '').trim()));
  it('rejects a rephrase that drops the uncertainty wording', async () => {
    const unc = data.docs.find((d) => d.level === 'state' && d.category === 'tax_deed_lien' && d.subcategory === 'tax_sale' && d.status === 'active' && d.uncertain.includes('interest_rate_pct'));
    if (!unc) throw new Error('the build has no tax sale record with an uncertain rate to test with');
    const input = { query: `tax lien interest rate in ${data.stateName(unc.state)}`, depth: 'quick' as const };
    expect((await engine.answer(input)).answer).toMatch(/unverified/);
    await rejected(input, (d) => d.replace(/; marked unverified or conflicting in our sources \([^)]*\)/, ''));
  });
  it('rejects a deep rephrase that drops a citation (numbers kept)', () =>
    rejected({ ...q, depth: 'deep' }, (d) => d.replaceAll('Tex. Prop. Code 24.005', 'Texas property law section 24.005')));
  it('rejects a rephrase that changes the state', () => rejected(q, (d) => d.replaceAll('Texas', 'Oklahoma')));
  it('rejects a rephrase that turns judicial into non-judicial', () =>
    rejected({ query: 'Is foreclosure judicial in Florida?' }, (d) => d.replace(/is judicial: the lender must go through the courts/, 'is non-judicial: a trustee sells')));
  it('rejects a rephrase that turns a lien state into a deed state', () =>
    rejected({ query: 'What is the tax lien interest rate in Florida?' }, (d) => d.replace('tax lien state', 'tax deed state')));
  it('falls back when the endpoint is down', async () => {
    const e = new ResearchEngine(data, { url: 'http://127.0.0.1:1/v1/chat/completions', model: 'fake', key: null, timeoutMs: 500 });
    expect((await e.answer(q)).answer).toBe((await engine.answer(q)).answer);
  });
  it('number and term guard', () => {
    expect([...numbersIn('3 days, $1,250 and 2026-11-21')]).toEqual(['3', '1250', '2026', '11', '21']);
    expect(acceptRephrase('Texas: 3 days.', 'notice 3 days', 'Texas gives 3 days.', 'quick')).toBe(true);
    expect(acceptRephrase('Texas: 3 days.', 'notice 3 days', 'Texas gives 4 days.', 'quick')).toBe(false);
    expect(acceptRephrase('Texas: 3 days.', 'notice 3 days', 'Texas gives a few days.', 'quick')).toBe(false);
    expect(rephraseProblem('Texas: 3 days. Not legal advice.', '', 'Texas: 3 days.', 'quick')).toMatch(/caveat/);
    expect(rephraseProblem('Rate 18% (marked unverified).', '', 'Rate 18%.', 'quick')).toMatch(/uncertainty/);
    expect(rephraseProblem('Rate 18% (marked unverified).', '', 'Rate 18%; sources conflict.', 'quick')).toBeNull();
    expect(rephraseProblem('See RPAPL Art. 13.', '', 'See Article 13.', 'deep', { citations: ['RPAPL Art. 13'] })).toMatch(/citation/);
    expect(rephraseProblem('See RPAPL Art. 13.', '', 'See Article 13.', 'quick', { citations: ['RPAPL Art. 13'] })).toBeNull();
    expect(rephraseProblem('Texas is non-judicial.', '', 'Texas is judicial.', 'quick')).toMatch(/non-judicial/);
    expect(rephraseProblem('Texas is judicial.', '', 'Texas is non-judicial.', 'quick')).toMatch(/judicial/);
    expect(rephraseProblem('Iowa sells liens.', '', 'Iowa sells deeds.', 'quick')).toMatch(/lien/);
    expect(rephraseProblem('Texas uses a hybrid system.', '', 'Texas uses a mixed system.', 'quick')).toMatch(/hybrid/);
    expect(rephraseProblem('Texas: 3 days.', '', 'Oklahoma: 3 days.', 'quick', { places: ['Texas', 'Oklahoma'] })).toMatch(/Texas/);
  });

  it('llmFromSettings: null without REII_LLM_URL, the endpoint and options with it', () => {
    expect(llmFromSettings(loadSettings({}, {}))).toBeNull();
    expect(llmFromSettings(loadSettings({}, { REII_LLM_URL: '' }))).toBeNull();
    expect(llmFromSettings(loadSettings({}, { REII_LLM_URL: url, REII_LLM_MODEL: 'm', REII_LLM_KEY: 'k', REII_LLM_TIMEOUT_MS: '900' }))).toEqual({ url, model: 'm', key: 'k', timeoutMs: 900 });
    expect(llmFromSettings(loadSettings({}, { REII_LLM_URL: url }))).toEqual({ url, model: 'default', key: null, timeoutMs: 4000 });
  });

  it('a real server started with REII_LLM_URL uses the fake endpoint for POST /v1/research/query', async () => {
    const saved = process.env['REII_LLM_URL'];
    process.env['REII_LLM_URL'] = url;
    let srv: TestServer | null = null;
    try {
      srv = await startTestServer(artifactsDir());
      reply = (d) => `Via the model: ${d}`;
      const before = calls;
      const res = await srv.post('/v1/research/query', { query: q.query }, srv.key('pro'));
      expect(res.status).toBe(200);
      const body = (await res.json()) as ResearchBody;
      expect(calls).toBe(before + 1);
      expect(body.answer.startsWith('Via the model: ')).toBe(true);
    } finally {
      if (saved === undefined) delete process.env['REII_LLM_URL'];
      else process.env['REII_LLM_URL'] = saved;
      await srv?.close();
    }
  });
});

describe('market facts from shards shaped like the spec (a build where the market shards exist)', () => {
  it('states comps, rehab and investor figures with their windows and as-of dates, and cites them', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-research-market-'));
    try {
      fs.symlinkSync(path.join(buildDir(), 'live'), path.join(tmp, 'live'));
      const put = (family: FamilyName, keys: Record<string, string>, body: unknown): void => {
        const p = shardPath(family, keys);
        if (!p.ok) throw new Error(p.reason);
        fs.mkdirSync(path.dirname(path.join(tmp, 'shards', p.path)), { recursive: true });
        fs.writeFileSync(path.join(tmp, 'shards', p.path), JSON.stringify(body));
      };
      put('comps', { zip: '98103', property_type: 'sfr', months: '6' }, { zip_code: '98103', city: 'Seattle', state: 'WA', property_type: 'sfr', sample_count: 41,
        price_per_sqft: { p25: 450.4, median: 512.3, p75: 580 }, days_on_market: { median: 9 }, list_to_sale_ratio: 1.021, confidence: 'medium', as_of: '2015-05-14' });
      put('comps', { zip: '98103', property_type: 'condo', months: '12' }, { zip_code: '98103', city: 'Seattle', state: 'WA', property_type: 'condo', sample_count: null,
        price_per_sqft: { p25: null, median: null, p75: null }, days_on_market: { median: null }, list_to_sale_ratio: null, confidence: 'low', as_of: '2015-05-14' });
      put('rehab', { zip: '37206', months: '6' }, { zip_code: '37206', city: 'Nashville', state: 'TN', rehab_momentum_score: 78, label: 'Hot', trend: 'up', trend_pct: 12.5, confidence: 'high', as_of: '2017-03-01' });
      put('investor', { state: 'CO', city: 'Denver', months: '12' }, { city: 'Denver', state: 'CO', investor_purchase_rate_pct: 17.4, flip_velocity_days: 143, gross_flip_margin_pct: 21.2,
        distressed_pipeline_count: 0, platform_active_deals: 0, market_tier: 'primary', confidence: 'high', as_of: '2024-12-31' });
      const e = new ResearchEngine(new ResearchData(data.docs, data.bm25.data, [...data.stateLegal.values()], { states: [], cities: [['Denver', 'CO', 715000, '80202', '08031'], ['Seattle', 'WA', 750000, '98103', '53033']], zips: [['98103', 'Seattle', 'WA'], ['37206', 'Nashville', 'TN']] }, fileShards(path.join(tmp, 'shards')), null), null);
      const comps = await e.answer({ query: 'What are comps for 98103?' });
      expect(comps.answer).toMatch(/41 single-family sales in the 6 months to 2015-05-14/);
      expect(comps.answer).toMatch(/\$512 per sqft/);
      expect(comps.sources).toEqual([{ type: 'comps', category: 'market', citation: 'reii warehouse: comps for 98103, sfr, 6 months, as of 2015-05-14' }]);
      expect(comps.confidence).toBe('medium');
      const thin = await e.answer({ query: 'condo comps in 98103 over 12 months' });
      expect(thin.answer).toMatch(/fewer than 5/);
      expect(thin.confidence).toBe('low');
      const rehab = await e.answer({ query: 'rehab momentum in 37206' });
      expect(rehab.answer).toMatch(/78 out of 100 \(Hot\), trend up \(\+12.5%\)/);
      expect(rehab.sources[0]).toMatchObject({ type: 'rehab', category: 'market' });
      const inv = await e.answer({ query: 'What share of homes are bought by investors in Denver?', depth: 'deep' });
      expect(inv.answer).toMatch(/17.4% of the homes sold in the 12 months to 2024-12-31/);
      expect(inv.answer).toContain('reii warehouse: investor overview for Denver, CO, 12 months, as of 2024-12-31');
      expect(inv.confidence).toBe('high');
      put('investor', { state: 'WA', city: 'Seattle', months: '12' }, { city: 'Seattle', state: 'WA', investor_purchase_rate_pct: null, flip_velocity_days: null, gross_flip_margin_pct: null,
        distressed_pipeline_count: 0, platform_active_deals: 0, market_tier: 'primary', confidence: 'high', as_of: '2015-05-27' });
      const unknownShare = await e.answer({ query: 'investor activity in Seattle' });
      expect(unknownShare.answer).toMatch(/investor share is unknown/);
      expect(unknownShare.confidence).toBe('medium'); // the main figure is missing: never high
      const both = await e.answer({ query: 'Compare investor activity in Denver and Seattle' });
      expect(both.answer).toMatch(/Denver, CO 17.4% investor purchases; Seattle, WA investor share unknown/); // one measure side by side
      expect(both.answer).not.toMatch(/distressed/);
      const city = await e.answer({ query: 'home prices in Seattle' });
      expect(city.answer).toMatch(/98103/);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('the index step over given rows', () => {
  it('writes the index from the regulations table alone and the module degrades honestly', async () => {
    const ctx = await makeContext();
    try {
      await ctx.db.run(`create table regulations (id varchar, jurisdiction_level varchar, state_code varchar, county_fips varchar, city varchar,
        category varchar, subcategory varchar, title varchar, summary varchar, structured_data json, source_citation varchar, source_url varchar,
        effective_date date, status varchar, verified_at date, last_reviewed_at date, uncertain_fields varchar[])`);
      await ctx.db.run(`insert into regulations values
        ('tx-eviction-nonpayment-notice', 'state', 'TX', null, null, 'eviction', 'nonpayment_notice', 'Texas notice: 3 days', 'Three days.',
         '{"notice_required": true, "notice_days": 3, "day_type": null, "uncertain_fields": []}', 'Tex. Prop. Code 24.005', null, null, 'active', null, '2026-11-21', []),
        ('tx-old', 'state', 'TX', null, null, 'eviction', 'nonpayment_notice', 'Old rule', 'Gone.', '{}', null, null, null, 'expired', null, null, [])`);
      await runIndex(ctx);
      const dir = path.join(ctx.paths.build, 'live', 'research');
      const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { counts: Record<string, number> };
      expect(meta.counts).toMatchObject({ regulations: 1, state_legal: 0, cities: 0, zips: 0 });
      const d = ResearchData.fromBuild(ctx.paths.build)!;
      const e = new ResearchEngine(d, null);
      const r = await e.answer({ query: 'eviction notice for nonpayment in Texas' });
      expect(r.answer).toMatch(/3 days/);
      expect(r.sources).toEqual([{ type: 'regulation', category: 'eviction', citation: 'Tex. Prop. Code 24.005' }]);
      const friendly = await e.answer({ query: 'Is Texas landlord friendly?' });
      expect(friendly.confidence).toBe('low');
      const comps = await e.answer({ query: 'comps for 98103' });
      expect(comps.confidence).toBe('low');
      expect(comps.answer).toMatch(DONT_HAVE);
    } finally {
      ctx.close();
    }
  });
});

describe('the live module and HTTP', () => {
  let srv: TestServer;
  beforeAll(async () => { srv = await startTestServer(artifactsDir()); });
  afterAll(async () => { await srv.close(); });

  it('load() answers 404 for a build without the research index', async () => {
    const inst = await research.load({ dir: path.join(buildDir(), 'no-such-dir'), buildId: 'x', asOf: '2026-01-01', settings: loadSettings() });
    const a = await inst.handle({ query: 'eviction notice in Texas' });
    expect(a).toMatchObject({ ok: false, code: 'no_data' });
  });

  it('POST /v1/research/query answers with the schema', async () => {
    const key = srv.key('pro');
    const res = await srv.post('/v1/research/query', { query: 'Compare eviction notice periods in Texas and California', depth: 'deep' }, key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as ResearchBody;
    expect(schemaErrors('ResearchAnswer', body)).toEqual([]);
    expect(body.depth).toBe('deep');
    expect(body.answer).toContain('Tex. Prop. Code 24.005');
    const ctx = await srv.post('/v1/research/query', { query: 'Is there a flood risk here?', context: { zip: '98103' } }, key);
    expect(ctx.status).toBe(200);
  });

  it('400 empty query, 422 depth forever, 422 context zip abc; a long query is cut, not refused', async () => {
    const key = srv.key('pro');
    expect((await srv.post('/v1/research/query', { query: '' }, key)).status).toBe(400);
    expect((await srv.post('/v1/research/query', {}, key)).status).toBe(400);
    expect((await srv.post('/v1/research/query', { query: 'eviction notice in Texas', depth: 'forever' }, key)).status).toBe(422);
    expect((await srv.post('/v1/research/query', { query: 'eviction notice in Texas', context: { zip: 'abc' } }, key)).status).toBe(422);
    const long = await srv.post('/v1/research/query', { query: `eviction notice in Texas ${'please '.repeat(800)}` }, key);
    expect(long.status).toBe(200);
    expect(((await long.json()) as ResearchBody).answer).toMatch(/3 days/);
  });
});
