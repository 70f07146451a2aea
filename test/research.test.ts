// Research (POST /v1/research/query): the question set test/research-questions.json run through the live module
// against the shared real build. Expected facts are computed from the sources, not hard-coded: legal facts from
// ../shared/reference/legal-facts.csv, landlord friendliness from the warehouse, market and location figures from
// the build's shards. A question whose source family is absent from the build (another team's shards not built
// yet) must get an honest low-confidence answer and is reported separately.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, buildDir, warehouseRows } from './helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from './helpers/server.ts';
import research, { acceptRephrase, llmFromEnv, numbersIn, rephraseProblem, ResearchEngine, type ResearchBody, type ResearchInput } from '../api/live/research.ts';
import { ResearchData } from '../api/live/research-data.ts';
import { understand, detectIntents } from '../api/live/research-intent.ts';
import { countSentences, NOT_LEGAL_ADVICE } from '../api/live/research-answer.ts';
import { shardPath, type FamilyName } from '../pipelines/shards/layout.ts';
import { buildBm25, Bm25, queryTerms } from '../api/live/research-text.ts';
import { makeContext } from './helpers/context.ts';
import { run as runIndex } from '../pipelines/shards/research-index.ts';

type Row = Record<string, string>;
const CSV = path.resolve(import.meta.dirname, '../../shared/reference/legal-facts.csv');
const csvRows = parse(fs.readFileSync(CSV), { columns: true, skip_empty_lines: true }) as Row[];
const byState = new Map(csvRows.map((r) => [r['state_code']!, r]));

interface Expect {
  csv?: string; state?: string; text?: string; csvMax?: string; csvMin?: string; stateLegal?: string;
  shard?: FamilyName; keys?: Record<string, string>; field?: string; round?: boolean; format?: string; shardFamily?: string;
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
  /** a zip-level family asked about a city: a figure of one of the city's own zips (geo-lookup zip_codes), cited */
  cityZips?: { family: 'comps' | 'rehab' | 'location-zip'; state: string; city: string; months?: string };
}
interface Question { id: string; query: string; context?: ResearchInput['context']; depth?: 'quick' | 'deep'; expect: Expect[]; cite: { type: string; category: string } }
const SET = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'research-questions.json'), 'utf8')) as { questions: Question[]; unanswerable: { query: string; context?: ResearchInput['context'] }[] };

const fmtNum = (v: number): string => (Number.isInteger(v) ? String(v) : String(Number(v.toFixed(2))));
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
/** What must appear in the answer for one expectation: a predicate, a label for the misses list, and the citations it needs. */
type Check = { label: string; ok: (answer: string) => boolean; cite?: { label: string; ok: (sources: Sources) => boolean } } | { absent: string };

/** Active regulation records of the warehouse, by state|category|subcategory (state level) or state|city|category|subcategory. */
interface RegRow { id: string; jurisdiction_level: string; state_code: string; city: string | null; category: string; subcategory: string; source_citation: string | null; structured_data: string }
let regs = new Map<string, RegRow>();
const regKey = (st: string, cat: string, sub: string, city?: string): string => `${st}|${city ?? ''}|${cat}|${sub}`;
/** A record is cited when its own citation (or, without one, its id) is among the sources. */
const citesRecord = (r: RegRow) => (sources: Sources): boolean => sources.some((s) => (r.source_citation !== null && s.citation === r.source_citation) || s.citation.includes(r.id));

const CSV_RECORD: Record<string, [string, string]> = {
  eviction_notice_nonpayment_days: ['eviction', 'nonpayment_notice'], eviction_timeline_days_est: ['eviction', 'timeline_estimate'],
  security_deposit_limit_months: ['landlord_tenant', 'security_deposit'], foreclosure_type: ['foreclosure', 'process'],
  tax_sale_type: ['tax_deed_lien', 'tax_sale'], tax_lien_interest_rate_pct: ['tax_deed_lien', 'tax_sale'], redemption_period_months: ['tax_deed_lien', 'tax_sale'],
  rent_control_preemption: ['rent_control', 'state_preemption'], adverse_possession_years: ['adverse_possession', 'standard_period'],
  adverse_possession_color_of_title_years: ['adverse_possession', 'color_of_title'],
};
function recordCite(st: string, col: string): NonNullable<Extract<Check, { ok: unknown }>['cite']> {
  const [cat, sub] = CSV_RECORD[col]!;
  const r = regs.get(regKey(st, cat, sub));
  if (!r) return { label: `no ${cat}/${sub} record for ${st} in the warehouse`, ok: () => false };
  return { label: `${st}'s own ${cat}/${sub} record (${r.source_citation ?? r.id})`, ok: citesRecord(r) };
}

