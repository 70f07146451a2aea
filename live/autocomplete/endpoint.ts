// GET /v1/address/autocomplete?q=&limit=&state=: address matches with beds, baths and sqft, answered in-process
// from <build>/live/autocomplete/index.bin (live/autocomplete/build.ts), its search columns loaded into memory once per
// build (an answered record read from the file) and searched by live/autocomplete/index-search.ts. The core has validated q (trimmed, 3-200 characters), limit (1-10,
// default 5) and state (2 upper-case letters). Matching, relevance order, typo rule and the time budget (the setting
// autocompleteBudgetMs, 25 ms; then the exact street-line prefix match): warehouse/docs/address.md.
import fs from 'node:fs';
import path from 'node:path';
import { unavailable, type LiveAnswer, type LiveBuild, type LiveInstance, type LiveModule } from '../../warehouse/live.ts';
import type { Settings } from '../../warehouse/settings.ts';
import { shardPath } from '../../warehouse/layout.ts';
import { loadResolver } from '../places/endpoint.ts';
import { INDEX_FORMAT } from './index-format.ts';
import { AutocompleteIndex, DEFAULT_BUDGET_MS, type SearchResult } from './index-search.ts';
import { PlaceFilter, type CityArea } from './place-filter.ts';
import { canonical, tokens, words } from './text.ts';

export interface AutocompleteInput {
  q: string;
  limit?: number;
  state?: string;
}

/** Per-request time budget in ms: the setting autocompleteBudgetMs (REII_AUTOCOMPLETE_BUDGET_MS, warehouse/settings.ts)
 *  when it is a number >= 0, else 25. */
export function budgetMs(settings: Pick<Settings, 'autocompleteBudgetMs'>): number {
  const raw = settings.autocompleteBudgetMs;
  const v = raw ? Number(raw) : NaN;
  return Number.isFinite(v) && v >= 0 ? v : DEFAULT_BUDGET_MS;
}

/** Searches run once at load: a prefix, words in another order, one typo, a place after the street, a place alone. */
const WARM_UP = ['100 MAIN ST', 'MAIN ST 12', '2926 RDIGE AVE', '4000 STONE WY N', '100 MAIN ST PHILLY', 'FORT WORTH'];

export class AutocompleteEngine {
  /** Counts of answered requests by mode, for diagnostics. */
  readonly stats = { full: 0, no_typo: 0, exact_prefix: 0 };

  constructor(readonly index: AutocompleteIndex, readonly budget: number, readonly places: PlaceFilter | null = null) {}

  /** `dir`: <build>/live/autocomplete; the build's place resolver (live/places) and geo lookups read the place a query
   *  ends with (none in a build without them). */
  static fromDir(dir: string, budget: number): AutocompleteEngine {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { format?: number };
    if (meta.format !== INDEX_FORMAT) throw new Error(`autocomplete index format ${String(meta.format)}, expected ${INDEX_FORMAT}`);
    const index = AutocompleteIndex.fromFile(path.join(dir, 'index.bin'));
    const buildDir = path.resolve(dir, '..', '..');
    const resolver = loadResolver(buildDir);
    return new AutocompleteEngine(index, budget, resolver ? new PlaceFilter(index.places, resolver, cityAreas(buildDir)) : null);
  }

