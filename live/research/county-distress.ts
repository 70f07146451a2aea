// A county's foreclosure and lien filings, for a distress question naming a county ("foreclosure filings in Allegheny
// County"): the filing municipalities in it (filing-places.ts), read from their investor shards. Its own file: it reads
// facts and the question (intent.ts), which county-place.ts (imported by intent.ts) must not. Rules:
// warehouse/docs/research.md.
import type { Target } from './places.ts';
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { FilingPlace } from './filing-places.ts';
import { fmt, type Fact } from './facts.ts';
import { RANK, ranks } from './ranks.ts';
import { distressWords } from './investor-bits.ts';

type Shard = { distressed_pipeline_count: number | null; distressed_without_parcel?: number | null; as_of: string; distress_as_of?: string | null };

/** A county's foreclosure and lien filings (a distress question naming a county: "foreclosure filings in Allegheny
 *  County"): the sum of the distinct properties of the filing municipalities in it (filing-places.ts; a property lies
 *  in one municipality), over the months asked (12 unless asked, the months a shard has), with the municipalities with
 *  the most; null when no filing municipality lies in the county. */
export async function countyDistressFact(data: ResearchData, u: Understanding, t: Target): Promise<Fact | null> {
  if (!t.area || t.city || t.zip) return null;
  const munis = data.filingPlaces.filter((p) => p.state === t.state && p.county_fips === t.area!.county_fips);
  if (munis.length === 0) return null;
  for (const months of u.months ? [u.months, 12] : [12]) {
    const rows = (await Promise.all(munis.map(async (p) => ({ p, r: await data.shard<Shard>('investor', { state: p.state, city: p.name, months: String(months) }) }))))
      .filter((x): x is { p: FilingPlace; r: Shard & { distressed_pipeline_count: number } } => typeof x.r?.distressed_pipeline_count === 'number');
    if (rows.length === 0) continue;
    const total = rows.reduce((s, x) => s + x.r.distressed_pipeline_count, 0);
    const without = rows.reduce((s, x) => s + (x.r.distressed_without_parcel ?? 0), 0);
    // the municipalities counted are the window's (Allegheny's 12 months: 112 of the 130 the whole file names)
    const named = rows.filter((x) => x.r.distressed_pipeline_count > 0).length;
    const asOf = rows.map((x) => x.r.distress_as_of ?? x.r.as_of).sort().at(-1)!;
    const top = [...rows].sort((a, b) => b.r.distressed_pipeline_count - a.r.distressed_pipeline_count || a.p.name.localeCompare(b.p.name)).slice(0, 5);
    const where = `${t.area.name}, ${t.state}`;
    return {
      ...ranks(u, total, fmt(total), RANK.distress), intent: 'investor', target: t, value: `${fmt(total)} distressed properties`,
      sentence: `In ${where}, ${distressWords(total, without)} are in the pipeline over the ${months} months to ${asOf}, the sum of the ${fmt(named)} ${named === 1 ? 'municipality' : 'municipalities'} with open filings in the window (of the ${fmt(rows.length)} the filings name over the whole file; most: ${top.map((x) => `${x.p.name} ${fmt(x.r.distressed_pipeline_count)}`).join(', ')})`,
      detail: ['Open filings are counted (distinct properties) per municipality: a case closed by the window end (discontinued, dismissed, satisfied, terminated or sold at sheriff or commissioner sale) is not; the county figure is their sum.'],
      source: { type: 'investor', category: 'market', citation: `reii warehouse: investor overview of the ${named} municipalities of ${where} with open filings, ${months} months to ${asOf}` },
      confidence: 'high', primary: true, uncertain: null,
    };
  }
  return null;
}
