// What a valuation server keeps in memory (warehouse/docs/valuation.md "In memory"): a market's data only once it is
// asked about, and no column of a comp file twice. Over the shared data's build.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDir } from '../../helpers/build.ts';
import { ValuationEngine } from '../../../live/valuation/endpoint.ts';
import { loadEngine } from '../../../live/property/endpoint.ts';
import { readCompSet } from '../../../live/valuation/comp-arrow.ts';

describe('valuation memory', () => {
  it('a market\'s params file is read at its first request, and only that market\'s model is kept', () => {
    const engine = ValuationEngine.fromDir(path.join(buildDir(), 'live', 'valuation'));
    expect(engine.paramsLoaded()).toEqual([]);
    engine.market('king_county');
    expect(engine.paramsLoaded()).toEqual(['king_county']);
    expect(engine.params('king_county')?.source).toBe('king_county');
  });

  it('a comp index keeps no column of its file twice, and gives the file back exactly', () => {
    const dir = path.join(buildDir(), 'live', 'valuation');
    const engine = ValuationEngine.fromDir(dir);
    for (const [source, files] of Object.entries(engine.meta.sources)) {
      const m = engine.market(source);
      for (const [ix, file] of [[m.comps, files.comps_file], [m.subjects, files.subjects_file]] as const) {
        // held in the index's typed arrays only (beds as ix.beds, null as NaN; cond as ix.cond, null as -1)
        expect(Object.keys(ix.data).sort(), `${source} ${file}`).toEqual(['day', 'key', 'pid', 'price', 'source', 'sqft', 'type', 'zip', 'zips', ...(ix.data.block ? ['block'] : [])].sort());
        expect(ix.data.day).toBe(ix.day);
        expect(ix.toData(), `${source} ${file}`).toEqual(readCompSet(path.join(dir, file)));
      }
    }
  });

  it('GET /v1/property and the valuation share one property engine per build, so its files are parsed and kept once', () => {
    const build = { dir: buildDir(), buildId: 'memory-test', asOf: '2026-01-01' };
    const engine = loadEngine(build);
    expect(engine).not.toBeNull();
    expect(loadEngine({ ...build })).toBe(engine);
    expect(loadEngine({ ...build, buildId: 'another' })).not.toBe(engine);
  });

  it('address keys and property ids are held as one string per column (string-column.ts), each row read back as parsed', () => {
    const dir = path.join(buildDir(), 'live', 'valuation');
    const engine = ValuationEngine.fromDir(dir);
    const m = engine.market('king_county');
    const file = readCompSet(path.join(dir, engine.meta.sources['king_county']!.comps_file)) as { key: (string | null)[]; pid: (string | null)[] };
    expect(Array.isArray(m.comps.data.key) || Array.isArray(m.comps.data.pid)).toBe(false);
    expect(Array.from({ length: m.comps.n }, (_, i) => [m.comps.data.key.at(i), m.comps.data.pid!.at(i)])).toEqual(file.key.map((k, i) => [k, file.pid[i]]));
    expect(m.comps.data.key.at(m.comps.n)).toBeNull();
  });
});
