// Sales from a partial extract of their source (POST /v1/research/query): a market whose arm's-length sales come from
// a source the build's catalog marks as a sample or a partial extract (its manifest's sources[], data.ts
// partialSources: Philadelphia's OPA sample, Connecticut's partial files) says so with every sales figure it quotes -
// counts, medians, prices per sqft, investor shares and zip rankings describe that extract, not every recorded sale.
// The sources of each market are market.json's (build.ts marketSources); a build written before them says nothing.
import type { PartialSource, ResearchData } from './data.ts';
import { minConf, plural, type Fact } from './facts.ts';
import { marketKey, type Market } from './market-window.ts';

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
  for (const f of [...facts.filter((x) => x.primary), ...facts.filter((x) => !x.primary)]) {
    if (!f.source || !SALES_TYPES.has(f.source.type) || f.source.category !== 'market') continue;
    const list = partialOf(data, marketsOf(data, f));
    if (list.length === 0) continue;
    const fresh = list.some((p) => !told.has(p.id));
    for (const p of list) told.add(p.id);
    if (f.sentence) f.sentence = `${f.sentence.replace(/\.$/, '')}; ${fresh ? `these sales come from ${extractWords(list)}, not every recorded sale, so counts, medians and rankings describe that extract only` : 'from the same partial extract'}`;
    if (f.value) f.value = `${f.value} [partial extract]`;
    f.confidence = minConf(f.confidence, 'medium');
  }
}
