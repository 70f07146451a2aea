// `tsx scripts/generate-addresses.ts [--count 5000000] [--seed 1] [--out bench-results/synthetic-addresses-5m.tsv]`:
// a deterministic synthetic address set for the autocomplete benchmark (scripts/bench/autocomplete.ts), in the
// index builder's input shape, one TSV line per address:
//   address  unit  city  state  zip  county  lat  lng  beds  baths  sqft      (empty = null)
// Geography is real: the ZIP codes of the 50 states + DC from ../shared/data/us-zip-reference (city, county,
// centroid; a built-in grid of made-up towns when that file is absent), metro ZIPs weighted 3x. Each ZIP gets its
// own deterministic set of 12-70 streets (common US street names and numbered streets, USPS suffixes, 15% with a
// directional), house numbers log-uniform 1-19,999, 8% with a unit, property facts known for 75%, points jittered
// around the ZIP centroid. Same count and seed -> byte-identical file.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { rng } from './rng.ts';

export { rng };

const NAMES = [
  'MAIN', 'OAK', 'PINE', 'MAPLE', 'CEDAR', 'ELM', 'WASHINGTON', 'LAKE', 'HILL', 'PARK', 'WALNUT', 'CHESTNUT', 'SPRUCE',
  'BIRCH', 'WILLOW', 'CHERRY', 'HICKORY', 'SYCAMORE', 'MAGNOLIA', 'DOGWOOD', 'JEFFERSON', 'LINCOLN', 'MADISON', 'MONROE',
  'JACKSON', 'ADAMS', 'FRANKLIN', 'HAMILTON', 'GRANT', 'WILSON', 'CLEVELAND', 'HARRISON', 'CHURCH', 'SCHOOL', 'MILL',
  'SPRING', 'RIVER', 'BROAD', 'HIGH', 'CENTER', 'UNION', 'MARKET', 'WATER', 'BRIDGE', 'FOREST', 'MEADOW', 'VALLEY',
  'SUNSET', 'HIGHLAND', 'RIDGE', 'GROVE', 'ORCHARD', 'PROSPECT', 'PLEASANT', 'FAIRVIEW', 'LAUREL', 'HOLLY', 'IVY',
  'ASPEN', 'POPLAR', 'BEECH', 'COTTONWOOD', 'JUNIPER', 'REDWOOD', 'SEQUOIA', 'MAPLEWOOD', 'OAKWOOD', 'PINEHURST',
  'LAKEVIEW', 'HILLCREST', 'RIVERSIDE', 'WOODLAND', 'GREENWOOD', 'BROOKSIDE', 'CRESTVIEW', 'EASTWOOD', 'WESTWOOD',
  'NORTHGATE', 'SOUTHGATE', 'KING', 'QUEEN', 'PRINCE', 'DUKE', 'CHAPEL', 'ACADEMY', 'COLLEGE', 'UNIVERSITY',
  'STATION', 'DEPOT', 'RAILROAD', 'CANAL', 'HARBOR', 'BAY', 'OCEAN', 'BEACH', 'SHORE', 'DUNE', 'CANYON', 'MESA',
  'SIERRA', 'VISTA', 'MONTE', 'SANTA FE', 'EL CAMINO', 'COLUMBIA', 'VIRGINIA', 'CAROLINA', 'GEORGIA', 'OHIO',
  'INDIANA', 'MICHIGAN', 'DELAWARE', 'VERMONT', 'MARYLAND', 'KENTUCKY', 'TENNESSEE', 'ARLINGTON', 'BURLINGTON',
  'CAMBRIDGE', 'OXFORD', 'WINDSOR', 'DEVON', 'KENT', 'ESSEX', 'SUSSEX', 'YORK', 'LANCASTER', 'CHESTER', 'DOVER',
  'SALEM', 'BRISTOL', 'CONCORD', 'LEXINGTON', 'HOLLYWOOD', 'BROADWAY', 'PEACHTREE', 'MAGNOLIA GROVE', 'SUMMIT',
  'PLATEAU', 'PRAIRIE', 'FIELD', 'FARM', 'BARN', 'STABLE', 'COUNTRY CLUB', 'GOLF', 'TENNIS', 'PARKSIDE', 'LAKESHORE',
  'BLUEBIRD', 'CARDINAL', 'ROBIN', 'SPARROW', 'EAGLE', 'HAWK', 'FALCON', 'OSPREY', 'HERON', 'QUAIL', 'DEER', 'FOX',
  'BEAR', 'ELK', 'BUFFALO', 'MUSTANG', 'COLT', 'STALLION', 'ROSE', 'TULIP', 'DAISY', 'LILAC', 'JASMINE', 'VIOLET',
  'ORCHID', 'IRIS', 'LAVENDER', 'SAGE', 'ROSEMARY', 'THYME', 'JOHNSON', 'SMITH', 'WILLIAMS', 'BROWN', 'JONES', 'MILLER',
  'DAVIS', 'GARCIA', 'MARTINEZ', 'ANDERSON', 'TAYLOR', 'THOMAS', 'MOORE', 'MARTIN', 'THOMPSON', 'WHITE', 'HARRIS',
  'CLARK', 'LEWIS', 'ROBINSON', 'WALKER', 'YOUNG', 'ALLEN', 'WRIGHT', 'SCOTT', 'GREEN', 'BAKER', 'NELSON', 'CARTER',
  'MITCHELL', 'ROBERTS', 'TURNER', 'PHILLIPS', 'CAMPBELL', 'PARKER', 'EVANS', 'EDWARDS', 'COLLINS', 'STEWART',
  'MORRIS', 'MURPHY', 'COOK', 'ROGERS', 'MORGAN', 'COOPER', 'PETERSON', 'REED', 'BAILEY', 'KELLY', 'HOWARD', 'COX',
  'WARD', 'RICHARDSON', 'WATSON', 'BROOKS', 'WOOD', 'BENNETT', 'GRAY', 'HUGHES', 'PRICE', 'SANDERS', 'MYERS', 'LONG',
  'ROSS', 'FOSTER', 'MARTIN LUTHER KING JR', 'CESAR CHAVEZ', 'VETERANS', 'MEMORIAL', 'INDEPENDENCE', 'LIBERTY',
  'FREEDOM', 'PATRIOT', 'PIONEER', 'FRONTIER', 'HERITAGE', 'COLONIAL', 'CONSTITUTION', 'PRESIDENTIAL', 'CAPITOL',
];
const SUFFIXES: [string, number][] = [
  ['ST', 28], ['AVE', 18], ['RD', 12], ['DR', 12], ['LN', 7], ['CT', 6], ['BLVD', 3], ['PL', 4], ['WAY', 4],
  ['CIR', 3], ['TER', 2], ['PKWY', 1], ['TRL', 2], ['LOOP', 1], ['HWY', 1],
];
const DIRECTIONS = ['N', 'S', 'E', 'W'];
const STATES = new Set('AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(' '));


function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'TH' : ({ 1: 'ST', 2: 'ND', 3: 'RD' } as Record<number, string>)[n % 10] ?? 'TH';
  return `${n}${s}`;
}

