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

  it('a King County record has no assessed_value (the source has no assessment)', () => {
    const meta = JSON.parse(fs.readFileSync(path.join(buildDir(), 'live', 'valuation', 'params.json'), 'utf8')) as Record<string, { features: Record<string, number> }>;
    expect(Object.keys(meta['king_county']!.features)).not.toContain('log_assessed');
    expect(meta['philadelphia']!.features['log_assessed']).toBeGreaterThan(0);
  });
});