function csvCheck(col: string, st: string): Check {
  const r = byState.get(st);
  if (!r) throw new Error(`no CSV row for ${st}`);
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
      return num(v, '%');
    case 'redemption_period_months':
      return v === '' ? none(/no redemption period/i) : num(v, 'months?\\b');
    case 'rent_control_preemption':
      return said(v, ({ yes: /prohibits local rent control/i, no: /does not preempt local rent control/i, partial: /partially preempts/i } as Record<string, RegExp>)[v]!);
    case 'adverse_possession_years':
    case 'adverse_possession_color_of_title_years':
      return num(v, 'years?\\b');
    case 'eviction_timeline_days_est':
      return v === '' ? none(/no public estimate/i) : num(v, 'days?\\b');
    default:
      throw new Error(`no rule for CSV column ${col}`);
  }
}

const UNIT_OF: Record<string, string> = { eviction_notice_nonpayment_days: 'days?\\b', tax_lien_interest_rate_pct: '%', adverse_possession_years: 'years?\\b', security_deposit_limit_months: 'months?\\b' };
function extreme(col: string, dir: 'max' | 'min'): Check {
  const vals = csvRows.map((r) => ({ st: r['state_code']!, v: Number(r[col]) })).filter((x) => Number.isFinite(x.v) && x.v > 0);
  vals.sort((a, b) => (dir === 'max' ? b.v - a.v : a.v - b.v));
  const best = vals[0]!;
  return { label: `${dir} ${col} = ${stateName(best.st)} ${best.v}`, ok: (a) => about(a, stateName(best.st), (w) => hasNumberUnit(w, fmtNum(best.v), UNIT_OF[col]!)), cite: recordCite(best.st, col) };
}

const get = (o: unknown, dotted: string): unknown => dotted.split('.').reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined), o);
function readShardMaybe(family: FamilyName, keys: Record<string, string>): unknown {
  const p = shardPath(family, keys);
  if (!p.ok) return null;
  const f = path.join(buildDir(), 'shards', p.path);
  return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : null;
}

/** How a shard figure is written: the number with its unit, so a stray number elsewhere cannot pass. */
const SHARD_UNIT: Record<string, (n: string) => RegExp> = {
  'price_per_sqft.median': (n) => new RegExp(`\\$${esc(n)}(?: per sqft|/sqft)`),
  investor_purchase_rate_pct: (n) => new RegExp(`(?<![\\d.])${esc(n)}%`),
  rehab_momentum_score: (n) => new RegExp(`(?<![\\d.])${esc(n)}(?: out of 100| \\()`),
  environmental_risk_score: (n) => new RegExp(`(?<![\\d.])${esc(n)} out of 100`),
  legal_risk_score: (n) => new RegExp(`(?:legal risk score of |, [A-Z]{2} )${esc(n)} \\(`),
};
/** The citation of a market or location shard names its place (zip, or city and state). */
const shardCite = (family: string, keys: Record<string, string>): NonNullable<Extract<Check, { ok: unknown }>['cite']> => {
  const where = keys['zip'] ?? `${keys['city']}, ${keys['state']}`;
  return { label: `${family} for ${where}`, ok: (src) => src.some((s) => s.citation.includes(`for ${where},`)) };
};

