// A property type the source's adapter writes on every row is cited as the source's constant, not as read (review 29:
// every King County property's 'sfr' cited kc_house_data.csv.gz at its line, imputed null, but the file has no type
// column: the adapter writes 'sfr' on every sale, SOURCE.md's house sales). The raw files' headers are read here: a
// source whose file has no type column must say 'source_constant'; one with a type column (Sacramento's `type`) is read
// there, and the cited line holds that type (SOURCE.md: Residential, Condo, Multi-Family).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { serveSharedBuild, warehouseRows } from '../../helpers/build.ts';
import { SHARED_DATA } from '../../helpers/paths.ts';

const rows = (file: string): Record<string, string>[] =>
  parse(zlib.gunzipSync(fs.readFileSync(path.join(SHARED_DATA, file))), { columns: true, bom: true }) as Record<string, string>[];

interface Cite { property_id: string; value: string; file: string; line: number; imputed: string | null }
const typeCites = (source: string): Promise<Cite[]> => warehouseRows<Cite>(`
  with sample as (select property_id from properties where source = $source order by hash(property_id) limit 40)
  select l.property_id, l.value, l.file, l.line::int as line, l.imputed
  from property_lineage l join sample using (property_id) where l.field = 'property_type' order by all`, { source });

describe('property lineage: a property type no cited row records is the source constant', () => {
  it("King County: kc_house_data.csv has no type column, so every 'sfr' is the adapter's constant", async () => {
    const kc = rows('king-county-wa-house-sales/kc_house_data.csv.gz');
    expect(Object.keys(kc[0]!).filter((h) => /type|class|use/i.test(h))).toEqual([]);
    const cites = await typeCites('king_county');
    expect(cites).toHaveLength(40);
    expect(cites.filter((c) => c.value !== 'sfr' || c.imputed !== 'source_constant')).toEqual([]);
  });

  it("Sacramento: the type is read at the cited line (Residential -> sfr, Condo -> condo, Multi-Family -> multi)", async () => {
    const raw = rows('sacramento-real-estate-transactions/sacramento_transactions.csv.gz');
    const want: Record<string, string> = { Residential: 'sfr', Condo: 'condo', 'Multi-Family': 'multi' };
    const cites = await typeCites('sacramento');
    expect(cites.length).toBeGreaterThanOrEqual(40);
    expect(cites.filter((c) => c.imputed !== null || want[raw[c.line - 2]!['type']!] !== c.value)).toEqual([]);
  });

  describe('the API answer', () => {
    const shared = serveSharedBuild('builder', 100_000);
    let id: string;
    beforeAll(async () => {
      id = (await warehouseRows<{ id: string }>(`select property_id as id from properties where source = 'king_county' order by hash(property_id) limit 1`))[0]!.id;
    });
    it("says how a King County property's type was filled", async () => {
      const res = await shared.get(`/v1/property?property_id=${id}&include=lineage`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { property_type: string; lineage: { fields: Record<string, { value: unknown; imputed: string | null }> } };
      expect(body.property_type).toBe('sfr');
      expect(body.lineage.fields['property_type']).toMatchObject({ value: 'sfr', imputed: 'source_constant' });
    });
  });
});
