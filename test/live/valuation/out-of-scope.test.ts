// The valuation's scope (warehouse/docs/valuation.md "Scope"): a recorded property the records type land or commercial
// (mixed use included) is answered 404 naming what it is and where the type is read, never valued as the zip's typical
// home with a note that it "matches no recorded property" (review 17 D: 4324 Main St 19127, OPA MIXED USE, answered
// $333,500 as a typical home). Expected values from the RAW OPA file (csv-parse), over the shared build, real server.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';
import { loadSettings } from '../../../warehouse/settings.ts';

type Raw = Record<string, string>;
const file = path.join(loadSettings({}).sources, 'philadelphia-opa-properties-sample', 'opa_properties_public_sample.csv.gz');
const opa = parse(zlib.gunzipSync(fs.readFileSync(file)), { columns: true, relax_column_count: true }) as Raw[];
const api = serveSharedBuild('pro', 100_000);

const check = async (zip: string, address: string, words: string): Promise<void> => {
  const rows = opa.filter((r) => (r['location'] ?? '').trim() === address.toUpperCase() && (r['zip_code'] ?? '').trim().startsWith(zip));
  expect(rows).toHaveLength(1);
  const prop = await api.get(`/v1/property?${new URLSearchParams({ zip, address })}`);
  expect(prop.status).toBe(200);
  const { property_id } = await prop.json() as { property_id: string };
  const v = await api.post('/v1/valuation/estimate', { zip, address, sqft: 1744 });
  const body = await v.json() as Record<string, unknown>;
  expect(v.status, JSON.stringify(body).slice(0, 300)).toBe(404);
  const message = String(body['message']);
  expect(message).toContain(`property ${property_id}`); // the property GET /v1/property answers for the address
  expect(message).toContain(words);
  expect(message).toContain('opa_properties_public_sample.csv.gz line');
  expect(message).not.toContain('matches no recorded property');
};

describe('a recorded property out of the valuation scope by its type', () => {
  it('4324 MAIN ST 19127 (raw OPA category MIXED USE): 404 "a commercial property", not a typical home', async () => {
    const row = opa.find((r) => (r['location'] ?? '').trim() === '4324 MAIN ST')!;
    expect(row['category_code_description']!.trim()).toBe('MIXED USE');
    await check('19127', '4324 Main St', 'is recorded as a commercial property (mixed use included)');
  });

  it('1004 W THAYER ST 19140 (raw OPA category VACANT LAND): 404 "land"', async () => {
    const row = opa.find((r) => (r['location'] ?? '').trim() === '1004 W THAYER ST')!;
    expect(row['category_code_description']!.trim()).toBe('VACANT LAND');
    await check('19140', '1004 W Thayer St', 'is recorded as land');
  });
});
