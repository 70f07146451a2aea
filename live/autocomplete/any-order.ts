// Tiers 2 and 3 of the autocomplete search (live/autocomplete/index-search.ts): every query word anywhere in the
// record (street line, city, state, zip), in any order; tier 3 lets a word carry one typo. Candidates come from the
// postings of the most selective words (live/autocomplete/postings.ts), each checked against every word's match
// classes (live/autocomplete/query-terms.ts). Scoring and order: warehouse/docs/address.md.
import type { SearchColumns } from './index-format.ts';
import type { Postings } from './postings.ts';
import { EXACT, NONE, PREFIX, TYPO, type Term } from './query-terms.ts';

/** Any-order tiers: the two cheapest words are intersected (postings read in sequence) when the second has at most
 *  this many times the postings of the first; else the first word's records are checked one by one (each check
 *  reads the record's tokens at a random place in memory, many times the cost of reading one posting). */
const INTERSECT_RATIO = 64;

/** Added to a record's score when its words matched in the order typed (inTypedOrder). */
const ORDER_BONUS = 1;

/** Whether the words found in a record (positions by typed word, -1 unmatched) stand in the order typed. */
function inTypedOrder(at: Int32Array): boolean {
  let last = -1;
  for (let i = 0; i < at.length; i++) {
    const p = at[i]!;
    if (p < 0) continue;
    if (p <= last) return false;
    last = p;
  }
  return true;
}

export class AnyOrderTiers {
  // scratch reused by every search (searches are synchronous)
  private readonly classMaps: Int8Array[] = [];
  private readonly touched: number[][] = []; // per class map: flat [lo, hi, ...] ranges set by its last use
  /** Candidate record ids by the words intersected, for the passes of one search (cleared by beginSearch). */
  private readonly candidates = new Map<string, Uint32Array>();

  /** Forget the previous search's candidates (the words' token sets differ from one query to the next). */
  beginSearch(): void {
    this.candidates.clear();
  }

  constructor(
    private readonly ix: SearchColumns,
    private readonly postings: Postings,
    private readonly tokenCount: number,
  ) {}

  /** The class of every vocabulary token for term i (scratch array reused across searches; only the ranges the
   *  previous use set are cleared, not the whole vocabulary, since a search makes up to one pass per word). */
  private classMap(i: number, t: Term, withTypo: boolean): Int8Array {
    while (this.classMaps.length <= i) { this.classMaps.push(new Int8Array(this.tokenCount).fill(NONE)); this.touched.push([]); }
    const m = this.classMaps[i]!;
    const touched = this.touched[i]!;
    for (let k = 0; k < touched.length; k += 2) m.fill(NONE, touched[k]!, touched[k + 1]!);
    touched.length = 0;
    const set = (c: number, lo: number, hi: number): void => { if (hi > lo) { m.fill(c, lo, hi); touched.push(lo, hi); } };
    if (withTypo) for (let k = 0; k < t.typo.length; k += 2) set(TYPO, t.typo[k]!, t.typo[k + 1]!);
    set(PREFIX, t.prefLo, t.prefHi);
    for (const id of t.prefIds) set(PREFIX, id, id + 1);
    for (const id of t.exact) set(EXACT, id, id + 1);
    return m;
  }

  /** The token ids with postings that a term's match set covers. */
  private termTokens(t: Term, withTypo: boolean): number[] {
    const out: number[] = [];
    const { postOff } = this.postings;
    const add = (lo: number, hi: number): void => { for (let id = lo; id < hi; id++) if (postOff[id + 1]! > postOff[id]!) out.push(id); };
    add(t.prefLo, t.prefHi);
    for (const id of [...t.exact, ...t.prefIds]) if (id < t.prefLo || id >= t.prefHi) add(id, id + 1);
    if (withTypo) for (let k = 0; k < t.typo.length; k += 2) add(t.typo[k]!, t.typo[k + 1]!);
    return [...new Set(out)];
  }

  /** Postings count a term's match set covers (an upper bound: overlaps counted twice). */
  private termCost(t: Term, withTypo: boolean): number {
    let c = this.postings.count(t.prefLo, t.prefHi);
    for (const id of t.exact) if (id < t.prefLo || id >= t.prefHi) c += this.postings.count(id, id + 1);
    for (const id of t.prefIds) c += this.postings.count(id, id + 1);
    if (withTypo) for (let k = 0; k < t.typo.length; k += 2) c += this.postings.count(t.typo[k]!, t.typo[k + 1]!);
    return c;
  }

  /** Best class any record could reach on the term (NONE when nothing matches). */
  private bestClass(t: Term, withTypo: boolean): number {
    if (t.exact.some((id) => this.postings.count(id, id + 1) > 0)) return EXACT;
    if (this.postings.count(t.prefLo, t.prefHi) > 0 || t.prefIds.some((id) => this.postings.count(id, id + 1) > 0)) return PREFIX;
    if (withTypo) for (let k = 0; k < t.typo.length; k += 2) if (this.postings.count(t.typo[k]!, t.typo[k + 1]!) > 0) return TYPO;
    return NONE;
  }

  /** The highest score a record of the pass could reach; -Infinity when no record can match every required word. */
  maxScore(terms: Term[], withTypo: boolean): number {
    const best = terms.map((t) => this.bestClass(t, withTypo));
    if (terms.some((t, i) => t.required && best[i]! === NONE)) return -Infinity;
    const first = terms[0]!;
    const houseBonusPossible = first.required && first.numeric && first.exact.length > 0;
    let max = best.reduce((s, b) => s + Math.max(b, 0), 0) + (houseBonusPossible ? 1 : 0) + (terms.length > 1 ? ORDER_BONUS : 0);
    if (withTypo) {
      let drop = Infinity; // a tier-3 record has at least one required word at TYPO
      terms.forEach((t, i) => { if (t.required && t.typo.length) drop = Math.min(drop, Math.max(best[i]!, 0)); });
      if (drop === Infinity) return -Infinity;
      max -= drop;
    }
    return max;
  }