interface Zip { zip: string; state: string; city: string; county: string; lat: number; lng: number; weight: number }

function titleCase(s: string): string {
  return s.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

function loadZips(sources: string): Zip[] {
  const file = path.join(sources, 'us-zip-reference', 'zip_reference.csv.gz');
  if (fs.existsSync(file)) {
    const rows = parse(zlib.gunzipSync(fs.readFileSync(file)), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
    const out: Zip[] = [];
    for (const r of rows) {
      const lat = Number(r['lat']); const lng = Number(r['lng']);
      if (!STATES.has(r['state'] ?? '') || !r['city'] || !r['county'] || !Number.isFinite(lat) || !Number.isFinite(lng) || !/^\d{5}$/.test(r['zip_code'] ?? '')) continue;
      const county = /(County|Parish|Borough|Census Area|Municipality|city)$/.test(r['county']!) ? r['county']! : `${r['county']} County`;
      out.push({ zip: r['zip_code']!, state: r['state']!, city: titleCase(r['city']!), county, lat, lng, weight: r['metro'] ? 3 : 1 });
    }
    if (out.length) return out;
  }
  // fallback: 2,000 made-up towns on a grid
  const rnd = rng(7);
  return Array.from({ length: 2000 }, (_, i) => {
    const state = [...STATES][i % STATES.size]!;
    return { zip: String(10000 + i * 37).padStart(5, '0'), state, city: `${titleCase(NAMES[i % NAMES.length]!)} ${['Springs', 'City', 'Falls', 'Heights', 'Park'][i % 5]}`,
      county: `${titleCase(NAMES[(i * 7) % NAMES.length]!)} County`, lat: 30 + rnd() * 15, lng: -120 + rnd() * 45, weight: 1 };
  });
}

/** The streets of one ZIP: deterministic from the ZIP's index. */
function streetsOf(zi: number): string[] {
  const rnd = rng(1_000_003 * (zi + 1));
  const n = 12 + Math.floor(rnd() * 59);
  const totalW = SUFFIXES.reduce((s, [, w]) => s + w, 0);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = rnd() < 0.18 ? ordinal(1 + Math.floor(rnd() * rnd() * 120)) : NAMES[Math.floor(rnd() * NAMES.length)]!;
    let x = rnd() * totalW; let suffix = 'ST';
    for (const [s, w] of SUFFIXES) { if ((x -= w) < 0) { suffix = s; break; } }
    const dir = rnd() < 0.15 ? `${DIRECTIONS[Math.floor(rnd() * 4)]} ` : '';
    out.push(`${dir}${name} ${suffix}`);
  }
  return out;
}

export interface GenerateOptions { count: number; seed: number; out: string; sources?: string }

/** Writes the TSV; returns the number of lines and the seconds it took. */
export function generateAddresses(opts: GenerateOptions): { rows: number; seconds: number; zips: number } {
  const started = performance.now();
  const sources = opts.sources ?? process.env['REII_SOURCES'] ?? path.resolve(import.meta.dirname, '../../shared/data');
  const zips = loadZips(sources);
  const cum = new Float64Array(zips.length);
  let acc = 0;
  zips.forEach((z, i) => { acc += z.weight; cum[i] = acc; });
  const streetCache = new Map<number, string[]>();
  const rnd = rng(opts.seed);
  fs.mkdirSync(path.dirname(path.resolve(opts.out)), { recursive: true });
  const tmp = `${opts.out}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  let chunk: string[] = [];
  const flush = (): void => { fs.writeSync(fd, chunk.join('')); chunk = []; };
  for (let i = 0; i < opts.count; i++) {
    const x = rnd() * acc;
    let lo = 0; let hi = zips.length - 1;
    while (lo < hi) { const m = (lo + hi) >>> 1; if (cum[m]! <= x) lo = m + 1; else hi = m; }
    const z = zips[lo]!;
    let streets = streetCache.get(lo);
    if (!streets) { streets = streetsOf(lo); if (streetCache.size < 50_000) streetCache.set(lo, streets); }
    const street = streets[Math.floor(rnd() * streets.length)]!;
    const number = Math.floor(Math.exp(rnd() * Math.log(20000)));
    const unit = rnd() < 0.08 ? (rnd() < 0.5 ? `${1 + Math.floor(rnd() * 30)}${'ABCDEF'[Math.floor(rnd() * 6)]}` : String(100 + Math.floor(rnd() * 900))) : '';
    const known = rnd() < 0.75;
    const beds = known ? String(1 + Math.floor(rnd() * 5)) : '';
    const baths = known ? String(1 + Math.floor(rnd() * 7) / 2) : '';
    const sqft = known || rnd() < 0.3 ? String(500 + Math.floor(rnd() * 4500)) : '';
    const lat = (z.lat + (rnd() - 0.5) * 0.04).toFixed(6);
    const lng = (z.lng + (rnd() - 0.5) * 0.05).toFixed(6);
    chunk.push(`${number} ${street}\t${unit}\t${z.city}\t${z.state}\t${z.zip}\t${z.county}\t${lat}\t${lng}\t${beds}\t${baths}\t${sqft}\n`);
    if (chunk.length >= 50_000) flush();
  }
  flush();
  fs.closeSync(fd);
  fs.renameSync(tmp, opts.out);
  return { rows: opts.count, seconds: (performance.now() - started) / 1000, zips: zips.length };
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('generate-addresses.ts')) {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '5000000' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: path.resolve(import.meta.dirname, '..', 'bench-results', 'synthetic-addresses-5m.tsv') },
    },
  });
  const r = generateAddresses({ count: Number(values.count), seed: Number(values.seed), out: values.out! });
  process.stdout.write(`${r.rows} addresses over ${r.zips} zips -> ${values.out} (${r.seconds.toFixed(1)} s)\n`);
}
