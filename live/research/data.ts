// What the research module reads: the files of <build>/live/research/ (live/research/build.ts), the source catalog of
// <build>/manifest.json (which sources are samples or partial extracts) and, at request time, the pre-rendered shards
// of the same build through the build's ShardReader (warehouse/live.ts: the server's shard store and its cache), at the
// paths warehouse/layout.ts shardPath() gives. Every shard family may be absent: readers return null, never throw.
import type { PermitArea } from './permit-areas-build.ts';
import fs from 'node:fs';
import path from 'node:path';
import { shardPath, type FamilyName } from '../../warehouse/layout.ts';
import { fileShards, type ShardReader } from '../../warehouse/live.ts';
import { RecentCache } from '../../warehouse/recent.ts';
import { Bm25, type Bm25Data } from './text.ts';
import { loadResolver } from '../places/endpoint.ts';
import { cityTypoIndex } from '../places/question.ts';
import type { PlaceResolver } from '../places/resolver.ts';
import type { Hood } from './hoods.ts';
import { marketKey, sourceTitles, type MarketWindows } from './market-window.ts';
import { marketTowns, plainTownNames } from './market-towns.ts';
import { filingIndex, loadFilingPlaces, type FilingPlace } from './filing-places.ts';
import { sourceSpans, type SourceSpan } from './coverage.ts';
import type { FormerCounty } from '../places/former-counties.ts';
import { RedfinIndex } from './redfin-index.ts';
import { NO_UNADDRESSED, unaddressedOfFile, type UnaddressedOf } from './unaddressed.ts';
import type { MetroIndex } from './metro-build.ts';

export const RESEARCH_FORMAT = 1;

/** One regulation record as the index stores it (the spec's sixteen fields, shorter names). */
export interface RegulationDoc {
  id: string;
  level: string; // state | county | city | zip
  state: string;
  county_fips: string | null;
  city: string | null;
  category: string;
  subcategory: string;
  title: string;
  summary: string;
  data: Record<string, unknown>; // structured_data
  citation: string | null;
  url: string | null;
  effective_date: string | null;
  status: string; // active | pending
  verified_at: string | null;
  last_reviewed_at: string | null;
  uncertain: string[]; // structured_data.uncertain_fields
}

export interface StateLegalRow {
  state_code: string;
  state_name: string;
  landlord_friendliness_score: number | null;
  landlord_friendliness_label: string | null;
  foreclosure_type: string | null;
  lien_or_deed: string | null;
  interest_rate_pct: number | null;
  redemption_period_months: number | null;
  rent_control_preemption: string | null;
  statewide_rent_control: boolean | null;
  last_reviewed_at: string | null;
}

export interface PlacesData {
  states: [code: string, name: string][];
  // zips space-separated; incorporated: cities.is_incorporated (builds since county scope; older ones: unknown)
  cities: [name: string, state: string, population: number, zips: string, county_fips: string, incorporated?: boolean][];
  zips: [zip: string, city: string, state: string, county_fips?: string][]; // county: builds since the borough areas
  counties?: [fips: string, name: string, state: string, population: number][]; // builds since county areas
  /** the municipalities of the foreclosure and lien filings (filing-places.ts): name, state, distressed properties
   *  over 12 months; builds since the research build carries them (none before) */
  filings?: [name: string, state: string, pipeline12: number][];
  /** the neighbourhoods the sales sources name (hoods.ts): name asked, state, city, city part, zips (space-separated),
   *  sales, the source's names ('|'-separated); builds since int_market_neighborhoods (none before) */
  hoods?: [key: string, state: string, city: string, part: string, zips: string, sales: number, names: string][];
  /** Connecticut's former counties and their towns (live/places/former-counties.ts), and the towns in none of them;
   *  builds since former counties (none before) */
  former_counties?: FormerCounty[];
  unplaced_towns?: string[];
  /** Chicago's community areas and their permits over 12 months (permit-areas-build.ts); builds since (none before) */
  permit_areas?: PermitArea[];
}

export interface ResearchMeta {
  format: number;
  build_id: string;
  counts: Record<string, number>;
}

/** A source the build's catalog marks as a sample or partial extract (partial.ts); caveatFiles: its caveat's files (`<id>/<key>`), absent: all. */
export interface PartialSource { id: string; name: string; kind: 'sample' | 'partial'; rows: number; caveat?: string; caveatFiles?: string[] }

