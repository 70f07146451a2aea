// The fifteenth research review's misreadings (POST /v1/research/query), over the shared real build on the suite's
// pinned clock. Every figure expected is recomputed by the research oracle (test/helpers/oracle-research*.ts) from the
// build's raw tables and canonical rows, never read from its marts or shards.
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { friendlinessOf } from '../../helpers/oracle-research-legal.ts';

const ask = askWithSalesOracle();

describe('"for landlords": the places\' landlord friendliness, never a record sharing the word', () => {
  it.each([
    ['texas vs florida for landlords', 'TX', 'Texas', 'FL', 'Florida'],
    ['Ohio or Michigan for a landlord', 'OH', 'Ohio', 'MI', 'Michigan'],
  ])('%s', async (q, a, aName, b, bName) => {
    const r = await ask(q);
    const [fa, fb] = [friendlinessOf(a), friendlinessOf(b)];
    expect(r.answer).toContain(`${aName} ${fa} out of 100`);
    expect(r.answer).toContain(`${bName} ${fb} out of 100`);
    const [win, score] = fa >= fb ? [aName, fa] : [bName, fb];
    if (fa !== fb) expect(r.answer).toContain(`so ${win} is the more landlord-friendly (${score} out of 100)`);
    // before: "Closest matching rule ...: Texas no statutory cap; Florida no statutory cap" (the deposit-cap records)
    expect(r.answer).not.toMatch(/deposit|statutory cap|Closest matching/i);
    expect(r.sources.every((s) => /landlord friendliness/.test(s.citation))).toBe(true);
  });
});
