// How reliable the automated valuations are ("How reliable are your automated valuations in Philadelphia?", "how
// accurate is the AVM in 98103"): answered from the build's valuation scorecard (<build>/live/valuation/scorecard.json,
// the body of GET /v1/valuation/scorecard: live/valuation/scorecard.ts), for the sales source that values the place's
// properties (<build>/live/valuation/meta.json, per zip its source), its recorded subjects' test-slice accuracy: n,
// MdAPE, PPE10, PPE20 and the 80% range's coverage, with the test window. Before (review 28), "I don't have data".
import fs from 'node:fs';
import path from 'node:path';
import type { Scorecard } from '../valuation/scorecard.ts';
import type { ZipMeta } from '../valuation/types.ts';
import { placeName, plural } from './facts.ts';
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';

/** Words asking how good the estimates are, and words naming the estimates. */
const HOW_GOOD = /\b(reliab\w*|accura\w*|trust\w*|errors?|how (good|close|far off|right)|track record|mdape|ppe10|back-?test\w*|calibrat\w*|scorecard)\b/i;
const ESTIMATES = /\b(automated valuations?|avms?|valuations?|value estimates?|price estimates?|estimates|estimated (values?|prices?)|valuation models?|home value estimates?)\b/i;

/** The estimates named plainly (not "estimates" alone, a word of other figures). */
const STRONG = /\b(automated valuations?|avms?|valuations?|valuation models?)\b/i;

interface Files { card: Scorecard; meta: { sources: Record<string, { as_of: string }>; zips: Record<string, ZipMeta> } }

/** The build's valuation scorecard and meta, read on the first such question; null in a build without them. */
export class ValuationScores {
  private files: Files | null | undefined;
  constructor(private readonly dir: string) {}
  static ofBuild(buildDir: string): ValuationScores { return new ValuationScores(path.join(buildDir, 'live', 'valuation')); }
  load(): Files | null {
    if (this.files === undefined) {
      try {
        const read = (f: string): unknown => JSON.parse(fs.readFileSync(path.join(this.dir, f), 'utf8'));
        this.files = { card: read('scorecard.json') as Scorecard, meta: read('meta.json') as Files['meta'] };
      } catch { this.files = null; }
    }
    return this.files;
  }
}

const p1 = (x: number): string => `${Number(x.toFixed(1))}%`;

/** The sources that value a place's properties: a zip's own, a city's (its state and name), else its state's. */
function sourcesOf(f: Files, t: Understanding['targets'][number] | undefined): string[] {
  const zips = Object.entries(f.meta.zips);
  const mine = !t ? zips : t.zip ? zips.filter(([z]) => z === t.zip)
    : zips.filter(([, m]) => m.state === t.state && (!t.city || m.city.toLowerCase() === t.city.toLowerCase()));
  return [...new Set(mine.map(([, m]) => m.source))].sort();
}

/** One source's recorded subjects in the test slice: the whole and by confidence tier. */
function sourceWords(data: ResearchData, f: Files, source: string): string {
  const s = f.card.sources.find((x) => x.source === source);
  const rows = f.card.accuracy.filter((r) => r.source === source && r.subject === 'record');
  const all = rows.find((r) => r.confidence === 'all');
  if (!s || !all) return `${data.titles.get(source) ?? source}: no back-test figures in this build's scorecard`;
  const end = f.meta.sources[source]?.as_of;
  const cover = all.coverage_80 === null ? '' : `; the 80% range held the sale price for ${p1(all.coverage_80)} of them (the target is 78-82%: the range is the estimate's 80% interval)`;
  const tiers = rows.filter((r) => r.confidence !== 'all').map((r) => `${r.confidence} ${plural(r.n, 'sale')}, MdAPE ${p1(r.mdape)}, PPE10 ${p1(r.ppe10)}`);
  return `${data.titles.get(source) ?? source} (model: ${s.model}): over the test window, its sales from ${s.test_start}${end ? ` to ${end}` : ''} (the last 20% by date, each valued only from earlier sales), ${plural(all.n, 'sale')} valued as recorded properties had a median absolute error (MdAPE) of ${p1(all.mdape)}; ${p1(all.ppe10)} were valued within 10% of the sale price (PPE10) and ${p1(all.ppe20)} within 20%${cover}${tiers.length ? `. By the estimate's confidence: ${tiers.join('; ')}` : ''}`;
}

/** The answer to how reliable the valuations of the place asked are, or null when the question asks something else. */
export function valuationReliability(data: ResearchData, u: Understanding, query: string, scores: ValuationScores | undefined): { answer: string; sources: { type: string; category: string; citation: string }[]; confidence: 'high' | 'low'; facts: [] } | null {
  // a sale-price word beside them ("how accurate are your valuations against sale prices") reads a market topic too
  const market = u.intents.every((i) => i === 'comps' || i === 'trends') && STRONG.test(query);
  if (!HOW_GOOD.test(query) || !ESTIMATES.test(query) || (u.intents.length && !market)) return null;
  const f = scores?.load() ?? null;
  const t = u.targets[0];
  const where = t ? placeName(data, t) : 'the places we value';
  if (!f) return { answer: `This build has no valuation scorecard, so how reliable the automated valuations of ${where} are cannot be said.`, sources: [], confidence: 'low', facts: [] };
  const sources = sourcesOf(f, t);
  const valued = f.card.sources.map((s) => data.titles.get(s.source) ?? s.source).join('; ');
  if (!sources.length) {
    const why = (f.card.unvalued ?? []).map((x) => `${data.titles.get(x.source) ?? x.source}: ${x.reason}`).join('; ');
    return { answer: `We value no properties in ${where}, so there is no accuracy to give: the automated valuations cover the sales of ${valued}${why ? `; sales sources not valued: ${why}` : ''}.`, sources: [], confidence: 'low', facts: [] };
  }
  const citation = `Valuation scorecard of build ${f.card.build_id} (GET /v1/valuation/scorecard): ${f.card.method}`;
  const lead = `Back-tested accuracy of our automated valuations (POST /v1/valuation/estimate) for ${where}, from the valuation scorecard:`;
  return { answer: `${lead} ${sources.map((s) => sourceWords(data, f, s)).join('. ')}.`, sources: [{ type: 'valuation', category: 'valuation', citation }], confidence: 'high', facts: [] };
}
