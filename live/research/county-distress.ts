// A county's foreclosure and lien filings, for a distress question naming a county ("foreclosure filings in Allegheny
// County"): the filing municipalities in it (filing-places.ts), read from their investor shards. Its own file: it reads
// facts and the question (intent.ts), which county-place.ts (imported by intent.ts) must not. Rules:
// warehouse/docs/research.md.
import type { Target } from './places.ts';
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { FilingPlace } from './filing-places.ts';
import { fmt, minConf, type Confidence, type Fact } from './facts.ts';
import { RANK, ranks } from './ranks.ts';
import { distressWords } from './investor-bits.ts';
import { distressKindsOf } from './distress-kinds.ts';

type Shard = { distressed_pipeline_count: number | null; distressed_without_parcel?: number | null; as_of: string; distress_as_of?: string | null; confidence?: Confidence;
  source?: { id: string; kinds?: { kind: string; id: string }[] } | null };
type Row = { p: FilingPlace; r: Shard & { distressed_pipeline_count: number } };

/** A county's foreclosure and lien filings (a distress question naming a county: "foreclosure filings in Allegheny
 *  County"): its distinct properties, each counted once however many of its municipalities' filings name it
 *  (countyDistinct), else the sum of the distinct properties of the filing municipalities in it (filing-places.ts),
 *  over the months asked (12 unless asked, the months a shard has), with the municipalities with the most; null when no
 *  filing municipality lies in the county. */
export async function countyDistressFact(data: ResearchData, u: Understanding, t: Target): Promise<Fact | null> {
  if (!t.area || t.city || t.zip) return null;
  const munis = data.filingPlaces.filter((p) => p.state === t.state && p.county_fips === t.area!.county_fips);
  if (munis.length === 0) return null;
  for (const months of u.months ? [u.months, 12] : [12]) {
    const rows = (await Promise.all(munis.map(async (p) => ({ p, r: await data.shard<Shard>('investor', { state: p.state, city: p.name, months: String(months) }) }))))
      .filter((x): x is Row => typeof x.r?.distressed_pipeline_count === 'number');
    if (rows.length === 0) continue;
    const sum = rows.reduce((s, x) => s + x.r.distressed_pipeline_count, 0);
    const distinct = countyDistinct(data, rows, months);
    const total = distinct ?? sum;
    const without = rows.reduce((s, x) => s + (x.r.distressed_without_parcel ?? 0), 0);
    // the municipalities counted are the window's (Allegheny's 12 months: 112 of the 130 the whole file names)
    const named = rows.filter((x) => x.r.distressed_pipeline_count > 0).length;
    const asOf = rows.map((x) => x.r.distress_as_of ?? x.r.as_of).sort().at(-1)!;
    const top = [...rows].sort((a, b) => b.r.distressed_pipeline_count - a.r.distressed_pipeline_count || a.p.name.localeCompare(b.p.name)).slice(0, 5);
    const where = `${t.area.name}, ${t.state}`;
    const munisWords = `${fmt(named)} ${named === 1 ? 'municipality' : 'municipalities'} with open filings in the window (of the ${fmt(rows.length)} the filings name over the whole file; most: ${top.map((x) => `${x.p.name} ${fmt(x.r.distressed_pipeline_count)}`).join(', ')})`;
    // a property named in two municipalities' filings counts in each of theirs: the county counts it once (review 29:
    // Allegheny County's 24 months summed 1,312, where 1,310 properties are), said where the two differ
    const how = distinct === null ? `, the sum of the ${munisWords}`
      : `, each counted once, in the ${munisWords}${sum !== distinct ? `; their municipalities' counts sum to ${fmt(sum)}, as ${fmt(sum - distinct)} ${sum - distinct === 1 ? 'property is' : 'properties are'} named in the filings of more than one municipality` : ''}`;
    return {
      ...ranks(u, total, fmt(total), RANK.distress), intent: 'investor', target: t, value: `${fmt(total)} distressed properties`,
      sentence: `In ${where}, ${distressWords(total, without, distressKindsOf(data, rows.map((x) => ({ state: x.p.state, city: x.p.name }))))} are in the pipeline over the ${months} months to ${asOf}${how}`,
      detail: [`Open filings are counted (distinct properties): a case closed by the window end (discontinued, dismissed, satisfied, terminated or sold at sheriff or commissioner sale) is not; ${distinct === null ? 'the county figure is the sum of its municipalities\' (a property named in two of them counts in each)' : 'the county figure counts each property once over all its municipalities'}.`],
      source: { type: 'investor', category: 'market', citation: `reii warehouse: investor overview of the ${named} municipalities of ${where} with open filings, ${months} months to ${asOf}` },
      // the municipalities' overviews' own confidence (by sample count), the least of them, not "high" whatever they say
      confidence: rows.reduce<Confidence>((c, x) => minConf(c, x.r.confidence ?? 'high'), 'high'), primary: true, uncertain: null,
    };
  }
  return null;
}

/** The county's distinct properties over the window: where each distress source of its municipalities has every city
 *  it names in the county, and each municipality's window ends where its source's does, the sources' own distinct
 *  counts (market.json `distress_sources`, distress-kinds-build.ts); else null (an index without them, or a source
 *  reaching past the county). */
function countyDistinct(data: ResearchData, rows: readonly Row[], months: number): number | null {
  const sources = data.market?.distress_sources;
  if (!sources || months < 3 || months > 24) return null;
  const bySource = new Map<string, number>();
  for (const { r } of rows) {
    const ids = r.source?.kinds ? r.source.kinds.filter((k) => k.kind === 'distress').map((k) => k.id) : r.source ? [r.source.id] : [];
    const s = ids.length === 1 ? sources[ids[0]!] : undefined;
    if (!s || s[0] !== (r.distress_as_of ?? r.as_of)) return null;
    bySource.set(ids[0]!, (bySource.get(ids[0]!) ?? 0) + 1);
  }
  let n = 0;
  for (const [id, cities] of bySource) {
    if (sources[id]![2] !== cities) return null;
    n += sources[id]![1][months - 3] ?? 0;
  }
  return n;
}
