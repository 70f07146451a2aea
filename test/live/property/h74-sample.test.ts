// A seeded random audit of GET /v1/property over a real server: 20 properties per sales source (the build's
// properties of that source in property_id order, picked by mulberry32 with a fixed seed), each answered with
// include=lineage; every sale's date and price and every field read at a cited raw line are recomputed here from that
// raw CSV row (csv-parse; dates and numbers by each source's SOURCE.md, not by the build's SQL). Then a property with
// several sales (order and each sale), an NYC apartment asked in its unit forms, and addresses asked in variant
// spellings (lower case, "St"/"Street", a made-up house number: the same record or a 404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, warehouseRows } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { SHARED_DATA } from '../../helpers/paths.ts';
import { rawLine, type RawRow } from '../../../scripts/raw-lines.ts';
import { addressNumbers, rawAddress, rawFields, rawSale } from '../../helpers/oracle-raw-sale-rows.ts';
import { rng } from '../../../scripts/rng.ts';

const SEED = 0x74adb;
const PER_SOURCE = 20;
const SALES_SOURCES = ['king_county', 'nyc', 'philadelphia', 'sacramento', 'denver', 'connecticut'] as const;

interface Cite { value?: unknown; source: string; table: string; file: string | null; line: number | null; imputed?: string | null }
interface Body {
  property_id: string; address: string | null; unit: string | null; zip: string | null; parcel_id: string | null; source: string;
  sales: { date: string; price: number }[];
  lineage: { fields: Record<string, Cite & { losing_values: Cite[] }>; sales: (Cite & { sale_id: string })[] };
  [k: string]: unknown;
}

/** `n` distinct items of `all` picked by the seeded generator. */
function pick<T>(all: T[], n: number, rand: () => number): T[] {
  const left = [...all];
  const out: T[] = [];
  while (out.length < n && left.length) out.push(left.splice(Math.floor(rand() * left.length), 1)[0]!);
  return out;
}

