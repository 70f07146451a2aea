// Superfund sites asked of a state ("Superfund sites in New Jersey"): the location index's National Priorities List
// sites (<build>/live/location/superfund.json: final and proposed, the sites every zip's count counts; deleted ones are
// not kept there) counted for the state, by status, read on the first such question. Before (review 20), "name a zip or
// a city", though the index holds the state's sites. An EPA site id begins with its state's code (AL3210020027; so in
// every row of the raw npl_sites.csv). Rules: warehouse/docs/research.md "Flood and Superfund".
import fs from 'node:fs';
import path from 'node:path';
import type { Target } from './places.ts';
import { superfundNotLoaded } from '../location/superfund-loaded.ts';

type Site = [epaId: string, name: string, status: string, lat: number, lng: number];

/** The NPL sites of the build's location index and their date, loaded once. */
export class SuperfundSites {
  private sites: { list: Site[]; asOf: string | null; loaded: boolean } | null | undefined;
  constructor(private readonly dir: string) {}
  static ofBuild(buildDir: string): SuperfundSites { return new SuperfundSites(path.join(buildDir, 'live', 'location')); }

  load(): { list: Site[]; asOf: string | null; loaded: boolean } | null {
    if (this.sites === undefined) {
      try {
        const file = path.join(this.dir, 'superfund.json');
        const meta = path.join(this.dir, 'meta.json');
        const list = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { sites: Site[] }).sites : null;
        const m = fs.existsSync(meta) ? (JSON.parse(fs.readFileSync(meta, 'utf8')) as { superfund_as_of?: string; superfund_loaded?: boolean }) : null;
        // loaded false: the build read no EPA file, so its empty list is no count (../location/superfund-loaded.ts)
        this.sites = list ? { list, asOf: m?.superfund_as_of ?? null, loaded: m?.superfund_loaded !== false } : null;
      } catch { this.sites = null; }
    }
    return this.sites;
  }
}

/** The answer to Superfund sites asked of one state alone (no zip, city or county, no flood word), or null. */
export function stateSuperfund(u: { query: string; intents: readonly string[]; targets: readonly Target[] }, stateName: (code: string) => string, sites: SuperfundSites): { answer: string; citation: string } | null {
  const t = u.targets.length === 1 ? u.targets[0]! : null;
  if (!t || t.zip || t.city || t.area || t.hood || !u.intents.includes('location') || !/superfund|\bnpl\b|national priorities/i.test(u.query) || /flood/i.test(u.query)) return null;
  const data = sites.load();
  if (!data) return null;
  const name = stateName(t.state);
  if (!data.loaded) return { answer: `${superfundNotLoaded(name)}.`, citation: 'this build\'s sources: no EPA Superfund file' };
  const of = data.list.filter((s) => s[0].slice(0, 2) === t.state);
  const count = (status: string): number => of.filter((s) => s[2] === status).length;
  const when = data.asOf ? ` (EPA SEMS, as of ${data.asOf})` : ' (EPA SEMS)';
  const answer = `${name} has ${of.length.toLocaleString('en-US')} Superfund sites on EPA's National Priorities List${when}: ${count('final')} final and ${count('proposed')} proposed; sites deleted from the list (no further cleanup needed) are not counted, as in every zip's count. Name a zip or a city of ${name} for the sites within 1 mile of it.`;
  return { answer, citation: `EPA National Priorities List sites of ${name}, final and proposed${when}` };
}