/** The samples and partial extracts among a build's sources: its manifest's sources[] (pipelines/manifest.ts, from the
 *  source registry) whose title ends "(sample)" or "(partial)", with the rows their files held. */
export function partialSources(manifest: unknown): Map<string, PartialSource> {
  const out = new Map<string, PartialSource>();
  const sources = (manifest as { sources?: unknown } | null)?.sources;
  for (const s of Array.isArray(sources) ? sources as { id?: unknown; title?: unknown; files?: { rows?: unknown }[]; caveat?: unknown; caveat_files?: unknown }[] : []) {
    const m = typeof s.title === 'string' ? /^(.*\S)\s*\((sample|partial)\)\s*$/i.exec(s.title) : null;
    if (!m || typeof s.id !== 'string') continue;
    const rows = (s.files ?? []).reduce((n, f) => n + (typeof f.rows === 'number' ? f.rows : 0), 0), scope = Array.isArray(s.caveat_files) ? s.caveat_files.filter((k): k is string => typeof k === 'string').map((k) => `${s.id as string}/${k}`) : null;
    out.set(s.id, { id: s.id, name: m[1]!, kind: m[2]!.toLowerCase() as PartialSource['kind'], rows, ...(typeof s.caveat === 'string' ? { caveat: s.caveat } : {}), ...(scope ? { caveatFiles: scope } : {}) });
  }
  return out;
}

/** The text BM25 indexes for a record: title twice, summary, category words, structured keys and string values, citation, city. */
export function regulationText(d: RegulationDoc): string {
  const parts = [d.title, d.title, d.summary, d.category.replaceAll('_', ' '), d.subcategory.replaceAll('_', ' ')];
  for (const [k, v] of Object.entries(d.data)) {
    if (k === 'uncertain_fields') continue;
    parts.push(k.replaceAll('_', ' '));
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) parts.push(v.filter((x) => typeof x === 'string').join(' ').replaceAll('_', ' '));
  }
  if (d.citation) parts.push(d.citation);
  if (d.city) parts.push(d.city);
  return parts.join(' \n ');
}

/** The keys of one shard, as warehouse/layout.ts shardPath() takes them. */
export type ShardKeys = Record<string, string | null>;

/** A city of the gazetteer. */
export interface City { name: string; state: string; population: number; zips: string[]; county_fips: string | null; incorporated?: boolean }

export class ResearchData {
  readonly bm25: Bm25;
  readonly byState = new Map<string, RegulationDoc[]>();
  readonly stateLegal = new Map<string, StateLegalRow>();
  readonly stateNames = new Map<string, string>();
  /** lowercased city name -> cities of that name, most populous first */
  readonly citiesByName = new Map<string, City[]>();
  /** Chicago's community areas with their permits (permit-areas.ts) */
  permitAreas: PermitArea[] = [];
  /** the Redfin zip snapshots (redfin.json), read at the first days-on-market question that needs one */
  redfin: RedfinIndex = RedfinIndex.none;
  readonly zips = new Map<string, { city: string; state: string; county_fips?: string }>();
  /** lowercased county name ("king county") -> counties of that name, most populous first */
  readonly countiesByName = new Map<string, { fips: string; name: string; state: string; population: number }[]>();
  /** the municipalities of the foreclosure and lien filings (filing-places.ts), most filings first, and by key those
   *  no Census place of their state is named */
  filingPlaces: readonly FilingPlace[] = [];
  /** the month ranges the sales sources' files cover, by source id (coverage.ts, from the manifest's vintages); `titles` every source's title */
  spans: ReadonlyMap<string, SourceSpan> = new Map(); titles: ReadonlyMap<string, string> = new Map();
  filingByKey: ReadonlyMap<string, readonly FilingPlace[]> = new Map();
  /** the neighbourhoods the sales sources name (hoods.ts), by the name asked (lower case) */
  readonly hoodsByName = new Map<string, Hood[]>();
  /** "fairfield county" -> Connecticut's former county of that name and its towns (county-place.ts) */
  readonly formerCounties = new Map<string, FormerCounty>();
  unplacedTowns: readonly string[] = [];
  unaddressed: UnaddressedOf = NO_UNADDRESSED; // a permit source's PO-box and unique zips (sales-cover.json, unaddressed.ts)
  metros: MetroIndex | null = null; // metro.json (metro-build.ts, read by metro.ts); null in a build written before it
  /** longest city name in words (bounds the n-gram scan) */
  readonly maxCityWords: number;
  /** family folder -> whether the build has it (files of a build never change) */
  private readonly families = new Map<string, Promise<boolean>>();
  /** shard path -> its parsed JSON (null: absent or not JSON); see shard() */
  private readonly parsed = new RecentCache<Promise<unknown>>(PARSED_SHARDS);

