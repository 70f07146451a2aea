// The zip universe of the synthetic generator (scripts/generate-synthetic.ts): every ZCTA of the 50 states + DC from
// us-zip-reference (primary city, state, centroid), weighted by its ACS housing units, with a price per sqft from the
// latest Redfin zip snapshot, else Zillow ZHVI / 1,750 sqft, else the state (or national) median.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import readline from 'node:readline';
import { parse } from 'csv-parse/sync';

const STATES = new Set('AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(' '));

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
