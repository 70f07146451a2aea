// Unit tests of research retrieval's text index (live/research/text.ts): BM25 over a few hand-written records.
import { describe, expect, it } from 'vitest';
import { buildBm25, Bm25, queryTerms } from '../../../live/research/text.ts';

describe('retrieval', () => {
  it('BM25 ranks the record whose words match', () => {
    const idx = new Bm25(buildBm25(['eviction notice to pay or quit', 'security deposit limit months', 'adverse possession color of title years']));
    expect(idx.search(queryTerms('squatters and color of title'))[0]!.doc).toBe(2);
    expect(idx.search(queryTerms('deposits'))[0]!.doc).toBe(1);
    const s = idx.search(queryTerms('notice to evict'));
    expect(s[0]!.doc).toBe(0);
    expect(idx.coverage(queryTerms('capital gains'), [])).toBe(0);
  });
});