let friendliness = new Map<string, number>();
function checkFor(e: Expect): Check {
  if (e.csv) return csvCheck(e.csv, e.state!);
  if (e.csvMax) return extreme(e.csvMax, 'max');
  if (e.csvMin) return extreme(e.csvMin, 'min');
  if (e.stateLegal) {
    const v = friendliness.get(e.stateLegal);
    if (v === undefined) return { absent: `state_legal ${e.stateLegal}` };
    const st = e.stateLegal;
    return {
      label: `landlord friendliness ${st} = ${fmtNum(v)}`, ok: (a) => about(a, stateName(st), (w) => new RegExp(`(?<![\\d.])${esc(fmtNum(v))} out of 100`).test(stripDates(w))),
      cite: { label: `state_legal for ${st}`, ok: (src) => src.some((s) => s.category === 'landlord_friendliness' && s.citation.includes(` for ${st},`)) },
    };
  }
  if (e.record) {
    const { state, city, category, subcategory } = e.record;
    const r = regs.get(regKey(state, category, subcategory, city));
    if (!r) return { label: `record ${state}${city ? `/${city}` : ''} ${category}/${subcategory} in the warehouse`, ok: () => false };
    const cite = { label: `record ${r.id}`, ok: citesRecord(r) };
    if (e.pattern) { const re = new RegExp(e.pattern, 'i'); return { label: `${r.id}: /${e.pattern}/`, ok: (a) => re.test(stripDates(a)), cite }; }
    const raw = (JSON.parse(r.structured_data) as Record<string, unknown>)[e.field!];
    // a city's figure must be said of that city (the District's overlay is the District's)
    const place = city ? (state === 'DC' ? 'District of Columbia' : city) : stateName(state);
    if (typeof raw === 'number') return { label: `${r.id}.${e.field} = ${fmtNum(raw)}${e.unit}`, ok: (a) => about(a, place, (w) => hasNumberUnit(w, fmtNum(raw), e.unit!)), cite };
    if (typeof raw === 'string') return { label: `${r.id}.${e.field} = "${raw}"`, ok: (a) => about(a, place, (w) => w.includes(raw)), cite };
    return { label: `${r.id}.${e.field} is recorded`, ok: () => false };
  }
  if (e.noOverlay) {
    const { state, city } = e.noOverlay;
    if (regs.has(regKey(state, 'rent_control', 'local_overlay', city))) return { label: `${city} has no overlay (but the warehouse has one)`, ok: () => false };
    return { label: `no ordinance recorded for ${city}`, ok: (a) => new RegExp(`no (?:local )?rent control ordinance recorded for ${esc(city)}`, 'i').test(a) };
  }
  if (e.csvNone) {
    const col = e.csvNone;
    const none = csvRows.filter((r) => (r[col] ?? '').trim() === 'none').map((r) => r['state_code']!);
    const allowed = new Set(none.map((st) => recordCite(st, col)));
    const capped = csvRows.filter((r) => (r[col] ?? '').trim() !== 'none').map((r) => recordCite(r['state_code']!, col));
    return {
      label: `${none.length} jurisdictions with ${col} = none`, ok: (a) => new RegExp(`(?<![\\d.])${none.length} jurisdictions have no`).test(a),
      cite: { label: `only states without a cap`, ok: (src) => [...allowed].some((c) => c.ok(src)) && !capped.some((c) => c.ok(src.filter((s) => s.category === CSV_RECORD[col]![0]))) },
    };
  }
  if (e.cityZips) {
    const { family, state, city } = e.cityZips;
    const lookup = readShardMaybe('geo-lookup', { state, city }) as { zip_codes?: string[] } | null;
    const zips = lookup?.zip_codes ?? [];
    const field = family === 'comps' ? 'price_per_sqft.median' : family === 'rehab' ? 'rehab_momentum_score' : 'environmental_risk_score';
    const months = e.cityZips.months ?? (family === 'location-zip' ? undefined : '6');
    const figures = zips.flatMap((zip) => {
      const keys: Record<string, string> = family === 'comps' ? { zip, property_type: 'sfr', months: months! } : family === 'rehab' ? { zip, months: months! } : { zip };
      const body = readShardMaybe(family, keys);
      const raw = body ? get(body, field) : null;
      return typeof raw === 'number' ? [{ zip, n: family === 'comps' ? String(Math.round(raw)) : fmtNum(raw) }] : [];
    });
    if (figures.length === 0) return { absent: `${family} for any zip of ${city}, ${state}` };
    return {
      label: `${family} figure of a ${city} zip`,
      ok: (a) => figures.some((f) => new RegExp(`\\b${f.zip}\\b`).test(a) && SHARD_UNIT[field]!(f.n).test(stripDates(a))),
      cite: { label: `a ${family} source for a ${city} zip`, ok: (src) => src.length > 0 && src.every((s) => zips.some((z) => s.citation.includes(`for ${z},`))) },
    };
  }
  if (e.shard) {
    const body = readShardMaybe(e.shard, e.keys ?? {});
    if (!body) return { absent: `${e.shard} ${JSON.stringify(e.keys)}` };
    const raw = get(body, e.field!);
    const cite = shardCite(e.shard, e.keys ?? {});
    // a city's figure is said of that city ("Denver, CO 13% ...; Seattle, WA investor share unknown")
    const inPlace = (a: string, ok: (w: string) => boolean): boolean => (e.keys?.['city'] ? about(stripDates(a), e.keys['city'], ok) : ok(stripDates(a)));
    // a cohort under 5 comps has no prices: the answer must say so rather than give a figure
    if (raw === null && e.field === 'price_per_sqft.median') return { label: `${e.shard}.${e.field} = null (fewer than 5 comps)`, ok: (a) => /fewer than 5\b[^.]*sales/i.test(a), cite };
    if (raw === null && e.field === 'investor_purchase_rate_pct') return { label: `${e.shard}.${e.field} = unknown`, ok: (a) => inPlace(a, (w) => /investor share (?:is )?unknown/i.test(w)), cite };
    if (typeof raw === 'number') {
      const n = e.round ? String(Math.round(raw)) : fmtNum(raw);
      const re = SHARD_UNIT[e.field!];
      if (!re) throw new Error(`no unit rule for shard field ${e.field}`);
      return { label: `${e.shard}.${e.field} = ${n}`, ok: (a) => inPlace(a, (w) => re(n).test(w)), cite };
    }
    if (typeof raw !== 'string') throw new Error(`${e.shard}.${e.field} is ${JSON.stringify(raw)}: no rule`);
    const s = (e.format ?? '{}').replace('{}', raw);
    return { label: `${e.shard}.${e.field} = ${s}`, ok: (a) => new RegExp(`\\b${esc(s)}\\b`, 'i').test(a), cite };
  }
  throw new Error(`expectation without a fact check: ${JSON.stringify(e)}`);
}

