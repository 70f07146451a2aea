// What a valuation server keeps in memory (warehouse/docs/valuation.md "In memory"): a market's data only once it is
// asked about, and no column of a comp file twice. Over the shared data's build.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { ValuationEngine } from '../../../live/valuation/endpoint.ts';

describe('valuation memory', () => {
  it('params.json is read at a market\'s first request, and only that market\'s model is kept', () => {
    const engine = ValuationEngine.fromDir(path.join(buildDir(), 'live', 'valuation'));
    expect(engine.paramsLoaded()).toEqual([]);
    engine.market('king_county');
    expect(engine.paramsLoaded()).toEqual(['king_county']);
    expect(engine.params('king_county')?.source).toBe('king_county');
  });
});
