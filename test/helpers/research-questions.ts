// The research question set (test/live/research/questions.json) and how the question-set test reads an answer: the
// expectation types, the legal-facts.csv rows, the text rules (a figure is said of a place when it sits in that
// place's window of the answer, next to its unit, dates removed: warehouse/docs/research.md "How the question set is
// scored"), and the shapes of a check. The oracles that give the expected figures: oracle-research*.ts.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { ResearchBody, ResearchInput } from '../../live/research/endpoint.ts';
import { REFERENCE } from './paths.ts';

type Row = Record<string, string>;
const CSV = path.join(REFERENCE, 'legal-facts.csv');
export const csvRows = parse(fs.readFileSync(CSV), { columns: true, skip_empty_lines: true }) as Row[];
export const byState = new Map(csvRows.map((r) => [r['state_code']!, r]));

/** A figure of a market, location or legal-risk family, computed by an oracle of oracle-research-*.ts (never read from a shard). */
export type Family = 'comps' | 'rehab' | 'investor' | 'location-zip' | 'legal-market-risk' | 'trends';
export interface Expect {
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
  /** a zip-level family asked about a city: the summary over the city's own zips (simplemaps `zips`), or over a
   *  borough's (`area`: its name and county, the warehouse `zips` of that county), cited */
  cityZips?: { family: 'comps' | 'rehab' | 'location-zip'; state: string; city: string; months?: string; area?: { name: string; county_fips: string } };
  /** no source has this data (proved by a query over the canonical tables): the answer must say so, with no figure */
  noData?: { family: 'comps' | 'investor'; zip?: string; state?: string; city?: string };
}
export interface Question { id: string; query: string; context?: ResearchInput['context']; depth?: 'quick' | 'deep'; expect: Expect[]; cite: { type: string; category: string } }
export const SET = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../live/research/questions.json'), 'utf8')) as { questions: Question[]; unanswerable: { query: string; context?: ResearchInput['context'] }[] };

export const fmtNum = (v: number): string => (Number.isInteger(v) ? String(v) : String(Number(v.toFixed(2))));
export const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Dates are not figures: "last reviewed 2026-11-21" must not pass for 21 (or 2026, or 11). */
export const stripDates = (text: string): string => text.replace(/\b\d{4}-\d{2}-\d{2}\b/g, '<date>');
/** A number as a whole token directly followed by its unit ("3 days", "3 business days", "1 month's", "18%"), dates ignored. */
export function hasNumberUnit(text: string, n: string, unit: string): boolean {
  const t = stripDates(text).replace(/(\d),(?=\d{3}\b)/g, '$1');
  const u = unit === '%' ? '%' : `(?:\\s+(?:business|calendar|judicial|court))?[\\s-]+${unit}`;
  return new RegExp(`(?<![\\d.])${esc(n)}${u}`, 'i').test(t);
}
export const stateName = (code: string): string => (code === 'DC' ? 'District of Columbia' : byState.get(code)!['state_name']!);
const PLACE_NAMES = [...csvRows.map((r) => r['state_code'] === 'DC' ? 'District of Columbia' : r['state_name']!)];
/** cities the question set asks about (and cities with an overlay record, added once the warehouse is read): window stops too */
export const CITY_NAMES = new Set<string>();
/** A sentence ends at . ! ? before a capital, not after "St." (St. Paul) */
const SENTENCE_END = /(?<=[.!?])(?<!\bSt\.)\s+(?=[A-Z])/;
export const nameRe = (name: string): string => `${name === 'Virginia' ? '(?<!West )' : ''}\\b${esc(name)}\\b`;
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
export const about = (answer: string, name: string, ok: (w: string) => boolean): boolean => windows(answer, name).some(ok);
/** The sentences that name the place and no other state. */
export const sentencesAbout = (answer: string, name: string): string[] => answer.split(SENTENCE_END)
  .filter((x) => new RegExp(nameRe(name)).test(x) && !PLACE_NAMES.some((n) => n !== name && !name.includes(n) && new RegExp(nameRe(n)).test(x)));

export type Sources = ResearchBody['sources'];
export type Cite = { label: string; ok: (sources: Sources) => boolean };
/** What must appear in the answer for one expectation (a predicate, a label for the misses list, the citation it
 *  needs), or, for data no source has, the proof of that and the kind of source the answer must not cite. */
export type Fact = { label: string; ok: (answer: string) => boolean; cite?: Cite };
export type NoData = { noData: string; type: string };
export type Check = Fact | NoData;

/** The oracle could not find an expected figure: the question fails by name, it is never left out of the count. */
export class LookupFailed extends Error {}
export const fail = (why: string): never => { throw new LookupFailed(why); };
