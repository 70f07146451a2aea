// FEMA's National Risk Index asked of a place ("NRI risk score Baltimore"): the county composite RISK_SCORE of the
// place's county (or counties), as the location module keeps it per zip (<build>/live/location/zips.json, its NRI
// county: warehouse/docs/location.md "NRI county of a zip"), loaded on the first such question; never the legal risk
// score, whose words it shares (review r16b). Without the file or a place, kinds.ts says it is not given apart.
import fs from 'node:fs';
import path from 'node:path';
import type { Target } from './place-words.ts';
import { findCounties } from './county-place.ts';
import type { Gazetteer } from './places.ts';

type ZipRow = [zip: string, lat: number, lng: number, radius: number, city: string, state: string, nri: number | null, county: string | null];

/** The zips' NRI county scores, from the build's location index. */
export class NriScores {
  private rows: Map<string, ZipRow> | null | undefined;
  constructor(private readonly file: string) {}
  static ofBuild(buildDir: string): NriScores { return new NriScores(path.join(buildDir, 'live', 'location', 'zips.json')); }

  private load(): Map<string, ZipRow> | null {
    if (this.rows === undefined) {
      try {
        const z = fs.existsSync(this.file) ? (JSON.parse(fs.readFileSync(this.file, 'utf8')) as { zips: ZipRow[] }).zips : null;
        this.rows = z ? new Map(z.map((r) => [r[0], r])) : null;
      } catch { this.rows = null; }
    }
    return this.rows;
  }

  /** county FIPS -> its NRI score, over the zips given (a zip with no NRI county left out). */
  counties(zips: readonly string[]): Map<string, number> {
    const out = new Map<string, number>();
    const rows = this.load();
    if (!rows) return out;
    for (const z of zips) {
      const r = rows.get(z);
      if (r && r[6] !== null && r[7]) out.set(r[7], r[6]);
    }
    return out;
  }

  /** A county's score, by any zip whose NRI county it is. */
  county(fips: string): number | null {
    for (const r of this.load()?.values() ?? []) if (r[7] === fips && r[6] !== null) return r[6];
    return null;
  }
}

/** What the answer needs of the research data: a city's zips and the county names. */
export interface NriPlaces { zipsOfCity(city: string, state: string): string[]; countiesByName: ReadonlyMap<string, readonly { fips: string; name: string; state: string }[]> }

/** The answer to an NRI question of a place, or null when the place has no NRI county score in the build. */
export function nriAnswer(data: NriPlaces, t: Target, nri: NriScores): { answer: string; citation: string } | null {
  const byFips = new Map<string, string>();
  for (const list of data.countiesByName.values()) for (const c of list) byFips.set(c.fips, `${c.name}, ${c.state}`);
  let scores: Map<string, number>;
  if (t.zip) scores = nri.counties([t.zip]);
  else if (t.area?.county_fips) { const s = nri.county(t.area.county_fips); scores = new Map(s === null ? [] : [[t.area.county_fips, s]]); }
  else if (t.city) scores = nri.counties(data.zipsOfCity(t.city, t.state));
  else return null;
  if (!scores.size) return null;
  const where = t.zip ? `zip ${t.zip}${t.city ? ` (${t.city}, ${t.state})` : ''}` : t.area ? `${t.area.name}${t.city ? ` (${t.city}, ${t.state})` : `, ${t.state}`}` : `${t.city}, ${t.state}`;
  const list = [...scores].sort((a, b) => b[1] - a[1]).map(([f, s]) => `${byFips.get(f) ?? `county ${f}`} (${f}) ${s.toFixed(1)}`);
  const lead = scores.size === 1 ? `the county composite risk score of its county, ${list[0]}` : `the county composite risk scores of the ${scores.size} counties its zips lie in: ${list.join('; ')}`;
  return {
    answer: `FEMA's National Risk Index (NRI) for ${where}: ${lead}, out of 100 (all natural hazards, relative to every US county); it is kept per county, not per city or zip, and is one part (a quarter) of the environmental risk score we give per zip.`,
    citation: 'FEMA National Risk Index, county table (RISK_SCORE), as the location index keeps it per zip',
  };
}

/** The places an NRI question asks: the zips, cities and counties read ("NRI score 98103 vs 60614": each), else the
 *  counties it names when the place read is only their state ("the National Risk Index risk score of Middlesex County,
 *  MA": before, Massachusetts, no county read, as a market topic's county is read in intent.ts) or none was read. */
export function nriTargets(query: string, targets: readonly Target[], gaz: Gazetteer): Target[] {
  const placed = targets.filter((t) => t.zip || t.city || t.area);
  return placed.length ? placed : findCounties(query, gaz, targets.map((t) => t.state));
}

/** The NRI asked beside another topic ("the national risk index and flood zone for 21224"): the gap kinds.ts left
 *  ("... : that part of the question is not answered", starting with `say`) becomes the places' NRI answers, where the
 *  location index has them (h67ask2: before, said not answered of a zip whose county score is kept). */
export function nriBeside(data: NriPlaces & Gazetteer, u: { query: string; targets: Target[]; gaps: string[] }, nri: NriScores, say: string): void {
  const at = u.gaps.findIndex((g) => g.startsWith(say));
  if (at < 0) return;
  const found = nriTargets(u.query, u.targets, data).map((t) => nriAnswer(data, t, nri)).filter((a) => a !== null);
  if (found.length) u.gaps[at] = found.map((a) => a.answer.replace(/\.$/, '')).join('. ');
}