  /** The search of a query: its words as street words, and, when it ends with a place (or is one), its street words
   *  within that place. Order: the street reading's street-line prefix and any-order matches (every word as typed is in
   *  the record: "100 fort washington" is 100 FORT WASHINGTON AVE), then the place reading's; the street reading's typo
   *  matches only when neither found any. A query that is only a place answers that place's first addresses and the
   *  streets its words begin (no typo), taken in turn: "oak park" is no indexed place, and N OAK PARK AVE is a street. */
  search(q: string, limit: number, state: string | null, budget: number): SearchResult {
    const reading = this.places?.read(q) ?? null;
    const fixed = this.places?.placeWords(q); // a known place is never typo-corrected into a street word
    if (!reading) return this.index.search(q, { limit, state, budgetMs: budget, fixed });
    if (reading.bare) {
      const inPlace = this.index.firstIn(reading.places, limit, state);
      // the street matches of a place's words: all of them in the street line ("west hartford" is no Hartford
      // address on a street "... ST WEST"; "st louis" is S ST LOUIS AVE)
      const found = this.index.search(q, { limit, state, budgetMs: budget, noTypo: true });
      const street = { ...found, ids: found.ids.filter((id) => inLine(this.index.match(id).address, q)) };
      const ids: number[] = [];
      for (let i = 0; ids.length < limit && (i < inPlace.length || i < street.ids.length); i++) {
        for (const id of [inPlace[i], street.ids[i]]) if (id !== undefined && ids.length < limit && !ids.includes(id)) ids.push(id);
      }
      const fromStreet = ids.filter((id) => street.ids.includes(id) && !inPlace.includes(id)).length;
      return { ids, mode: street.mode, tiers: [ids.length - fromStreet, fromStreet, 0], scanned: street.scanned };
    }
    const deadline = performance.now() + budget;
    const left = (): number => Math.max(0, deadline - performance.now());
    const street = this.index.search(q, { limit, state, budgetMs: budget, noTypo: true });
    const placed = this.index.search(reading.line, { limit, state, budgetMs: left(), places: reading.places });
    const ids = [...new Set([...street.ids, ...placed.ids])].slice(0, limit);
    const worst = [street.mode, placed.mode].find((m) => m !== 'full') ?? 'full';
    if (ids.length || worst !== 'full') return { ids, mode: worst, tiers: [street.tiers[0], ids.length - street.tiers[0], 0], scanned: street.scanned + placed.scanned };
    return this.index.search(q, { limit, state, budgetMs: left(), fixed });
  }

  answer(input: AutocompleteInput, budget = this.budget): LiveAnswer {
    const limit = input.limit ?? 5;
    const r = this.search(input.q, limit, input.state ?? null, budget);
    this.stats[r.mode]++;
    // complete: every tier ran (review 5B: a cold search past its budget answered an empty list like "no such address")
    return { ok: true, body: { query: input.q, results: r.ids.map((id) => this.index.match(id)), complete: r.mode === 'full' } };
  }
}

/** Whether every word of a query is in a street line (the last word: a prefix of one of its words). */
function inLine(address: string, q: string): boolean {
  const line = tokens(address), ws = words(q).map(canonical);
  return ws.every((w, i) => line.some((t) => t === w || (i === ws.length - 1 && t.startsWith(w))));
}

/** A city's county and zips from its geo lookup shard (the `cities` table), read once per city; null without one. */
function cityAreas(buildDir: string): CityArea {
  const seen = new Map<string, ReturnType<CityArea>>();
  return (city, state) => {
    const key = `${state}|${city}`;
    if (seen.has(key)) return seen.get(key)!;
    const rel = shardPath('geo-lookup', { state, city });
    const file = rel.ok ? path.join(buildDir, 'shards', rel.path) : null;
    let area: ReturnType<CityArea> = null;
    if (file && fs.existsSync(file)) {
      const g = JSON.parse(fs.readFileSync(file, 'utf8')) as { county_name?: string; zip_codes?: string[] };
      if (g.county_name && g.zip_codes) area = { county: g.county_name, zips: g.zip_codes };
    }
    seen.set(key, area);
    return area;
  };
}

const autocomplete: LiveModule<AutocompleteInput> = {
  name: 'autocomplete',
  async load(build: LiveBuild): Promise<LiveInstance<AutocompleteInput>> {
    const dir = path.join(build.dir, 'live', 'autocomplete');
    if (!fs.existsSync(path.join(dir, 'meta.json'))) {
      return unavailable(`Address autocomplete data is not available in build ${build.buildId}`);
    }
    const engine = AutocompleteEngine.fromDir(dir, budgetMs(build.settings));
    // warm the search (JIT, the index's pages) before the first caller: cold typo searches took 95-130 ms against the
    // 25 ms budget and came back cut short (review 5B)
    for (const q of WARM_UP) engine.answer({ q }, 1_000);
    engine.stats.full = engine.stats.no_typo = engine.stats.exact_prefix = 0;
    return { handle: (input) => engine.answer(input) };
  },
};

export default autocomplete;