  constructor(
    readonly docs: RegulationDoc[],
    bm25: Bm25Data,
    stateLegal: StateLegalRow[],
    places: PlacesData,
    private readonly shards: ShardReader,
    readonly meta: ResearchMeta | null,
    private readonly resolver: PlaceResolver | null = null,
    /** market.json (market-window.ts): null in a build written before it */
    readonly market: MarketWindows | null = null,
    /** the build's samples and partial extracts, by source id (partialSources: its manifest) */
    readonly partial: ReadonlyMap<string, PartialSource> = new Map(),
  ) {
    this.bm25 = new Bm25(bm25);
    for (const d of docs) {
      let list = this.byState.get(d.state);
      if (!list) { list = []; this.byState.set(d.state, list); }
      list.push(d);
    }
    for (const r of stateLegal) this.stateLegal.set(r.state_code, r);
    for (const [c, n] of places.states) this.stateNames.set(c, n);
    let maxWords = 1;
    for (const [name, state, population, zips, county, incorporated] of places.cities) {
      const key = name.toLowerCase();
      let list = this.citiesByName.get(key);
      if (!list) { list = []; this.citiesByName.set(key, list); }
      list.push({ name, state, population, zips: zips ? zips.split(' ') : [], county_fips: county || null, ...(incorporated !== undefined ? { incorporated } : {}) });
      maxWords = Math.max(maxWords, key.split(/\s+/).length);
    }
    // the market's towns that are no Census place (Fairfield, CT): cities too (market-towns.ts)
    for (const c of marketTowns(market, this.citiesByName)) {
      const key = c.name.toLowerCase();
      this.citiesByName.set(key, [...(this.citiesByName.get(key) ?? []), c]);
      maxWords = Math.max(maxWords, key.split(/\s+/).length);
    }
    plainTownNames(this.citiesByName);
    for (const list of this.citiesByName.values()) list.sort((a, b) => b.population - a.population);
    this.maxCityWords = Math.min(maxWords, 5);
    cityTypoIndex(this.citiesByName); // misspelled city names (live/places/question.ts): the large cities keyed now, a state's at its first question
    for (const [key, state, city, part, zips, sales, names] of places.hoods ?? []) {
      this.hoodsByName.set(key, [...(this.hoodsByName.get(key) ?? []), { key, state, city, part, zips: zips ? zips.split(' ') : [], sales, names: names.split('|') }]);
    }
    for (const [zip, city, state, county_fips] of places.zips) this.zips.set(zip, county_fips ? { city, state, county_fips } : { city, state });
    for (const c of places.former_counties ?? []) this.formerCounties.set(`${c[1].toLowerCase()} county`, c);
    this.unplacedTowns = places.unplaced_towns ?? [];
    for (const [fips, name, state, population] of places.counties ?? []) {
      const key = name.toLowerCase();
      this.countiesByName.set(key, [...(this.countiesByName.get(key) ?? []), { fips, name, state, population }].sort((a, b) => b.population - a.population));
    }
  }

