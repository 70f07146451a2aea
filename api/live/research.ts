// POST /v1/research/query: natural-language questions answered in-process from the build's own data, with a
// source for every fact (docs: warehouse/docs/research.md).
//   understand  research-intent.ts: intents and places from the query and context (pure)
//   retrieve    research-answer.ts gather(): structured regulation records of the asked places and topics, BM25
//               full-text search over the regulation index (<build>/live/research/, pipelines/shards/research-index.ts),
//               and the mart facts of the build's shards (comps, rehab, investor, location, legal), cached once parsed
//   compose     research-answer.ts compose(): quick (<= 3 sentences) or deep (everything, every citation)
//   rephrase    optional, off by default: REII_LLM_URL (an OpenAI-compatible /chat/completions endpoint, with
//               REII_LLM_MODEL, REII_LLM_KEY, REII_LLM_TIMEOUT_MS) may reword the draft; a reply that brings in a
//               number not present in the facts, drops a number, or breaks the sentence budget is discarded
import type { LiveAnswer, LiveBuild, LiveInstance, LiveModule } from './types.ts';
import { ResearchData } from './research-data.ts';
import { understand, type Context } from './research-intent.ts';
import { compose, countSentences, gather, type Composed, type Depth } from './research-answer.ts';

export interface ResearchInput {
  query: string;
  context?: Context;
  depth?: Depth;
}

export interface ResearchBody {
  answer: string;
  sources: { type: string; category: string; citation: string }[];
  confidence: 'low' | 'medium' | 'high';
  depth: Depth;
  processing_ms: number;
}

export interface LlmOptions {
  url: string;
  model: string;
  key: string | null;
  timeoutMs: number;
}

export function llmFromEnv(env: NodeJS.ProcessEnv = process.env): LlmOptions | null {
  const url = env['REII_LLM_URL'];
  if (!url) return null;
  return { url, model: env['REII_LLM_MODEL'] ?? 'default', key: env['REII_LLM_KEY'] ?? null, timeoutMs: Number(env['REII_LLM_TIMEOUT_MS'] ?? 4000) };
}

/** Numbers in a text, normalised (1,234 -> 1234; 3.50 -> 3.5). Dates count as their parts. */
export function numbersIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.replace(/(\d),(?=\d{3}\b)/g, '$1').matchAll(/\d+(?:\.\d+)?/g)) out.add(String(Number(m[0])));
  return out;
}

/** Accepts a rephrase only if every number in it is in the facts, no number of the draft is lost, and quick stays short. */
export function acceptRephrase(draft: string, facts: string, rephrased: string, depth: Depth): boolean {
  const text = rephrased.trim();
  if (!text || text.length > draft.length * 2 + 200) return false;
  const allowed = numbersIn(`${facts}\n${draft}`);
  const got = numbersIn(text);
  for (const n of got) if (!allowed.has(n)) return false;
  for (const n of numbersIn(draft)) if (!got.has(n)) return false;
  if (depth === 'quick' && countSentences(text) > 3) return false;
  return true;
}

async function rephrase(llm: LlmOptions, draft: string, facts: string, depth: Depth): Promise<string | null> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), llm.timeoutMs);
  try {
    const res = await fetch(llm.url, {
      method: 'POST', signal: ctl.signal,
      headers: { 'Content-Type': 'application/json', ...(llm.key ? { Authorization: `Bearer ${llm.key}` } : {}) },
      body: JSON.stringify({
        model: llm.model, temperature: 0,
        messages: [
          { role: 'system', content: 'Rephrase the draft answer in clear plain English for a real estate investor. Use ONLY the facts given. Do not add, change or drop any number, date or citation. ' + (depth === 'quick' ? 'At most three sentences.' : 'Keep every citation.') },
          { role: 'user', content: `FACTS:\n${facts}\n\nDRAFT:\n${draft}` },
        ],
      }),
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
    const content = body.choices?.[0]?.message?.content;
    return typeof content === 'string' ? content : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

export class ResearchEngine {
  constructor(readonly data: ResearchData, readonly llm: LlmOptions | null = null) {}

  /** The answer without the rephrase step (synchronous; the bench measures this). */
  draft(input: ResearchInput): Composed & { depth: Depth } {
    const depth: Depth = input.depth === 'deep' ? 'deep' : 'quick';
    const u = understand(String(input.query ?? '').slice(0, 2000), input.context ?? {}, this.data);
    return { ...compose(this.data, u, gather(this.data, u, depth), depth), depth };
  }

  async answer(input: ResearchInput): Promise<ResearchBody> {
    const started = performance.now();
    const d = this.draft(input);
    let text = d.answer;
    if (this.llm && d.sources.length > 0) {
      const facts = d.facts.map((f) => [f.sentence, ...f.detail].join(' ')).join('\n') + '\n' + d.sources.map((s) => s.citation).join('\n');
      const r = await rephrase(this.llm, d.answer, facts, d.depth);
      if (r !== null && acceptRephrase(d.answer, facts, r, d.depth)) text = r.trim();
    }
    return { answer: text, sources: d.sources, confidence: d.confidence, depth: d.depth, processing_ms: Number((performance.now() - started).toFixed(2)) };
  }
}

const research: LiveModule<ResearchInput> = {
  async load(build: LiveBuild): Promise<LiveInstance<ResearchInput>> {
    let data: ResearchData | null = null;
    try {
      data = ResearchData.fromBuild(build.dir);
    } catch {
      data = null;
    }
    if (!data) {
      return { handle: (): LiveAnswer => ({ ok: false, status: 404, message: `research data is not available in build ${build.buildId}` }) };
    }
    const engine = new ResearchEngine(data, llmFromEnv());
    return { handle: async (input) => ({ ok: true, body: await engine.answer(input) }) };
  },
};

export default research;
