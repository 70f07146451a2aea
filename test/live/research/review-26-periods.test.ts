// Review 26: a comparison of places by their price change ranked changes over different months together: "which towns
// in Fairfield County CT had the biggest 3-month price change" put New Fairfield's +21.2% and Darien's -20.3% (each over
// the 3 months to 2022-08) in one order with the others' (to 2022-09), never naming a period. A change now names its
// months in the comparison ("+6% (3 months to 2022-09)") and like-for-like.ts ranks only the changes over the same
// months. The figures are each town's own trend answer (checked against the raw files in trends.test.ts and
// review-25-ct.test.ts); the periods are read from them here.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

let engine: ResearchEngine;
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });

describe('review 26: changes compared over the same months only', () => {
  it('Fairfield County towns: each change with its months; those ending in another month are not ranked with the rest', async () => {
    const a = await ask('which towns in Fairfield County CT had the biggest 3-month price change');
    const shown = [...a.matchAll(/([A-Z][A-Za-z ]+), CT ([+-][\d.]+%) \(3 months to (\d{4}-\d{2})\)/g)].map((m) => ({ town: m[1]!.trim(), pct: m[2]!, end: m[3]! }));
    expect(shown.length).toBeGreaterThanOrEqual(4);
    const ends = new Map<string, number>();
    for (const s of shown) ends.set(s.end, (ends.get(s.end) ?? 0) + 1);
    expect(ends.size).toBeGreaterThan(1); // the data has changes ending in two months
    const [main] = [...ends].sort((x, y) => y[1] - x[1])[0]!;
    const order = /in order: (.*?) \(the others not ranked/.exec(a);
    expect(order, a).not.toBeNull();
    const ranked = [...order![1]!.matchAll(/\d+\. ([A-Za-z ]+), CT/g)].map((m) => m[1]!.trim());
    expect(new Set(ranked)).toEqual(new Set(shown.filter((s) => s.end === main).map((s) => s.town)));
    expect(a).toContain(`these figures are of different periods, the 3 months to ${[...ends.keys()].sort().reverse().map((e) => e).join(' and the 3 months to ')}`);
    // each change is the town's own answer over the same months
    for (const s of shown.filter((x) => x.end !== main).slice(0, 2)) {
      expect(await ask(`how have home prices changed in ${s.town} CT over the last 3 months`)).toContain(`changed ${s.pct} over the 3 months to ${s.end}`);
    }
  });
});
