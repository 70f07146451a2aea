// `tsx scripts/generate-synthetic.ts --rows 1000000 --out /tmp/synth --seed 1 [--data ../shared/data]
//   [--parcels N] [--permits N] [--distress N] [--bad-rate 0]`
// A deterministic (seeded) generator of synthetic county records in the canonical format (DESIGN.md "canonical
// format"): <out>/canonical/{sales,parcels,permits,distress}.csv, so `reii build --sources <out>` loads them as
// the operator's records. --rows is the number of sales; parcels default rows/2, permits rows/5, distress rows/50.
//
// Distributions follow the real sources in ../shared/data:
// - geography: every ZCTA of the 50 states + DC from us-zip-reference (primary city, state, centroid); with
//   rows >= ZCTAs each ZCTA gets at least one sale, the rest weighted by ACS housing units (census-acs2023-population);
// - price per sqft per zip: the Redfin zip snapshot median_ppsf (latest capture), else Zillow ZHVI / 1,750 sqft,
//   else the state median; within a zip lognormal (sigma 0.25, the spread of King County ppsf within a zip);
// - sizes: living area lognormal (median 1,900 sqft, sigma 0.42, King County), beds/baths from the size;
// - types: sfr 64%, condo 18%, multi 10%, land 5%, commercial 3% (the NYC/Philadelphia/Connecticut mix);
// - dates: 36 months ending 2025-09-30, with the spring/summer peak of the King County sales;
// - list data on 70% of sales (days on market lognormal median 24, sale-to-list ~ N(0.99, 0.03));
// - buyers: 14% entities (Denver's share of LLC/INC/TRUST grantees), 3% of sales are investor flip pairs (bought
//   ~25% under market, resold 60-330 days later).
// Streaming writes with back-pressure: memory stays flat at any --rows. Same arguments -> byte-identical files.
// --bad-rate r makes that share of rows invalid on purpose (bad dates, prices, types, zips) to exercise rejects.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { rng } from './rng.ts';

export { rng };

// ---------------------------------------------------------------- deterministic randomness


