// Connecticut's sales validated by the sale-to-assessment ratio (30_market_45_sale_flags.sql, warehouse/docs/market.md
// "Arm's-length rule", `assessment_ratio`): both raw files parsed here with csv-parse, not the build's reader, the
// fences Q1 - 3 IQR .. Q3 + 3 IQR recomputed per file and property type over the sales of $10,000 or more with an
// assessed value and no Non Use Code (30 or more), and the flagged lines compared with the build's. The 2022 extract
// has no Non Use Code column, so this test is the only one of its sales beside the price floor and duplicates; in the
// head-of-file extract, which has codes, the same fences set the coded sales apart from the clean ones. The trends
// answer of a Connecticut town says so in its data_note (a real server over the shared build).
import fs from 'node:fs';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, warehouseRows } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile } from '../helpers/oracle-raw-comps.ts';
import { quantile } from '../helpers/oracle-market.ts';

const FILES = { gl: 'Real_Estate_Sales_2001-2022_GL.head9999.csv.gz', y2022: 'real_estate_sales_2022-01_2022-09_listyear2021.csv.gz' } as const;

/** The build's property type of a Connecticut row, from its Property Type and Residential Type (market.md "Property types"). */
function typeOf(pt: string, rt: string): string | null {
  const multi = ['Two Family', 'Three Family', 'Four Family'].includes(rt);
  if (pt === 'Residential') return rt === 'Condo' ? 'condo' : multi ? 'multi' : 'sfr';
  if (pt === 'Apartments') return 'multi';
  if (pt === 'Vacant Land') return 'land';
  if (['Commercial', 'Industrial', 'Public Utility'].includes(pt)) return 'commercial';
  if (pt === '') return rt === 'Single Family' ? 'sfr' : rt === 'Condo' ? 'condo' : multi ? 'multi' : null;
  return null;
}

interface Row { file: string; line: number; type: string | null; price: number; assessed: number; coded: boolean }
function rawRows(file: string): Row[] {
  const records = parse(zlib.gunzipSync(fs.readFileSync(dataFile(`connecticut-real-estate-sales/${file}`))).toString('utf8'),
    { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const num = (v: string | undefined): number => Number((v ?? '').replaceAll(',', '').trim() || NaN);
  return records.map((r, i) => ({ file, line: i + 2, type: typeOf((r['Property Type'] ?? '').trim(), (r['Residential Type'] ?? '').trim()),
    price: num(r['Sale Amount']), assessed: num(r['Assessed Value']), coded: (r['Non Use Code'] ?? '').trim() !== '' }));
}

describe('Connecticut: the sale-to-assessment ratio stands in for the 2022 extract\'s missing Non Use Code', () => {
  test('the flagged lines are the raw files\' extreme ratio outliers, fenced per file and type', async () => {
    const kept = new Set((await warehouseRows<{ f: string; line: number }>(`
      select regexp_extract(file, '[^/]+$') as f, line::int as line from sales where source = 'connecticut'`)).map((r) => `${r.f}:${r.line}`));
    const rows = [...rawRows(FILES.gl), ...rawRows(FILES.y2022)].filter((r) => kept.has(`${r.file}:${r.line}`));
    expect(rows.length).toBeGreaterThan(50000);
    // judged: a price of $10,000 or more (else nominal_price), no code (else related_parties or non_use_code), an assessment
    const judged = rows.filter((r) => r.type !== null && r.price >= 10000 && !r.coded && r.assessed > 0);
    const fences = new Map<string, { lo: number; hi: number; n: number }>();
    for (const key of new Set(judged.map((r) => `${r.file}|${r.type}`))) {
      const ratios = judged.filter((r) => `${r.file}|${r.type}` === key).map((r) => r.assessed / r.price).sort((a, b) => a - b);
      if (ratios.length < 30) continue;
      const q1 = quantile(ratios, 0.25), q3 = quantile(ratios, 0.75);
      fences.set(key, { lo: q1 - 3 * (q3 - q1), hi: q3 + 3 * (q3 - q1), n: ratios.length });
    }
    const out = (r: Row): boolean => {
      const f = fences.get(`${r.file}|${r.type}`);
      return f !== undefined && (r.assessed / r.price < f.lo || r.assessed / r.price > f.hi);
    };
    const want = judged.filter(out).map((r) => `${r.file}:${r.line}`).sort();
    // the 2022 extract's residential sales (all read as sfr there): over a thousand flagged
    expect(judged.filter((r) => r.file === FILES.y2022 && r.type === 'sfr' && out(r)).length).toBeGreaterThan(1000);
    const got = await warehouseRows<{ f: string; line: number; arms: boolean }>(`
      select regexp_extract(file, '[^/]+$') as f, line::int as line, is_arms_length as arms from sales
      where source = 'connecticut' and non_arms_length_reason = 'assessment_ratio'`);
    expect(got.map((r) => `${r.f}:${r.line}`).sort()).toEqual(want);
    expect(got.every((r) => !r.arms)).toBe(true);
    // a proxy for the codes: in the head-of-file extract the same fences take a far larger share of the coded sales
    // (which the codes flag anyway) than of the clean ones
    const gl = rows.filter((r) => r.file === FILES.gl && r.type !== null && r.price >= 10000 && r.assessed > 0);
    const share = (xs: Row[]): number => xs.filter(out).length / xs.length;
    expect(share(gl.filter((r) => r.coded))).toBeGreaterThan(0.1);
    expect(share(gl.filter((r) => !r.coded))).toBeLessThan(0.01);
  });
});

describe('the trends answer says what the 2022 extract cannot test', () => {
  let srv: TestServer;
  beforeAll(async () => { srv = await startTestServer(artifactsDir()); });
  afterAll(async () => { await srv.close(); });

  test('Bridgeport, CT: the data_note names the missing Non Use Code and the ratio test standing in; Philadelphia\'s names none', async () => {
    // the raw 2022 extract has no Non Use Code (nor party or deed type) column; the other file has one
    const header = (file: string): string[] => zlib.gunzipSync(fs.readFileSync(dataFile(`connecticut-real-estate-sales/${file}`))).toString('utf8').split('\n', 1)[0]!.split(',');
    expect(header(FILES.y2022)).not.toContain('Non Use Code');
    expect(header(FILES.gl)).toContain('Non Use Code');
    const key = srv.key('builder');
    const ct = (await (await srv.get('/v1/market/trends?city=Bridgeport&state=CT&months=24', key)).json()) as { data_note: string | null };
    expect(ct.data_note).toMatch(/^These sales come from a partial extract of their source \(Connecticut OPM real estate sales, 50,945 rows\)/);
    expect(ct.data_note).toContain('its 2022 extract (sales recorded 2022-01..2022-09) records no Non Use Code, buyer, seller or deed type');
    expect(ct.data_note).toContain('related parties (family, love and affection, inter-corporation)');
    expect(ct.data_note).toContain('only the sale-to-assessment ratio test');
    const pa = (await (await srv.get('/v1/market/trends?city=Philadelphia&state=PA&months=24', key)).json()) as { data_note: string | null };
    expect(pa.data_note).toMatch(/^These sales come from a partial extract of their source \(Philadelphia OPA property assessments/);
    expect(pa.data_note).not.toContain('Non Use Code');
  });
});
