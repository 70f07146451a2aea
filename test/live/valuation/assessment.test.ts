// Philadelphia's assessment as a valuation feature (issue 24): the OPA roll's market value (SOURCE.md `market_value`,
// snapshot 2022-05-24) reaches a matched Philadelphia subject as the fact `assessed_value`, from the record. Oracle: the
// RAW OPA file (opa_properties_public_sample.csv.gz), read here with csv-parse, not the SQL or the comp files under test.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { ValuationEngine, type ValuationBody } from '../../../live/valuation/endpoint.ts';
import { buildDir } from '../../helpers/build.ts';
import { REPO } from '../../helpers/paths.ts';
import { readCompSet } from '../../../live/valuation/comp-arrow.ts';

interface RawParcel { location: string; zip_code: string; market_value: string; sale_price: string; category_code_description: string }

describe('the valuation answer: Philadelphia assessed value (real build, raw OPA oracle)', () => {
  let engine: ValuationEngine;
  let raw: RawParcel[];
  beforeAll(() => {
    engine = ValuationEngine.fromDir(path.join(buildDir(), 'live', 'valuation'));
    const file = path.join(REPO, '..', 'shared', 'data', 'philadelphia-opa-properties-sample', 'opa_properties_public_sample.csv.gz');
    raw = parse(zlib.gunzipSync(fs.readFileSync(file)), { columns: true, skip_empty_lines: true, bom: true }) as RawParcel[];
  });

  it('a matched single-family record carries its roll market value as assessed_value (source record)', () => {
    // single-family parcels with a market sale and an assessment, in file order; each address asked once
    const cands = raw.filter((r) => r.category_code_description.trim() === 'SINGLE FAMILY' && Number(r.sale_price) >= 50_000 && Number(r.market_value) > 0);
    let matched = 0;
    for (const r of cands.slice(0, 200)) {
      const a = engine.answer({ zip: r.zip_code.trim().slice(0, 5), address: r.location, condition: 'good' });
      if (!a.ok) continue;
      const body = (a as { body: ValuationBody }).body;
      if (!body.subject.matched || body.subject.matched_on !== 'sale') continue;
      matched++;
      const f = body.subject.facts.find((x) => x.name === 'assessed_value');
      expect(f, r.location).toEqual({ name: 'assessed_value', value: Math.round(Number(r.market_value)), source: 'record' });
    }
    expect(matched).toBeGreaterThanOrEqual(50);
  });

  it('only Philadelphia\'s comps carry the assessment, and it is kept out of the hedonic slopes (weights and trees only)', () => {
    const dir = path.join(buildDir(), 'live', 'valuation');
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { sources: Record<string, { comps_file: string; params_file: string }> };
    const feats = (source: string): Record<string, (number | null)[]> =>
      readCompSet(path.join(dir, meta.sources[source]!.comps_file)).features ?? {};
    expect(Object.keys(feats('king_county'))).not.toContain('log_assessed');
    const phl = feats('philadelphia')['log_assessed'] ?? [];
    expect(phl.filter((v) => v !== null).length).toBeGreaterThan(phl.length * 0.9);
    const phlParams = JSON.parse(fs.readFileSync(path.join(dir, meta.sources['philadelphia']!.params_file), 'utf8')) as { features: Record<string, number>; gbm?: { features: string[] } };
    expect(phlParams.features).not.toHaveProperty('log_assessed');
    expect(phlParams.gbm?.features).toContain('log_assessed');
  });
});
