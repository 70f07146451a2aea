// A property's city and state are cited as read only where the cited raw row records them (review 28: every NYC
// property's city "New York" cited nyc_rolling_sales_2021-04_2022-03.csv.gz line 59988 with imputed null, but the
// rolling sales have no city column: the adapter writes the constant). For sampled properties of NYC, Philadelphia,
// King County, Sacramento and Connecticut, each city and state citation (chosen and losing) is checked against the
// raw file it cites, parsed here with csv-parse: a file with a city (state) column must hold the value at the cited
// line, with imputed null; a file without one must say how the value was filled ('source_constant' for an adapter's
// constant, 'zip_city' for a city taken from the zip: warehouse/docs/property.md "Tables").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, warehouseRows } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { loadSettings } from '../../../warehouse/settings.ts';
import { rawHeader, rawLine } from '../../../scripts/raw-lines.ts';

/** Per raw folder, the column its rows name their city and state in (null: the files have none), and how a value
 *  the files do not record is filled. */
const PLACE: Record<string, { city: string | null; state: string | null; filled: { city?: string; state?: string }; mailing?: string[] }> = {
  'nyc-rolling-sales': { city: null, state: null, filled: { city: 'source_constant', state: 'source_constant' } },
  // OPA's state_code is the owner's mailing state (NJ, NY... on 5% of the rows), not the parcel's
  'philadelphia-opa-properties-sample': { city: null, state: null, filled: { city: 'source_constant', state: 'source_constant' }, mailing: ['state_code'] },
  'king-county-wa-house-sales': { city: null, state: null, filled: { city: 'zip_city', state: 'source_constant' } },
  'sacramento-real-estate-transactions': { city: 'city', state: 'state', filled: {} },
  'connecticut-real-estate-sales': { city: 'Town', state: null, filled: { state: 'source_constant' } },
};
const SOURCES = ['nyc', 'philadelphia', 'king_county', 'sacramento', 'connecticut'];

interface Cite { property_id: string; source: string; field: 'city' | 'state'; value: string; status: string; file: string; line: number; imputed: string | null }

describe('property lineage: a city or state not read from the cited row is cited as imputed', () => {
  let sources: string;
  beforeAll(() => { sources = loadSettings({}).sources; });

  it.each(SOURCES)('%s: each city and state citation matches its raw row or says how it was filled', async (source) => {
    const cites = await warehouseRows<Cite>(`
      with sample as (select property_id from properties where source = $source order by hash(property_id) limit 40)
      select l.property_id, l.source, l.field, l.value, l.status, l.file, l.line::int as line, l.imputed
      from property_lineage l join sample using (property_id)
      where l.field in ('city', 'state') order by all`, { source });
    expect(cites.length).toBeGreaterThanOrEqual(40);
    const wrong: string[] = [];
    for (const c of cites) {
      const place = PLACE[c.file.split('/')[0]!]!;
      const column = place[c.field];
      if (column === null) {
        // the file has no such column: the value cannot have been read from it
        const names = c.field === 'city' ? ['city', 'town', 'municipality'] : ['state', 'state_code'];
        expect(rawHeader(sources, c.file).filter((h) => names.includes(h.toLowerCase()) && !(place.mailing ?? []).includes(h)), c.file).toEqual([]);
        if (c.imputed !== place.filled[c.field]) wrong.push(`${c.property_id} ${c.field}=${c.value} ${c.file}:${c.line} imputed ${c.imputed}`);
        continue;
      }
      const raw = rawLine(sources, c.file, c.line)?.[column]?.trim() ?? '';
      if (c.imputed !== null || raw.toLowerCase() !== c.value.toLowerCase()) {
        wrong.push(`${c.property_id} ${c.field}=${c.value} imputed ${c.imputed}, raw ${column}=${raw} at ${c.file}:${c.line}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  }, 120_000);

  it('over the whole build, a source whose files have no city or state column never cites one as read', async () => {
    const rows = await warehouseRows<{ source: string; field: string; imputed: string | null; n: number }>(`
      select source, field, imputed, count(*)::int as n from property_lineage
      where field in ('city', 'state') and source in ('nyc', 'philadelphia', 'king_county', 'denver', 'louisville', 'allegheny', 'connecticut')
      group by all order by all`);
    const read = rows.filter((r) => r.imputed === null && !(r.field === 'city' && ['allegheny', 'connecticut'].includes(r.source)));
    expect(read).toEqual([]);
    // NYC: every property's city and state is the adapter's constant
    expect(rows.filter((r) => r.source === 'nyc').map((r) => [r.field, r.imputed])).toEqual([['city', 'source_constant'], ['state', 'source_constant']]);
  });

  describe('the API answer', () => {
    let server: TestServer;
    beforeAll(async () => { server = await startTestServer(artifactsDir()); });
    afterAll(async () => { await server.close(); });

    it('cites an NYC property\'s city as the source constant and a Sacramento one\'s as read', async () => {
      const pick = async (source: string): Promise<string> =>
        (await warehouseRows<{ id: string }>('select property_id as id from properties where source = $source order by hash(property_id) limit 1', { source }))[0]!.id;
      for (const [source, imputed] of [['nyc', 'source_constant'], ['sacramento', null], ['king_county', 'zip_city']] as const) {
        const res = await fetch(`${server.url}/v1/property?property_id=${await pick(source)}&include=lineage`,
          { headers: { 'X-Service-Key': server.key('builder', 100_000) } });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { lineage: { fields: Record<string, { imputed: string | null }> } };
        expect(body.lineage.fields['city']?.imputed, source).toBe(imputed);
      }
    });
  });
});