const DONT_HAVE = /don't have|do not have|we have no|not part of this build|no data for/i;

let data: ResearchData;
let engine: ResearchEngine;
const ask = (q: ResearchInput): Promise<ResearchBody> => engine.answer(q);

beforeAll(async () => {
  const d = ResearchData.fromBuild(buildDir());
  if (!d) throw new Error('the shared build has no live/research index (pipelines/shards/research-index.ts)');
  data = d;
  engine = new ResearchEngine(data, null);
  const rows = await warehouseRows<RegRow>(`select id, jurisdiction_level, state_code, city, category, subcategory, source_citation, structured_data::varchar as structured_data
    from regulations where status = 'active' and jurisdiction_level in ('state', 'city')`);
  regs = new Map(rows.map((r) => [regKey(r.state_code, r.category, r.subcategory, r.jurisdiction_level === 'city' ? r.city ?? '' : undefined), r]));
  for (const r of rows) if (r.jurisdiction_level === 'city' && r.city) CITY_NAMES.add(r.city);
  for (const q of SET.questions) for (const e of q.expect) { const c = e.keys?.['city'] ?? e.record?.city ?? e.cityZips?.city; if (c) CITY_NAMES.add(c); }
  try {
    const rows = await warehouseRows<{ s: string; v: number }>('select state_code as s, landlord_friendliness_score as v from state_legal');
    friendliness = new Map(rows.map((r) => [r.s, Number(r.v)]));
  } catch {
    friendliness = new Map();
  }
});

