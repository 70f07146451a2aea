// The optional rephrase step of POST /v1/research/query (endpoint.ts): off by default; REII_LLM_URL (an
// OpenAI-compatible /chat/completions endpoint, with REII_LLM_MODEL, REII_LLM_KEY, REII_LLM_TIMEOUT_MS; settings rows)
// may reword the draft, and a reply that brings in a number not present in the facts, drops a number, breaks the
// sentence budget, drops the not-legal-advice caveat, the uncertainty wording, a citation (deep), a place or a key
// legal term (judicial / non-judicial, lien / deed / hybrid) is discarded (rephraseProblem). Split from endpoint.ts.
import type { Settings } from '../../warehouse/settings.ts';
import { escapeRegExp } from '../../warehouse/regexp.ts';
import { countSentences } from './compose.ts';
import type { Depth } from './facts.ts';

export interface LlmOptions {
  url: string;
  model: string;
  key: string | null;
  timeoutMs: number;
}

/** The rephrase endpoint of the settings (REII_LLM_*, warehouse/settings.ts); null when REII_LLM_URL is empty. */
export function llmFromSettings(settings: Readonly<Settings>): LlmOptions | null {
  if (!settings.llmUrl) return null;
  return { url: settings.llmUrl, model: settings.llmModel, key: settings.llmKey || null, timeoutMs: Number(settings.llmTimeoutMs) };
}

/** Numbers in a text, normalised (1,234 -> 1234; 3.50 -> 3.5). Dates count as their parts. */
export function numbersIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.replace(/(\d),(?=\d{3}\b)/g, '$1').matchAll(/\d+(?:\.\d+)?/g)) out.add(String(Number(m[0])));
  return out;
}

/** What a rephrase must keep besides the numbers. */
export interface Keep {
  /** citations that must appear verbatim (deep answers carry every citation) */
  citations?: readonly string[];
  /** place names that, when the draft names them, the rephrase must name too */
  places?: readonly string[];
}

const has = (text: string, re: RegExp): boolean => re.test(text);
/** Key terms of legal answers: kept when the draft has them (judicial and non-judicial told apart). */
const KEY_TERMS: readonly [string, RegExp][] = [
  ['non-judicial', /\bnon-?judicial\b/i],
  ['judicial', /(?<!non-?)\bjudicial\b/i],
  ['lien', /\bliens?\b/i],
  ['deed', /\bdeeds?\b/i],
  ['hybrid', /\bhybrid\b/i],
];
const UNCERTAIN = /\bunverified\b|\bconflicting\b|sources conflict/i;

/**
 * Why a rephrase is refused, or null when it is faithful: every number in it is in the facts, no number of the draft
 * is lost, quick stays within three sentences, the not-legal-advice caveat and the uncertainty wording stay when the
 * draft has them, deep answers keep every citation, and the draft's places and key terms (judicial / non-judicial,
 * lien / deed / hybrid) are all still there.
 */
export function rephraseProblem(draft: string, facts: string, rephrased: string, depth: Depth, keep: Keep = {}): string | null {
  const text = rephrased.trim();
  if (!text) return 'empty';
  if (text.length > draft.length * 2 + 200) return 'too long';
  const allowed = numbersIn(`${facts}\n${draft}`);
  const got = numbersIn(text);
  for (const n of got) if (!allowed.has(n)) return `new number ${n}`;
  for (const n of numbersIn(draft)) if (!got.has(n)) return `lost number ${n}`;
  if (depth === 'quick' && countSentences(text) > 3) return 'more than three sentences';
  if (has(draft, /not legal advice/i) && !has(text, /not legal advice/i)) return 'lost the not-legal-advice caveat';
  if (has(draft, UNCERTAIN) && !has(text, /\bunverified\b|sources conflict|\bconflicting\b/i)) return 'lost the uncertainty wording';
  if (depth === 'deep') for (const c of keep.citations ?? []) if (!text.includes(c)) return `lost citation ${c}`;
  for (const [term, re] of KEY_TERMS) if (has(draft, re) !== has(text, re)) return `${has(draft, re) ? 'lost' : 'added'} "${term}"`;
  for (const place of keep.places ?? []) {
    const re = new RegExp(`\\b${escapeRegExp(place)}\\b`);
    if (re.test(draft) && !re.test(text)) return `lost ${place}`;
  }
  return null;
}

/** Accepts a rephrase only when rephraseProblem finds nothing. */
export function acceptRephrase(draft: string, facts: string, rephrased: string, depth: Depth, keep: Keep = {}): boolean {
  return rephraseProblem(draft, facts, rephrased, depth, keep) === null;
}

export async function rephrase(llm: LlmOptions, draft: string, facts: string, depth: Depth): Promise<string | null> {
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