/** A 32-bit integer hash (for properties that must be the same wherever a parcel appears). */
function hash32(x: number, y: number): number {
  let h = Math.imul(x ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(y + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 16; h = Math.imul(h, 0x7feb352d); h ^= h >>> 15; h = Math.imul(h, 0x846ca68b); h ^= h >>> 16;
  return h >>> 0;
}

function normal(r: () => number): number {
  const u = Math.max(r(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}
const lognormal = (r: () => number, median: number, sigma: number): number => median * Math.exp(sigma * normal(r));
function pick<T>(r: () => number, items: readonly T[]): T { return items[Math.floor(r() * items.length)]!; }
function weighted<T>(r: () => number, items: readonly (readonly [T, number])[]): T {
  const total = items.reduce((a, [, w]) => a + w, 0);
  let x = r() * total;
  for (const [v, w] of items) { if ((x -= w) < 0) return v; }
  return items[items.length - 1]![0];
}

// ---------------------------------------------------------------- vocabulary

const STREETS = ['MAIN', 'OAK', 'PINE', 'MAPLE', 'CEDAR', 'ELM', 'WASHINGTON', 'LAKE', 'HILL', 'PARK', 'WALNUT', 'CHESTNUT',
  'SPRUCE', 'BIRCH', 'WILLOW', 'CHERRY', 'HICKORY', 'JEFFERSON', 'LINCOLN', 'MADISON', 'MONROE', 'JACKSON', 'ADAMS',
  'FRANKLIN', 'HAMILTON', 'GRANT', 'WILSON', 'CHURCH', 'SCHOOL', 'MILL', 'SPRING', 'RIVER', 'BROAD', 'HIGH', 'CENTER',
  'UNION', 'MARKET', 'WATER', 'BRIDGE', 'FOREST', 'MEADOW', 'VALLEY', 'SUNSET', 'HIGHLAND', 'RIDGE', 'GROVE', 'ORCHARD',
  'PROSPECT', 'PLEASANT', 'FAIRVIEW', 'LAUREL', 'HOLLY', 'ASPEN', 'POPLAR', 'LAKEVIEW', 'HILLCREST', 'RIVERSIDE',
  'WOODLAND', 'GREENWOOD', 'BROOKSIDE', 'KING', 'QUEEN', 'CHAPEL', 'STATION', 'HARBOR', 'BAY', 'CANYON', 'MESA', 'VISTA',
  'SUMMIT', 'PRAIRIE', 'FIELD', 'CARDINAL', 'EAGLE', 'FOX', 'ROSE', 'TULIP', 'JOHNSON', 'SMITH', 'WILLIAMS', 'BROWN',
  'DAVIS', 'GARCIA', 'TAYLOR', 'MOORE', 'CLARK', 'LEWIS', 'WALKER', 'YOUNG', 'ALLEN', 'WRIGHT', 'SCOTT', 'GREEN',
  '1ST', '2ND', '3RD', '4TH', '5TH', '6TH', '7TH', '8TH', '9TH', '10TH', '11TH', '12TH'];
const SUFFIXES: [string, number][] = [['ST', 28], ['AVE', 18], ['RD', 12], ['DR', 12], ['LN', 7], ['CT', 6], ['BLVD', 3],
  ['PL', 4], ['WAY', 4], ['CIR', 3], ['TER', 2], ['PKWY', 1], ['TRL', 2]];
const LAST = ['SMITH', 'JOHNSON', 'WILLIAMS', 'BROWN', 'JONES', 'GARCIA', 'MILLER', 'DAVIS', 'RODRIGUEZ', 'MARTINEZ',
  'HERNANDEZ', 'LOPEZ', 'GONZALEZ', 'WILSON', 'ANDERSON', 'THOMAS', 'TAYLOR', 'MOORE', 'JACKSON', 'MARTIN', 'LEE',
  'PEREZ', 'THOMPSON', 'WHITE', 'HARRIS', 'SANCHEZ', 'CLARK', 'RAMIREZ', 'LEWIS', 'ROBINSON', 'WALKER', 'YOUNG', 'ALLEN',
  'KING', 'WRIGHT', 'SCOTT', 'TORRES', 'NGUYEN', 'HILL', 'FLORES', 'GREEN', 'ADAMS', 'NELSON', 'BAKER', 'HALL', 'RIVERA',
  'CAMPBELL', 'MITCHELL', 'CARTER', 'ROBERTS', 'TRUSTY', 'INCE', 'CORPUZ', 'LLOYD'];
const FIRST = ['JAMES', 'MARY', 'ROBERT', 'PATRICIA', 'JOHN', 'JENNIFER', 'MICHAEL', 'LINDA', 'DAVID', 'ELIZABETH',
  'WILLIAM', 'BARBARA', 'RICHARD', 'SUSAN', 'JOSEPH', 'JESSICA', 'THOMAS', 'SARAH', 'CHRISTOPHER', 'KAREN', 'DANIEL',
  'LISA', 'MATTHEW', 'NANCY', 'ANTHONY', 'BETTY', 'MARK', 'SANDRA', 'WEI', 'PRIYA', 'JOSE', 'MARIA'];
const ENTITY_WORDS = ['SUMMIT', 'KEYSTONE', 'BLUE OAK', 'RED BRICK', 'HARBOR', 'PINNACLE', 'CORNERSTONE', 'MAPLE LEAF',
  'NORTHSTAR', 'GOLDEN GATE', 'IRON HORSE', 'SILVER LAKE', 'EVERGREEN', 'LIBERTY', 'PIONEER', 'CARDINAL', 'GRANITE'];
const ENTITY_SUFFIXES = ['LLC', 'LLC', 'LLC', 'HOLDINGS LLC', 'PROPERTIES LLC', 'INVESTMENTS LLC', 'CAPITAL GROUP LLC',
  'REALTY INC', 'HOMES INC', 'PARTNERS LP', 'VENTURES LLC', 'ACQUISITIONS LLC', 'LAND TRUST', 'EQUITY FUND LP'];
const TYPES: [string, number][] = [['sfr', 64], ['condo', 18], ['multi', 10], ['land', 5], ['commercial', 3]];
const TYPE_PPSF: Record<string, number> = { sfr: 1, condo: 1.08, multi: 0.85, land: 1, commercial: 0.95 };
const CONDITIONS: [string, number][] = [['good', 60], ['fair', 22], ['excellent', 10], ['poor', 8]];
const PERMIT_TYPES: [string, number, number][] = [ // type, weight, median valuation USD
  ['renovation', 30, 35000], ['repair', 35, 9000], ['addition', 8, 60000], ['new', 12, 320000], ['demolition', 3, 18000], ['other', 12, 6000]];
const DISTRESS_KINDS: [string, number][] = [['pre_foreclosure', 60], ['tax_delinquent', 30], ['lien_foreclosure', 10]];
const STATES = new Set('AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(' '));

const END = Date.UTC(2025, 8, 30); // 2025-09-30
const DAY = 86_400_000;
const SPAN_DAYS = 3 * 365;
// King County's monthly sales share (Jan..Dec): a spring/summer peak
const MONTH_WEIGHT = [0.55, 0.62, 0.95, 1.1, 1.15, 1.1, 1.05, 1.0, 0.95, 0.95, 0.8, 0.78];

// ---------------------------------------------------------------- zip universe

export interface ZipInfo { zip: string; city: string; state: string; lat: number; lng: number; ppsf: number; weight: number }

function readCsvGz(file: string): Record<string, string>[] {
  const text = file.endsWith('.gz') ? zlib.gunzipSync(fs.readFileSync(file)).toString('utf8') : fs.readFileSync(file, 'utf8');
  return parse(text, { columns: true, skip_empty_lines: true, relax_column_count: true }) as Record<string, string>[];
}

async function redfinPpsf(file: string): Promise<Map<string, number>> {
  // streamed line by line: the file is 120k rows and 53 columns
  const out = new Map<string, { month: string; ppsf: number }>();
  if (!fs.existsSync(file)) return new Map();
  const lines = readline.createInterface({ input: fs.createReadStream(file).pipe(zlib.createGunzip()) });
  let header: string[] | null = null;
  let iZip = -1, iPpsf = -1, iMonth = -1;
  for await (const line of lines) {
    if (!header) {
      header = line.split(',');
      iZip = header.indexOf('zip_code'); iPpsf = header.indexOf('median_ppsf'); iMonth = header.indexOf('snapshot_month');
      continue;
    }
    if (line.includes('"')) continue; // quoted city/metro names: rare, skip rather than mis-split
    const f = line.split(',');
    const ppsf = Number(f[iPpsf]);
    const zip = f[iZip]!, month = f[iMonth]!;
    if (!Number.isFinite(ppsf) || ppsf < 20 || ppsf > 3000) continue;
    const prev = out.get(zip);
    if (!prev || prev.month < month) out.set(zip, { month, ppsf });
  }
  return new Map([...out].map(([z, v]) => [z, v.ppsf]));
}

export async function loadZips(dataDir: string): Promise<ZipInfo[]> {
  const refFile = path.join(dataDir, 'us-zip-reference', 'zip_reference.csv.gz');
  if (!fs.existsSync(refFile)) throw new Error(`missing ${refFile}: pass --data <shared data folder>`);
  const ref = readCsvGz(refFile);
  const units = new Map<string, number>();
  const acsFile = path.join(dataDir, 'census-acs2023-population', 'acs5_2023_zcta_population.csv.gz');
  if (fs.existsSync(acsFile)) for (const r of readCsvGz(acsFile)) units.set(r['zip code tabulation area'] ?? r['geoid']!, Number(r['B25001_001E']) || 0);
  const redfin = await redfinPpsf(path.join(dataDir, 'redfin-zip-market-snapshots', 'redfin_zip_latest_2025-05_to_2025-09.csv.gz'));
  const zips: ZipInfo[] = [];
  for (const r of ref) {
    const state = r['state'] ?? '';
    const lat = Number(r['lat']), lng = Number(r['lng']);
    if (!STATES.has(state) || !/^\d{5}$/.test(r['zip_code'] ?? '') || !Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    const zhvi = Number(r['zhvi_latest']);
    const ppsf = redfin.get(r['zip_code']!) ?? (zhvi > 10000 ? zhvi / 1750 : NaN);
    zips.push({ zip: r['zip_code']!, city: (r['city'] || 'Unknown').replace(/[",]/g, ' ').trim(), state, lat, lng, ppsf,
      weight: Math.max(units.get(r['zip_code']!) ?? 0, 1) });
  }
  // zips with no price signal take their state's median, else the national median
  const byState = new Map<string, number[]>();
  for (const z of zips) if (Number.isFinite(z.ppsf)) (byState.get(z.state) ?? byState.set(z.state, []).get(z.state)!).push(z.ppsf);
  const median = (a: number[]): number => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)] ?? 200; };
  const national = median(zips.filter((z) => Number.isFinite(z.ppsf)).map((z) => z.ppsf));
  for (const z of zips) if (!Number.isFinite(z.ppsf)) z.ppsf = byState.has(z.state) ? median(byState.get(z.state)!) : national;
  zips.sort((a, b) => (a.zip < b.zip ? -1 : a.zip > b.zip ? 1 : 0));
  return zips;
}

// ---------------------------------------------------------------- writing

class CsvOut {
  private stream: fs.WriteStream;
  private buf: string[] = [];
  constructor(file: string, header: readonly string[]) {
    this.stream = fs.createWriteStream(file);
    this.buf.push(header.join(','));
  }
  async row(values: readonly (string | number | null | undefined)[]): Promise<void> {
    this.buf.push(values.map(cell).join(','));
    if (this.buf.length >= 2000) await this.flush();
  }
  async flush(): Promise<void> {
    if (!this.buf.length) return;
    const ok = this.stream.write(this.buf.join('\n') + '\n');
    this.buf = [];
    if (!ok) await new Promise<void>((resolve) => this.stream.once('drain', resolve));
  }
  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => this.stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}
function cell(v: string | number | null | undefined): string {
  if (v == null) return '';
  const s = typeof v === 'number' ? String(v) : v;
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const round = (x: number, d = 0): number => { const f = 10 ** d; return Math.round(x * f) / f; };

// ---------------------------------------------------------------- records

/** The fixed facts of one property (parcel k of a zip): the same in every file it appears in. */
interface Property { parcelId: string; address: string; type: string; sqft: number | null; beds: number | null; baths: number | null; yearBuilt: number; lat: number; lng: number }

function property(z: ZipInfo, zi: number, k: number): Property {
  const r = rng(hash32(zi, k));
  const type = weighted(r, TYPES);
  const number = Math.floor(Math.exp(r() * Math.log(19999))) + 1;
  const street = `${pick(r, STREETS)} ${weighted(r, SUFFIXES)}`;
  const unit = type === 'condo' ? ` UNIT ${1 + Math.floor(r() * 40)}${pick(r, ['', 'A', 'B'])}` : '';
  const sqftRaw = type === 'land' ? null : Math.max(350, Math.min(12000, lognormal(r, type === 'condo' ? 1050 : type === 'multi' ? 2600 : type === 'commercial' ? 4200 : 1900, 0.42)));
  const sqft = sqftRaw == null ? null : round(sqftRaw);
  const beds = sqft == null || type === 'commercial' ? null : Math.max(1, Math.min(8, Math.round(sqft / 600 + normal(r) * 0.6)));
  const baths = beds == null ? null : Math.max(1, Math.round((beds * 0.6 + normal(r) * 0.4) * 4) / 4);
  const yearBuilt = Math.max(1880, Math.min(2024, Math.round(1968 + normal(r) * 28)));
  return {
    parcelId: `${z.zip}-${String(k).padStart(5, '0')}`, address: `${number} ${street}${unit}`, type, sqft, beds, baths, yearBuilt,
    lat: round(z.lat + (r() - 0.5) * 0.03, 6), lng: round(z.lng + (r() - 0.5) * 0.03, 6),
  };
}

function saleDate(r: () => number): number {
  for (;;) { // rejection sampling on the month weights
    const t = END - Math.floor(r() * SPAN_DAYS) * DAY;
    if (r() * 1.15 < MONTH_WEIGHT[new Date(t).getUTCMonth()]!) return t;
  }
}
const person = (r: () => number): string => `${pick(r, LAST)} ${pick(r, FIRST)}`;
const entity = (r: () => number): string => `${pick(r, ENTITY_WORDS)} ${pick(r, ENTITY_SUFFIXES)}`;

export interface GenerateOptions { rows: number; out: string; seed: number; data: string; parcels?: number; permits?: number; distress?: number; badRate?: number; log?: (m: string) => void }
export interface GenerateResult { files: Record<string, string>; counts: Record<string, number> }

export async function generate(o: GenerateOptions): Promise<GenerateResult> {
  const zips = await loadZips(o.data);
  const r = rng(o.seed);
  const bad = o.badRate ?? 0;
  const dir = path.join(o.out, 'canonical');
  fs.mkdirSync(dir, { recursive: true });
  // cumulative weights for the weighted zip pick (after the first pass that covers every zip once)
  const cum = new Float64Array(zips.length);
  let acc = 0;
  zips.forEach((z, i) => { acc += z.weight; cum[i] = acc; });
  const zipIndex = (i: number): number => {
    if (i < zips.length && o.rows >= zips.length) return i;
    const x = r() * acc;
    let lo = 0, hi = zips.length - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (cum[mid]! < x) lo = mid + 1; else hi = mid; }
    return lo;
  };
  // parcels per zip: about 2x its expected sales, so some parcels sell twice (repeat sales) and most once
  const poolSize = (zi: number): number => Math.max(3, Math.round((2 * o.rows * zips[zi]!.weight) / acc));
  const files = { sales: path.join(dir, 'sales.csv'), parcels: path.join(dir, 'parcels.csv'), permits: path.join(dir, 'permits.csv'), distress: path.join(dir, 'distress.csv') };
  const counts = { sales: 0, parcels: 0, permits: 0, distress: 0 };

  // ---- sales
  const sales = new CsvOut(files.sales, ['address', 'city', 'state', 'zip', 'sale_date', 'sale_price', 'property_type', 'beds', 'baths', 'sqft',
    'year_built', 'condition', 'lat', 'lng', 'parcel_id', 'buyer_name', 'seller_name', 'list_price', 'list_date']);
  const saleRow = async (z: ZipInfo, p: Property, date: number, price: number, buyer: string, seller: string, listed: boolean): Promise<void> => {
    let dateText = iso(date), priceText = String(round(price, -2)), type = p.type, zip = z.zip;
    if (bad > 0 && r() < bad) {
      const which = Math.floor(r() * 4);
      if (which === 0) dateText = `${dateText.slice(5, 7)}/${dateText.slice(8)}/${dateText.slice(0, 4)}`;
      else if (which === 1) priceText = 'n/a';
      else if (which === 2) type = 'castle';
      else zip = 'ZIP' + zip.slice(3);
    }
    const dom = Math.max(1, Math.round(lognormal(r, 24, 0.8)));
    const ratio = 0.99 + normal(r) * 0.03;
    await sales.row([p.address, z.city, z.state, zip, dateText, priceText, type, p.beds, p.baths, p.sqft, p.yearBuilt,
      weighted(r, CONDITIONS), p.lat, p.lng, p.parcelId, buyer, seller,
      listed ? round(price / ratio, -2) : null, listed ? iso(date - dom * DAY) : null]);
    counts.sales++;
  };
  const marketPrice = (z: ZipInfo, p: Property): number => {
    const area = p.sqft ?? lognormal(r, 9000, 0.6) / 8; // land: priced per (lot sqft / 8) at the zip's rate
    return Math.max(15000, area * z.ppsf * TYPE_PPSF[p.type]! * lognormal(r, 1, 0.25));
  };
  for (let i = 0; counts.sales < o.rows; i++) {
    const zi = zipIndex(i);
    const z = zips[zi]!;
    const p = property(z, zi, Math.floor(r() * poolSize(zi)));
    const date = saleDate(r);
    if (r() < 0.03 && counts.sales + 2 <= o.rows && date < END - 120 * DAY) {
      // an investor flip: bought ~25% under market by an entity, resold 60-330 days later to a person
      const resale = Math.min(END, date + (60 + Math.floor(r() * 270)) * DAY);
      const price = marketPrice(z, p);
      const investor = entity(r);
      await saleRow(z, p, date, price * 0.75, investor, person(r), false);
      await saleRow(z, p, resale, price * (1 + r() * 0.1), person(r), investor, true);
      continue;
    }
    await saleRow(z, p, date, marketPrice(z, p), r() < 0.14 ? entity(r) : person(r), r() < 0.1 ? entity(r) : person(r), r() < 0.7);
  }
  await sales.close();
  o.log?.(`sales: ${counts.sales}`);

  // ---- parcels (the assessor roll)
  const parcels = new CsvOut(files.parcels, ['address', 'city', 'state', 'zip', 'property_type', 'beds', 'baths', 'sqft', 'year_built', 'lat', 'lng', 'parcel_id', 'owner_name']);
  const nParcels = o.parcels ?? Math.floor(o.rows / 2);
  for (let i = 0; i < nParcels; i++) {
    const zi = zipIndex(i);
    const z = zips[zi]!;
    const p = property(z, zi, Math.floor(r() * poolSize(zi)));
    await parcels.row([p.address, z.city, z.state, z.zip, p.type, p.beds, p.baths, p.sqft, p.yearBuilt, p.lat, p.lng, p.parcelId, r() < 0.14 ? entity(r) : person(r)]);
    counts.parcels++;
  }
  await parcels.close();

  // ---- permits
  const permits = new CsvOut(files.permits, ['address', 'zip', 'issue_date', 'permit_type', 'valuation', 'lat', 'lng', 'permit_id']);
  const nPermits = o.permits ?? Math.floor(o.rows / 5);
  for (let i = 0; i < nPermits; i++) {
    const zi = zipIndex(i);
    const z = zips[zi]!;
    const p = property(z, zi, Math.floor(r() * poolSize(zi)));
    const t = PERMIT_TYPES[(() => { let x = r() * 100; for (let k = 0; k < PERMIT_TYPES.length; k++) { if ((x -= PERMIT_TYPES[k]![1]) < 0) return k; } return 0; })()]!;
    await permits.row([p.address, z.zip, iso(saleDate(r)), t[0], r() < 0.12 ? null : round(lognormal(r, t[2], 0.9), -1), p.lat, p.lng, `SP${o.seed}-${i + 1}`]);
    counts.permits++;
  }
  await permits.close();

  // ---- distress
  const distress = new CsvOut(files.distress, ['address', 'city', 'state', 'zip', 'kind', 'filing_date', 'parcel_id', 'amount']);
  const nDistress = o.distress ?? Math.floor(o.rows / 50);
  for (let i = 0; i < nDistress; i++) {
    const zi = zipIndex(i);
    const z = zips[zi]!;
    const p = property(z, zi, Math.floor(r() * poolSize(zi)));
    const kind = weighted(r, DISTRESS_KINDS);
    const amount = kind === 'pre_foreclosure' ? lognormal(r, 140000, 0.6) : lognormal(r, 6000, 0.9);
    await distress.row([p.address, z.city, z.state, z.zip, kind, iso(saleDate(r)), p.parcelId, round(amount, 2)]);
    counts.distress++;
  }
  await distress.close();
  return { files, counts };
}

// ---------------------------------------------------------------- command line

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '100000' }, out: { type: 'string' }, seed: { type: 'string', default: '1' },
      data: { type: 'string' }, parcels: { type: 'string' }, permits: { type: 'string' }, distress: { type: 'string' },
      'bad-rate': { type: 'string', default: '0' },
    },
  });
  if (!values.out) throw new Error('--out DIR is required (the files go to DIR/canonical/)');
  const rows = Number(values.rows);
  if (!Number.isInteger(rows) || rows < 1) throw new Error('--rows must be a positive integer');
  const data = path.resolve(values.data ?? process.env['REII_SOURCES'] ?? path.join(import.meta.dirname, '..', '..', 'shared', 'data'));
  const num = (v: string | undefined): number | undefined => (v == null ? undefined : Number(v));
  const started = performance.now();
  const result = await generate({
    rows, out: path.resolve(values.out), seed: Number(values.seed), data,
    parcels: num(values.parcels), permits: num(values.permits), distress: num(values.distress), badRate: Number(values['bad-rate']),
    log: (m) => process.stderr.write(m + '\n'),
  });
  process.stdout.write(JSON.stringify({ ...result, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) }, null, 2) + '\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((err: unknown) => { process.stderr.write(`generate-synthetic: ${(err as Error).message}\n`); process.exit(1); });
}
