// The shape of a research answer's facts (POST /v1/research/query): one fact per place and topic, with its source and
// how sure it is, and the wording helpers every fact builder shares (numbers, money, plurals, place names).
// Confidence rules: warehouse/docs/research.md.
import { areaName } from './area-name.ts';
import type { ResearchData } from './data.ts';
import type { Intent } from './intent.ts';
export { areaName };
import type { Target } from './places.ts';
import { minConfidence, type Confidence } from '../../warehouse/confidence.ts';
import type { FloodMapOf } from './flood-maps.ts';

export type { Confidence };
export type Depth = 'quick' | 'deep';
export interface Source { type: string; category: string; citation: string }

/** One fact: a sentence for quick answers, a paragraph for deep ones, its source and how sure it is. */
export interface Fact {
  intent: Intent | 'search' | 'none';
  target: Target | null;
  /** a short value for comparisons ("3 days") */
  value: string | null;
  sentence: string;
  detail: string[];
  source: Source | null;
  /** high: a structured fact of the asked place and topic, not in doubt; medium: related, or marked uncertain; low: missing */
  confidence: Confidence;
  /** false for supporting facts shown only in deep answers */
  primary: boolean;
  uncertain: string | null;
  /** a figure that ranks the places of a comparison (ranks.ts): its score signed so the place asked for scores
   *  highest, the figure as shown, what the winner is ([two places, three or more]: "is the cheaper", "is the
   *  cheapest") and the end places tied at the top share */
  ranks?: { score: number; shown: string; words: readonly [string, string]; tie: 'highest' | 'lowest' };
  /** further ranks of the fact's figures, each named after the first's winner: the low end of a figure asked at both
   *  ends ("the cheapest and the most expensive"), a price change given beside a price level ("highest growth") */
  moreRanks?: NonNullable<Fact['ranks']>[];
  /** a per-zip market fact's figure, read by a city's summary (city-summary.ts); absent on every other fact */
  zip?: ZipFigure;
  /** the period the value's figure is of and how the source files cover it, set where the figure is made; a
   *  comparison ranks only figures of one period (like-for-like.ts) */
  period?: FigurePeriod;
  /** the clause saying the value's figure is of a type that holds others (sales-facts.ts mixedTypeNote: a Connecticut
   *  "single-family" figure of all residential sales), set where the figure is
   *  made: a comparison shows values alone, so type-notes.ts says it after the value too */
  typeNote?: string;
  /** a topic a deep answer's "Question read as" names before the intents' labels: a property's own answer ("the
   *  recorded sales of 6234 REEDLAND ST, ..."), whose intent is the zip's price level it is given beside */
  topic?: string;
}

/** One zip's figure: the measure compared across a city's zips (null: too few sales to report one), a group label
 *  (rehab label, flood risk), the window and the date of its shard; a comps figure's list-to-sale ratio too. */
export interface ZipFigure { zip: string; measure: number | null; group: string | null; months: number | null; asOf: string; sales?: number; superfund?: boolean; ratio?: number | null; dom?: number | null; resalesOnly?: boolean; permitsOnly?: boolean; flood?: FloodMapOf | null }

/* The period a compared figure is of, made by figure-period.ts. */
/** How the market's source files cover a figure's months: all whole, all in part only (a thin extract's months, or a
 *  file starting or ending inside), or both. */
export type PeriodCover = 'whole' | 'part' | 'mixed';

/** One month's figure ("$305,000 (2022-09, 116 sales)"), a window's to its market's latest sale ("$340,000 (45 sales,
 *  6 months to 2023-09-29)") or a price index change between two complete months ("+6% (3 months to 2022-09)");
 *  `counts`: what a count counts where places' records differ in it (a distressed count's filing kinds, distress-kinds.ts:
 *  Allegheny's mortgage foreclosures, Louisville's tax and code-enforcement liens): figures counting different things
 *  are not ranked either. */
export type FigurePeriod = (
  | { kind: 'month'; end: string; cover: PeriodCover }
  | { kind: 'window'; months: number; end: string; asOf: string; cover: PeriodCover }
  | { kind: 'change'; months: number; end: string; cover: PeriodCover }) & { counts?: string };

export const NOT_LEGAL_ADVICE = 'This is general information from public-law reference data, not legal advice.';

export const minConf = minConfidence;

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(2))));
export const money = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
/** A signed percentage to 1 decimal: "+3.2%", "-0.4%". */
export const pct = (x: number): string => `${x > 0 ? '+' : ''}${fmt(Math.round(x * 10) / 10)}%`;
/** A count and its noun, the count grouped by thousands ("1,149 sales"). */
export const plural = (n: number, w: string): string => `${Number.isInteger(n) ? n.toLocaleString('en-US') : fmt(n)} ${w}${n === 1 ? '' : 's'}`;
/** Inline text from data must not end a sentence early. */
export const inline = (s: string): string => s.replace(/\.\s+(?=[A-Z])/g, '; ').replace(/\.$/, '');

export function placeName(data: ResearchData, t: Target): string {
  if (t.zip) return `zip ${t.zip}${t.city ? ` (${t.city}, ${t.state})` : ''}`;
  if (t.area) return areaName(t);
  // the borough is "the Bronx" in words (h78ask: "In Bronx, NY" before)
  if (t.city) return `${t.city === 'Bronx' && t.state === 'NY' ? 'the Bronx' : t.city}, ${t.state}`;
  return data.stateName(t.state);
}

/** A city, or a part of it: "Seattle, WA", "Brooklyn (New York, NY)". */

/** "In Bronx, NY" said as "In the Bronx, NY": the borough's name in words (h78ask), where a sentence wrote the city key. */
export const theBronx = (s: string): string => s.replace(/\b(In|in|of|for|across|to|beside) Bronx, NY\b/g, '$1 the Bronx, NY');

/** A fact we do not have: said plainly, low confidence, no source. */
export function missing(intent: Fact['intent'], t: Target | null, sentence: string): Fact {
  return { intent, target: t, value: null, sentence, detail: [], source: null, confidence: 'low', primary: true, uncertain: null };
}

/** The windows a market fact tries: the months asked, else the default and then 6, 12 and 24 months. */
/** The last day of a market shard's window, the day its "N months to" runs to: the shard's coverage.window_end. In
 *  comps as_of is the cohort's last comp (10309's 6 months: as_of 2024-02-05, window 2023-08-14 to 2024-02-13, the
 *  zip's last sale of any type), so "the 6 months to <as_of>" named another window (review 21 #6); in rehab and
 *  investor the two are the same day. */
export const windowEnd = (r: { as_of: string; coverage?: { window_end: string } | null }): string => r.coverage?.window_end ?? r.as_of;

export const MONTH_TRIES = (asked: number | null, dflt: number): number[] => (asked ? [asked] : [dflt, ...[6, 12, 24].filter((m) => m !== dflt)]);
