// GET /v1/address/autocomplete?q=&limit=&state=: address matches with beds, baths and sqft, answered in-process
// from <build>/live/autocomplete/index.bin (live/autocomplete/build.ts), loaded into memory once per build and
// searched by live/autocomplete/index-search.ts. The core has validated q (trimmed, 3-200 characters), limit (1-10,
// default 5) and state (2 upper-case letters). Matching, relevance order, typo rule and the time budget (the setting
// autocompleteBudgetMs, 25 ms; then the exact street-line prefix match): warehouse/docs/address.md.
import fs from 'node:fs';
import path from 'node:path';
import { unavailable, type LiveAnswer, type LiveBuild, type LiveInstance, type LiveModule } from '../../warehouse/live.ts';
import type { Settings } from '../../warehouse/settings.ts';
import { INDEX_FORMAT } from './index-format.ts';
import { AutocompleteIndex, DEFAULT_BUDGET_MS } from './index-search.ts';

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

/** Searches run once at load: a prefix, words in another order, one typo. */
const WARM_UP = ['100 MAIN ST', 'MAIN ST 12', '2926 RDIGE AVE', '4000 STONE WY N'];

export class AutocompleteEngine {
  /** Counts of answered requests by mode, for diagnostics. */
  readonly stats = { full: 0, no_typo: 0, exact_prefix: 0 };

  constructor(readonly index: AutocompleteIndex, readonly budget: number) {}

  static fromDir(dir: string, budget: number): AutocompleteEngine {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { format?: number };
    if (meta.format !== INDEX_FORMAT) throw new Error(`autocomplete index format ${String(meta.format)}, expected ${INDEX_FORMAT}`);
    return new AutocompleteEngine(AutocompleteIndex.fromFile(path.join(dir, 'index.bin')), budget);
  }

  answer(input: AutocompleteInput, budget = this.budget): LiveAnswer {
    const limit = input.limit ?? 5;
    const r = this.index.search(input.q, { limit, state: input.state ?? null, budgetMs: budget });
    this.stats[r.mode]++;
    // complete: every tier ran (review 5B: a cold search past its budget answered an empty list like "no such address")
    return { ok: true, body: { query: input.q, results: r.ids.map((id) => this.index.match(id)), complete: r.mode === 'full' } };
  }
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
