// Text handling shared by the research index step (live/research/build.ts) and the live module:
// the tokenizer (lowercase, stop words out, a light suffix stemmer, a few synonyms) and Okapi BM25 over the
// small regulation index the build writes to <build>/live/research/. Pure: no I/O.

const STOP = new Set(`a an and are as at be been but by can could did do does doing for from had has have how i if in into
is it its me my of on or our so such than that the their them then there these they this to was we were what when where
which who whom why will with would you your about any get got much many long there's what's whats tell show give
please need know like just also vs versus compare comparison between difference state states city cities`.split(/\s+/));

/** Query-side expansions: a word a user types -> index terms (already stemmed) it should also match. */
const SYNONYMS: Record<string, readonly string[]> = {
  squatt: ['advers', 'possess'],
  squat: ['advers', 'possess'],
  redeem: ['redempt'],
  evict: ['evict'],
  quit: ['notic'],
  deposit: ['deposit'],
  lien: ['lien', 'tax'],
  deed: ['deed', 'tax'],
  subject: ['due', 'sale'],
  adu: ['adu', 'accessori'],
  lead: ['lead', 'paint'],
};

const SUFFIXES: readonly [string, string][] = [
  ['ational', 'ate'], ['ations', ''], ['ation', ''], ['ements', ''], ['ement', ''], ['ments', ''], ['ment', ''], ['ions', ''], ['ion', ''],
  ['ures', ''], ['ure', ''], ['ings', ''], ['ing', ''], ['ies', 'i'], ['ied', 'i'], ['ness', ''], ['ers', ''], ['er', ''], ['ed', ''],
  ['es', ''], ['ly', ''], ['s', ''], ['e', ''], ['y', 'i'],
];

/** A light stemmer: strips one common English suffix while at least 4 letters remain. */
export function stem(word: string): string {
  if (word.length <= 3 || /^\d/.test(word)) return word;
  for (const [suf, rep] of SUFFIXES) {
    if (word.endsWith(suf) && !(suf === 's' && word.endsWith('ss')) && word.length - suf.length + rep.length >= (suf === 's' ? 3 : 4)) {
      return word.slice(0, word.length - suf.length) + rep;
    }
  }
  return word;
}

/** Words of a text, lowercased, accents folded; numbers kept (3, 1.5, 24.005). */
export function words(text: string): string[] {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[’']s\b/g, '')
    .match(/[a-z]+|\d+(?:\.\d+)?/g) ?? [];
}

/** Index terms of a text: words without stop words, stemmed. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) if (!STOP.has(w) && (w.length > 1 || /\d/.test(w))) out.push(stem(w));
  return out;
}

/** Query terms: tokenize plus synonym expansion (deduplicated). */
export function queryTerms(text: string): string[] {
  const set = new Set<string>();
  for (const t of tokenize(text)) {
    set.add(t);
    for (const s of SYNONYMS[t] ?? []) set.add(s);
  }
  return [...set];
}

/** The serialized index: per document its length and term frequencies; df per term. */
export interface Bm25Data {
  n: number;
  avgdl: number;
  df: Record<string, number>;
  docs: { len: number; tf: Record<string, number> }[];
}

export function buildBm25(texts: readonly string[]): Bm25Data {
  const df: Record<string, number> = {};
  const docs = texts.map((t) => {
    const tf: Record<string, number> = {};
    const toks = tokenize(t);
    for (const k of toks) tf[k] = (tf[k] ?? 0) + 1;
    for (const k of Object.keys(tf)) df[k] = (df[k] ?? 0) + 1;
    return { len: toks.length, tf };
  });
  const avgdl = docs.reduce((s, d) => s + d.len, 0) / Math.max(1, docs.length);
  return { n: docs.length, avgdl, df, docs };
}

export interface Scored { doc: number; score: number; matched: string[] }

/** Okapi BM25 (k1 1.2, b 0.75) with postings built once at load. */
export class Bm25 {
  private readonly postings = new Map<string, [number, number][]>();
  constructor(readonly data: Bm25Data, readonly k1 = 1.2, readonly b = 0.75) {
    data.docs.forEach((d, i) => {
      for (const [t, f] of Object.entries(d.tf)) {
        let p = this.postings.get(t);
        if (!p) { p = []; this.postings.set(t, p); }
        p.push([i, f]);
      }
    });
  }

  idf(term: string): number {
    const df = this.data.df[term] ?? 0;
    return Math.log(1 + (this.data.n - df + 0.5) / (df + 0.5));
  }

  has(term: string): boolean {
    return this.postings.has(term);
  }

  /** Scores every document that matches a term; `allow` restricts the documents considered. */
  search(terms: readonly string[], allow?: (doc: number) => boolean): Scored[] {
    const acc = new Map<number, Scored>();
    for (const t of new Set(terms)) {
      const p = this.postings.get(t);
      if (!p) continue;
      const idf = this.idf(t);
      for (const [doc, f] of p) {
        if (allow && !allow(doc)) continue;
        const len = this.data.docs[doc]!.len;
        const s = idf * (f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + this.b * len / this.data.avgdl));
        const cur = acc.get(doc);
        if (cur) { cur.score += s; cur.matched.push(t); } else acc.set(doc, { doc, score: s, matched: [t] });
      }
    }
    return [...acc.values()].sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  /** Share of the query's information (idf mass) a document's matched terms carry; unknown terms count as rare. */
  coverage(terms: readonly string[], matched: readonly string[]): number {
    const maxIdf = Math.log(1 + (this.data.n + 0.5) / 0.5);
    const uniq = [...new Set(terms)];
    const total = uniq.reduce((s, t) => s + (this.has(t) ? this.idf(t) : maxIdf), 0);
    const got = [...new Set(matched)].reduce((s, t) => s + this.idf(t), 0);
    return total > 0 ? got / total : 0;
  }
}
