// Sales from a partial extract of their source (POST /v1/research/query): a market whose arm's-length sales come from
// a source the build's catalog marks as a sample or a partial extract (its manifest's sources[], data.ts
// partialSources: Philadelphia's OPA sample, Connecticut's partial files) says so with every sales figure it quotes -
// counts, medians, prices per sqft, investor shares and zip rankings describe that extract, not every recorded sale.
// The sources of each market are market.json's (market-window-build.ts marketSources); a build written before them says nothing.
// A source's catalog caveat (registry.ts `caveat`: what its extract cannot show of the arm's-length rule) is said with
// it where it applies: a caveat of some of its files only (`caveatFiles`: Connecticut's 2022 extract) of a market whose
// sales of the months answered come from those files (market.json source_files; the trends answer's data_note the same).
import type { PartialSource, ResearchData } from './data.ts';
import { minConf, plural, type Fact, type FigurePeriod } from './facts.ts';
import { marketKey, type Market, type SourceFileSpan } from './market-window.ts';
import { monthIndex } from './period-months.ts';

/** The fact types whose figures are sales figures. */
const SALES_TYPES = new Set(['comps', 'trends', 'sales', 'investor']);

/** The samples and partial extracts among the sources of the markets' sales, each once. */
export function partialOf(data: ResearchData, markets: readonly Market[]): PartialSource[] {
  const ids = new Set(markets.flatMap((m) => data.market?.sources?.[marketKey(m)] ?? []));
  return [...ids].map((id) => data.partial.get(id)).filter((p): p is PartialSource => p !== undefined);
}

/** "a partial extract of their source (Philadelphia OPA property assessments, a sample of 5,336 rows)". */
export const extractWords = (list: readonly PartialSource[]): string =>
  `a partial extract of ${list.length > 1 ? 'their sources' : 'their source'} (${list.map((p) => `${p.name}, ${p.kind === 'sample' ? 'a sample of ' : ''}${plural(p.rows, 'row')}`).join('; ')})`;


/** The sources of `list` whose catalog caveat applies to a market whose sales come from `files`, over the months
 *  `span` ([first, last], YYYY-MM; absent: all its months): a caveat of some files only (caveatFiles) where the market's
 *  sales of those files fall in the span; a market with no file list (a build before it) every caveat, as before. */
export function caveatsApplying(list: readonly PartialSource[], files: readonly SourceFileSpan[] | null | undefined, span?: readonly [string, string]): PartialSource[] {
  const applies = (p: PartialSource): boolean => !p.caveatFiles || !files
    || files.some((f) => p.caveatFiles!.includes(f.file) && (!span || ((f.first ?? '') <= span[1] && (f.last ?? '9999') >= span[0])));
  return list.filter((p) => p.caveat && applies(p));
}

/** "; of Connecticut OPM real estate sales, its 2022 extract ... records no Non Use Code ...": the caveats said. */
export const caveatWords = (list: readonly PartialSource[]): string => list.map((p) => `; of ${p.name}, ${p.caveat}`).join('');

/** The months a fact's figure is of ([first, last] YYYY-MM), from its period; undefined where the fact has none. */
function spanOf(p: FigurePeriod | undefined): [string, string] | undefined {
  if (!p) return undefined;
  const back = p.kind === 'month' ? 0 : p.months;
  const i = monthIndex(p.end) - back;
  return [`${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`, p.end];
}

/** The files of the markets' sales (market.json source_files), null where the build has none (before them). */
function filesOf(data: ResearchData, markets: readonly Market[]): SourceFileSpan[] | null {
  const all = data.market?.source_files;
  return all ? markets.flatMap((m) => all[marketKey(m)] ?? []) : null;
}

/** The markets a fact's figure is of: its zip, else its place (a city, or a county's or borough's zips too). */
function marketsOf(data: ResearchData, f: Fact): Market[] {
  const t = f.target;
  if (!t) return [];
  const zip = f.zip?.zip ?? t.zip;
  if (zip) return [{ zip, state: t.state }];
  const out: Market[] = [];
  if (t.city) out.push({ state: t.state, city: t.city });
  if (t.area) out.push({ state: t.state, city: t.area.name.replace(/^the /, '') }, ...data.zipsOfCounty(t.area.county_fips).map((z) => ({ zip: z, state: t.state })));
  return out;
}

/** Says, on every sales fact of a market whose sales come from a sample or partial extract, that they do (in full on
 *  the first fact of each source, shorter after), and caps its confidence at medium. */
export function markPartial(facts: Fact[], data: ResearchData): void {
  if (data.partial.size === 0 || !data.market?.sources) return;
  const told = new Set<string>();
  const toldCaveat = new Set<string>();
  for (const f of [...facts.filter((x) => x.primary), ...facts.filter((x) => !x.primary)]) {
    if (!f.source || !SALES_TYPES.has(f.source.type) || f.source.category !== 'market') continue;
    const markets = marketsOf(data, f);
    const list = partialOf(data, markets);
    if (list.length === 0) continue;
    const fresh = list.some((p) => !told.has(p.id));
    for (const p of list) told.add(p.id);
    // the caveats that apply to these markets' sales of the fact's months, each said once
    const caveats = caveatsApplying(list.filter((p) => !toldCaveat.has(p.id)), filesOf(data, markets), spanOf(f.period));
    for (const p of caveats) toldCaveat.add(p.id);
    if (f.sentence) f.sentence = `${f.sentence.replace(/\.$/, '')}; ${fresh ? `these sales come from ${extractWords(list)}, not every recorded sale, so counts, medians and rankings describe that extract only` : 'from the same partial extract'}${caveatWords(caveats)}`;
    if (f.value) f.value = `${f.value} [partial extract]`;
    f.confidence = minConf(f.confidence, 'medium');
  }
}