describe('GET /v1/property: a seeded sample against the raw rows it cites (h74)', () => {
  let server: TestServer;
  let key: string;
  const rand = rng(SEED);
  const get = async (qs: string): Promise<{ status: number; body: Body & { message?: string } }> => {
    const res = await server.get(`/v1/property?${qs}`, key);
    return { status: res.status, body: (await res.json()) as Body & { message?: string } };
  };
  const raw = (c: Cite): RawRow => {
    const r = rawLine(SHARED_DATA, c.file!, c.line!);
    if (!r) throw new Error(`${c.file} has no line ${c.line}`);
    return r;
  };
  /** Every sale and every read field of a record against its raw rows; the count of values compared. */
  const audit = (b: Body): number => {
    let n = 0;
    expect(b.lineage.sales.length, b.property_id).toBe(b.sales.length);
    b.sales.forEach((s, i) => {
      const c = b.lineage.sales[i]!;
      const want = rawSale(c.file!, raw(c));
      expect({ id: b.property_id, date: s.date, price: s.price }).toEqual({ id: b.property_id, date: want.date, price: want.price });
      if (i) expect(s.date <= b.sales[i - 1]!.date, `${b.property_id} sales newest first`).toBe(true);
      n += 2;
    });
    for (const [field, c] of Object.entries(b.lineage.fields)) {
      expect(b[field], `${b.property_id} ${field}`).toEqual(c.value);
      if (c.imputed || c.file === null || c.value === null) continue;
      const line = field === 'address' ? rawAddress(c.file, raw(c)) : null;
      if (line !== null) { // the normalised line and its unit write the raw address's numbers (house, numbered street, unit)
        const unit = b.lineage.fields['unit'];
        const sameRow = unit && unit.file === c.file && unit.line === c.line && unit.value !== null ? ` ${String(unit.value)}` : '';
        // every number the record writes is the raw row's, the house number first (a NYC row may name two units, ", 418"
        // and APARTMENT NUMBER 1: market.md's rule keeps the column's)
        const written = addressNumbers(String(c.value) + sameRow), held = addressNumbers(line);
        expect({ id: b.property_id, raw: line, house: String(c.value).split(' ')[0], extra: written.filter((x) => !held.includes(x)) })
          .toEqual({ id: b.property_id, raw: line, house: line.trim().toUpperCase().split(/\s+/)[0], extra: [] });
        n++;
      }
      const fields = rawFields(c.file, raw(c));
      if (!Object.hasOwn(fields, field)) continue;
      expect({ id: b.property_id, field, at: `${c.file}:${c.line}`, value: c.value }).toEqual({ id: b.property_id, field, at: `${c.file}:${c.line}`, value: fields[field] });
      n++;
    }
    return n;
  };

  beforeAll(async () => {
    server = await startTestServer(artifactsDir());
    key = server.key('builder', 100_000);
  });
  afterAll(async () => { await server.close(); });

  it.each(SALES_SOURCES)('%s: 20 seeded properties, each sale and read field equal to its raw row', async (source) => {
    const ids = (await warehouseRows<{ property_id: string }>(`select property_id from properties where source = $source order by property_id`, { source }))
      .map((r) => r.property_id);
    const bodies: Body[] = [];
    for (const id of pick(ids, PER_SOURCE, rng(SEED + source.length * 7919 + source.charCodeAt(0)))) {
      const { status, body } = await get(`property_id=${id}&include=lineage`);
      expect(status, id).toBe(200);
      bodies.push(body);
    }
    let compared = 0;
    for (const b of bodies) { expect(b.source).toBe(source); compared += audit(b); }
    expect(compared).toBeGreaterThanOrEqual(PER_SOURCE * 2);
  });

  it('a property with several sales lists each of them, newest first, as its raw rows record them', async () => {
    const ids = (await warehouseRows<{ property_id: string }>(`select property_id from properties where sale_count >= 3 and source in ('denver', 'nyc', 'king_county') order by property_id`))
      .map((r) => r.property_id);
    for (const id of pick(ids, 5, rand)) {
      const { status, body } = await get(`property_id=${id}&include=lineage`);
      expect(status).toBe(200);
      expect(body.sales.length).toBeGreaterThanOrEqual(3);
      audit(body);
    }
  });

  it('Philadelphia sales the OPA file dates 2068-2071 read 1968-1971 (SOURCE.md: a two-digit year parsed upstream)', async () => {
    const ids = (await warehouseRows<{ property_id: string }>(`
      select distinct property_id from property_sales join properties p using (property_id)
      where p.source = 'philadelphia' and year(property_sales.date) between 1960 and 1972 order by property_id`)).map((r) => r.property_id);
    let repaired = 0;
    for (const id of pick(ids, 8, rand)) {
      const { body } = await get(`property_id=${id}&include=lineage`);
      audit(body);
      repaired += body.lineage.sales.filter((c) => /^20[6-9]\d/.test(raw(c)['sale_date'] ?? '')).length;
    }
    expect(repaired).toBeGreaterThan(0);
  });

  it('an NYC apartment of a building of several units: its unit is the raw row\'s, and each unit form asks the same record', async () => {
    const units = await warehouseRows<{ property_id: string }>(`
      select p.property_id from properties p where source = 'nyc' and unit is not null and address is not null and zip is not null
        and (select count(*) from properties q where q.source = 'nyc' and q.parcel_id = p.parcel_id) >= 3 order by property_id`);
    for (const { property_id } of pick(units, 4, rand)) {
      const { body } = await get(`property_id=${property_id}&include=lineage`);
      audit(body);
      const c = body.lineage.fields['unit']!;
      const r = raw(c);
      // market.md (NYC DOF): the unit is APARTMENT NUMBER, or the ", 3D" after the street when that holds a number and
      // the column none
      const apt = r['APARTMENT NUMBER']!.trim(), part = (r['ADDRESS']!.split(',')[1] ?? '').trim();
      const rawUnit = (/\d/.test(part) && !/\d/.test(apt) ? part : apt || part).toUpperCase().replace(/[^A-Z0-9]/g, '');
      expect(body.unit!.replace(/[^A-Z0-9]/g, '')).toBe(rawUnit);
      for (const form of [`${body.address}, ${body.unit}`, `${body.address} Apt ${body.unit}`, `${body.address} #${body.unit!.replace(/-/g, '')}`, `${body.address!.toLowerCase()}, unit ${body.unit!.toLowerCase()}`]) {
        const asked = await get(`address=${encodeURIComponent(form)}&zip=${body.zip}`);
        expect({ form, status: asked.status, id: asked.body.property_id }).toEqual({ form, status: 200, id: property_id });
      }
    }
  });

  it('an address in variant spellings answers the same record; a made-up house number is a 404', async () => {
    const rows = await warehouseRows<{ property_id: string; address: string; zip: string }>(`
      select property_id, address, zip from properties where source in ('sacramento', 'philadelphia', 'nyc') and unit is null and zip is not null
        and regexp_matches(address, '^[0-9]+ [A-Z0-9 ]+ (ST|AVE|RD|DR|CT|WAY)$') order by property_id`);
    const LONG: Record<string, string> = { ST: 'Street', AVE: 'Avenue', RD: 'Road', DR: 'Drive', CT: 'Court', WAY: 'Way' };
    let checked = 0;
    for (const p of pick(rows, 12, rand)) {
      const base = await get(`address=${encodeURIComponent(p.address)}&zip=${p.zip}`);
      if (base.body.property_id !== p.property_id) continue; // a line naming several properties answers its newest (checked elsewhere)
      const words = p.address.split(' ');
      const long = [...words.slice(0, -1), LONG[words.at(-1)!]!].join(' ');
      for (const form of [p.address.toLowerCase(), long, long.toUpperCase(), `  ${p.address.replace(/ /g, '  ')} `]) {
        const asked = await get(`address=${encodeURIComponent(form)}&zip=${p.zip}`);
        expect({ form, status: asked.status, id: asked.body.property_id }).toEqual({ form, status: 200, id: p.property_id });
      }
      const fake = `99999${words.slice(1).join(' ')}`.replace(/^99999/, '99999 ');
      const none = await get(`address=${encodeURIComponent(fake)}&zip=${p.zip}`);
      expect({ fake, status: none.status }).toEqual({ fake, status: 404 });
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });
});