  /**
   * Tiers 2 and 3, every word anywhere in the record (street line, city, state, zip), in any order. Tier 2 ('a'):
   * every required word matched exactly or as a prefix. Tier 3 ('b'): at least one required word matched only within
   * one edit. Score = sum of word classes (exact 2, prefix 1, typo 0) + 1 when the first word is a number equal to
   * the record's house number + 1 when the words matched in the order typed ("Saint Louis": S ST LOUIS AVE before
   * 15 LOUIS ST); ties: lower record id. Returns the results with their scores, best first, or null
   * when the deadline passed.
   */
  pass(terms: Term[], phase: 'a' | 'b', limit: number, allowed: Uint8Array | null, deadline: number, exclude: Set<number>, stats: { scanned: number }): { id: number; score: number }[] | null {
    const withTypo = phase === 'b';
    if (limit <= 0) return [];
    const required = terms.filter((t) => t.required);
    if (!required.length) return [];
    const maxScore = this.maxScore(terms, withTypo);
    if (maxScore === -Infinity) return [];
    const first = terms[0]!;
    const houseBonusPossible = first.required && first.numeric && first.exact.length > 0;
    const byCost = required.map((t) => ({ t, cost: this.termCost(t, withTypo) })).sort((x, y) => x.cost - y.cost);
    if (byCost[0]!.cost === 0) return [];
    // candidates: the cheapest word's records; when the second cheapest is comparable, only the records of both
    // (bitset intersection), else the cheapest word's records in id order, checked one by one (early stop)
    const c1 = byCost[0]!; const c2 = byCost[1] && byCost[1].cost <= INTERSECT_RATIO * c1.cost ? byCost[1] : undefined;
    // check order: the words the candidates do not already satisfy, most selective first (early rejection)
    const drivers = new Set([c1.t, ...(c2 ? [c2.t] : [])]);
    const order = [...byCost.filter((x) => !drivers.has(x.t)).map((x) => x.t), ...drivers, ...terms.filter((t) => !t.required)];
    const maps = order.map((t, i) => this.classMap(i, t, withTypo));
    const req = Int8Array.from(order, (t) => (t.required ? 1 : 0));
    // where each word (in the order typed) first reached its class in the record: the order bonus
    const typedAt = Int32Array.from(order, (t) => terms.indexOf(t));
    const at = new Int32Array(terms.length);
    const houseTok = houseBonusPossible ? first.exact[0]! : -1;
    const top: { id: number; score: number }[] = [];
    const { fwd, fwdOff, place, streetLen } = this.ix;
    const nt = order.length;
    let n = 0;
    let timedOut = false;
    const visit = (id: number): boolean => {
      if ((++n & 255) === 0 && performance.now() > deadline) { timedOut = true; return false; }
      if (allowed && !allowed[place[id]!]) return true;
      const f0 = fwdOff[id]!; const f1 = fwdOff[id + 1]!;
      let score = 0; let anyTypo = false;
      for (let i = 0; i < nt; i++) {
        const m = maps[i]!;
        let c = NONE; let p = -1;
        for (let k = f0; k < f1; k++) { const tc = m[fwd[k]!]!; if (tc > c) { c = tc; p = k; if (c === EXACT) break; } }
        at[typedAt[i]!] = p;
        if (c === NONE) { if (req[i]) return true; continue; }
        if (c === TYPO && req[i]) anyTypo = true;
        score += c;
      }
      if (withTypo && !anyTypo) return true;
      if (exclude.has(id)) return true;
      if (houseTok >= 0 && streetLen[id]! > 0 && fwd[f0] === houseTok) score++;
      if (nt > 1 && inTypedOrder(at)) score += ORDER_BONUS;
      if (top.length < limit || score > top[top.length - 1]!.score) {
        let j = top.length;
        while (j > 0 && top[j - 1]!.score < score) j--;
        top.splice(j, 0, { id, score });
        if (top.length > limit) top.pop();
      }
      return !(top.length === limit && top[limit - 1]!.score >= maxScore); // nothing later can rank higher
    };
    if (c2) {
      // the one-typo passes of a search (one per word) mostly intersect the same words as typed: computed once
      const sig = (t: Term): string => `${t.word}${withTypo && t.typo.length ? '~' : ''}`;
      let key = `${sig(c1.t)}&${sig(c2.t)}`;
      let ids = this.candidates.get(key);
      if (!ids) { ids = this.postings.intersect(this.termTokens(c1.t, withTypo), this.termTokens(c2.t, withTypo)); this.candidates.set(key, ids); }
      // more words narrow the candidates further while reading their postings costs less than checking the records
      for (let k = 2; k < byCost.length && ids.length > 64 && byCost[k]!.cost <= INTERSECT_RATIO * ids.length; k++) {
        key += `&${sig(byCost[k]!.t)}`;
        let next = this.candidates.get(key);
        if (!next) { next = this.postings.refine(ids, this.termTokens(byCost[k]!.t, withTypo)); this.candidates.set(key, next); }
        ids = next;
      }
      for (const id of ids) if (!visit(id)) break;
    } else {
      this.postings.forEachRecord(this.termTokens(c1.t, withTypo), visit);
    }
    stats.scanned += n;
    return timedOut ? null : top;
  }
}