  /** The index of a build, null when it has none; shards: the build's ShardReader (default: its shards folder on disk). */
  static fromBuild(buildDir: string, shards: ShardReader = fileShards(path.join(buildDir, 'shards'))): ResearchData | null {
    const dir = path.join(buildDir, 'live', 'research');
    if (!fs.existsSync(path.join(dir, 'meta.json'))) return null;
    const read = <T,>(name: string): T => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as T;
    const meta = read<ResearchMeta>('meta.json');
    if (meta.format !== RESEARCH_FORMAT) return null;
    const market = fs.existsSync(path.join(dir, 'market.json')) ? read<MarketWindows>('market.json') : null;
    const manifest = path.join(buildDir, 'manifest.json');
    const manifestJson: unknown = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, 'utf8')) : null;
    const partial = partialSources(manifestJson);
    const places = read<PlacesData>('places.json');
    const data = new ResearchData(read('regulations.json'), read('bm25.json'), read('state-legal.json'), places, shards, meta, loadResolver(buildDir), market, partial);
    data.filingPlaces = loadFilingPlaces(places.filings ?? [], (name, state) => data.cityInState(name, state)?.county_fips ?? null);
    data.filingByKey = filingIndex(data.filingPlaces);
    [data.spans, data.titles] = [sourceSpans(manifestJson), sourceTitles(manifestJson)];
    data.permitAreas = places.permit_areas ?? [];
    [data.redfin, data.unaddressed] = [RedfinIndex.fromFile(path.join(dir, 'redfin.json')), unaddressedOfFile(path.join(dir, 'sales-cover.json'))];
    if (fs.existsSync(path.join(dir, 'metro.json'))) data.metros = read<MetroIndex>('metro.json');
    return data;
  }

  /** The name used in sentences ("the District of Columbia"). */
  stateName(code: string): string {
    if (code === 'DC') return 'the District of Columbia';
    return this.stateNames.get(code) ?? code;
  }

  /** The canonical name of a city typed in a state, by the build's place resolver (null without one, or unknown). */
  canonicalCity(state: string, typed: string): string | null {
    const r = this.resolver?.resolveCity(state, typed);
    return r?.ok ? r.city : null;
  }

  /** Whether the build has arm's-length sales of a city, or of `zip` when given (a market window of any type: market-window.ts). */
  hasSales(state: string, city: string, zip?: string): boolean {
    const m = this.market?.windows;
    return !!m && ['sfr', 'condo', 'multi', 'land', 'commercial'].some((t) => `${marketKey({ state, city, zip })}|${t}` in m);
  }

  cityInState(name: string, state: string): City | null {
    return this.citiesByName.get(name.toLowerCase())?.find((c) => c.state === state) ?? null;
  }

  /** Zips of a city: the city list's zip_codes, else the zips whose primary city it is. */
  zipsOfCity(city: string, state: string): string[] {
    const c = this.cityInState(city, state);
    if (c && c.zips.length) return c.zips;
    const out: string[] = [];
    const lc = city.toLowerCase();
    for (const [zip, z] of this.zips) if (z.state === state && z.city.toLowerCase() === lc) out.push(zip);
    return out;
  }

  /** Zips of a county (a borough's area), in zip order. */
  zipsOfCounty(fips: string): string[] {
    const out: string[] = [];
    for (const [zip, z] of this.zips) if (z.county_fips === fips) out.push(zip);
    return out.sort();
  }

  /** Whether the build has any shard of a family (one still being built elsewhere is absent): its folder, the first
   *  two segments of its paths (market/comps/...), exists; keys: those of a shard of it, for shardPath(). */
  hasFamily(family: FamilyName, keys: ShardKeys): Promise<boolean> {
    const p = shardPath(family, keys);
    if (!p.ok) return Promise.resolve(false);
    const folder = p.path.split('/').slice(0, 2).join('/');
    let has = this.families.get(folder);
    if (!has) { has = this.shards.exists(folder); this.families.set(folder, has); }
    return has;
  }

  /** A parsed shard, or null when the build has none for these keys (or it is not JSON). Parsed shards (misses
   *  too) are kept, up to PARSED_SHARDS of them, oldest out first: a build's files never change, and an answer reads
   *  tens of shards (every zip of a city), so parsing them again per answer would double its time. Read-only objects. */
  shard<T>(family: FamilyName, keys: ShardKeys): Promise<T | null> {
    const p = shardPath(family, keys);
    if (!p.ok) return Promise.resolve(null);
    return this.parsed.get(p.path, () => this.shards.read(p.path).then((body) => {
      if (!body) return null;
      try {
        return JSON.parse(body.toString('utf8')) as unknown;
      } catch {
        return null;
      }
    })) as Promise<T | null>;
  }
}

/** How many parsed shards research keeps per build. */
const PARSED_SHARDS = 5000;