describe('the question set', () => {
  it('has at least 80 questions over every intent', () => {
    expect(SET.questions.length).toBeGreaterThanOrEqual(80);
    const intents = new Set(SET.questions.flatMap((q) => detectIntents(q.query)));
    for (const i of ['eviction_notice', 'eviction_timeline', 'security_deposit', 'foreclosure', 'tax_sale', 'redemption', 'rent_control',
      'adverse_possession', 'comps', 'rehab', 'investor', 'location', 'legal_risk', 'landlord_friendliness']) expect(intents, i).toContain(i);
    expect(SET.questions.filter((q) => q.id.startsWith('compare-')).length).toBeGreaterThanOrEqual(4);
    expect(new Set(SET.questions.flatMap((q) => q.expect.map((e) => e.state).filter(Boolean))).size).toBeGreaterThanOrEqual(25);
  });

  it('answers >= 90% right and cited (quick), printing the share and the misses', async () => {
    let right = 0;
    let counted = 0;
    const misses: string[] = [];
    const absent: string[] = [];
    for (const q of SET.questions) {
      const r = await ask({ query: q.query, context: q.context, depth: 'quick' });
      const checks = q.expect.map(checkFor);
      const gone = checks.find((c): c is { absent: string } => 'absent' in c);
      if (gone) {
        // the source data is not in this build: the answer must say so, never at high confidence (a related fact,
        // such as the state's landlord friendliness for a city without a legal risk score, may lift it to medium)
        absent.push(`${q.id} (${gone.absent})`);
        expect(r.confidence, `${q.id}: ${r.answer}`).not.toBe('high');
        expect(r.answer, q.id).toMatch(DONT_HAVE);
        // ...and it must be about the right topic (the intent was understood)
        const topic = ({ comps: /comparable/i, rehab: /rehab|renovation/i, investor: /investor/i, legal: /legal risk|friendliness/i, location: /location|flood/i } as Record<string, RegExp>)[q.cite.type];
        if (topic) expect(r.answer, q.id).toMatch(topic);
        continue;
      }
      counted++;
      const facts = checks.filter((c): c is Extract<Check, { ok: unknown }> => 'ok' in c);
      const failed = facts.filter((c) => !c.ok(r.answer)).map((c) => c.label);
      // cited: the right kind of source, and for each expectation the record (or shard) of the asked place itself
      const uncited = facts.filter((c) => c.cite && !c.cite.ok(r.sources)).map((c) => c.cite!.label);
      const cited = r.sources.some((s) => s.type === q.cite.type && s.category === q.cite.category) && uncited.length === 0;
      if (failed.length === 0 && cited) right++;
      else misses.push(`${q.id}: ${failed.length ? `missing ${failed.join(', ')}` : ''}${cited ? '' : ` not cited as ${q.cite.type}/${q.cite.category}${uncited.length ? ` with ${uncited.join(', ')}` : ''} (got ${r.sources.map((s) => `${s.type}/${s.category}: ${s.citation}`).join(' | ') || 'none'})`}\n      Q: ${q.query}\n      A: ${r.answer}`);
    }
    const share = right / Math.max(1, counted);
    console.log(`research: ${right}/${counted} answered right and cited (${(share * 100).toFixed(1)}%); ${absent.length} with source data absent from this build`);
    if (absent.length) console.log(`  absent (honest low answers): ${absent.join('; ')}`);
    if (misses.length) console.log(`  misses:\n    ${misses.join('\n    ')}`);
    expect(counted).toBeGreaterThanOrEqual(60);
    expect(share).toBeGreaterThanOrEqual(0.9);
  });

  it('the scoring itself rejects wrong answers: another state, a date, a number without its unit, a type not stated for the state', () => {
    const fact = (e: Expect) => { const c = checkFor(e); if (!('ok' in c)) throw new Error('absent'); return c; };
    const days = byState.get('TX')!['eviction_notice_nonpayment_days']!;
    const other = String(Number(days) + 2);
    const notice = fact({ csv: 'eviction_notice_nonpayment_days', state: 'TX' });
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
    const deedCheck = fact({ csv: 'tax_sale_type', state: deed['state_code'] });
    expect(deedCheck.ok(`${deed['state_name']} is a tax deed state.`)).toBe(true);
    expect(deedCheck.ok(`${lien['state_name']} is a tax deed state; ${deed['state_name']} sells liens.`)).toBe(false);
    const lienCheck = fact({ csv: 'tax_sale_type', state: lien['state_code'] });
    expect(lienCheck.ok(`${lien['state_name']} is a tax deed state; a lien attaches first.`)).toBe(false); // "lien" anywhere is not enough
    const ia = byState.get('IA')!['redemption_period_months']!;
    expect(fact({ csv: 'redemption_period_months', state: 'IA' }).ok(`In Iowa the owner can redeem (last reviewed 2026-11-${ia}).`)).toBe(false);
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

  it('llmFromEnv: null without REII_LLM_URL, the endpoint and options with it', () => {
    expect(llmFromEnv({})).toBeNull();
    expect(llmFromEnv({ REII_LLM_URL: '' })).toBeNull();
    expect(llmFromEnv({ REII_LLM_URL: url, REII_LLM_MODEL: 'm', REII_LLM_KEY: 'k', REII_LLM_TIMEOUT_MS: '900' })).toEqual({ url, model: 'm', key: 'k', timeoutMs: 900 });
    expect(llmFromEnv({ REII_LLM_URL: url })).toEqual({ url, model: 'default', key: null, timeoutMs: 4000 });
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
      const e = new ResearchEngine(new ResearchData(data.docs, data.bm25.data, [...data.stateLegal.values()], { states: [], cities: [['Denver', 'CO', 715000, '80202', '08031'], ['Seattle', 'WA', 750000, '98103', '53033']], zips: [['98103', 'Seattle', 'WA'], ['37206', 'Nashville', 'TN']] }, path.join(tmp, 'shards'), null), null);
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
    const inst = await research.load({ dir: path.join(buildDir(), 'no-such-dir'), buildId: 'x', asOf: '2026-01-01' });
    const a = await inst.handle({ query: 'eviction notice in Texas' });
    expect(a).toMatchObject({ ok: false, status: 404 });
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
