// GET /v1/market/trends for a property type the market's sales sources record no sale of at all (audit h67: Denver
// and Sacramento land, Seattle condo: King County's file is of houses only). The trends shard holds every type of every
// market, and a month's count below 5 is null (minimum cohort), so such a series is 60 empty months whose only
// explanation read "no month ... is complete with 20 or more sales": thin data, where the source holds none. The shard's
// `source_types` (pipelines/marts/30_mart_market_trends.ts MARKET_SOURCES: the types of the five its sources record a
// sale of, any record of any of their markets) tells the two apart; the answer stays a 200, as comps answers an empty
// type with null figures and a note (pipelines/marts/30_mart_comps.sql), and says why in data_note and change_note.
// warehouse/docs/market.md "A type the sources record none of".
import { PROPERTY_TYPES } from '../warehouse/property-types.ts';

/** The stored trends fields these notes read (api/market-trends.ts StoredTrends). */
interface TypeFields {
  zip_code: string | null; city: string; state: string | null; property_type: string;
  /** the property types the market's sales sources record a sale of (absent in a build before it) */
  source_types?: readonly string[] | null;
  sources?: readonly string[];
  source?: { id: string; name: string };
}

/** The sources named, as the answer's `source` names them (the manifest's title and id), else by their ids. */
function sourceWords(t: TypeFields): { words: string; many: boolean } {
  const ids = t.source ? t.source.id.split('+') : [...(t.sources ?? [])];
  const many = ids.length > 1;
  const named = t.source ? (many ? `${t.source.name} (${t.source.id})` : `the ${t.source.name} source (${t.source.id})`) : ids.join(', ');
  return { words: many ? `The sales sources of ${where(t)}, ${named},` : `${t.source ? named.replace(/^t/, 'T') : `The ${named} source`}, the sales source of ${where(t)},`, many };
}

const where = (t: TypeFields): string => (t.zip_code !== null ? `zip ${t.zip_code}` : `${t.city}, ${t.state ?? ''}`);

/** Whether the market's sales sources record no sale of the type asked (false in a build without source_types). */
export function typeUnrecorded(t: TypeFields): boolean {
  return Array.isArray(t.source_types) && !t.source_types.includes(t.property_type);
}

/** Whether the sources record single-family sales alone, the mark of a file without a property type (King County's:
 *  its adapter counts every sale as a house), as the research answer reads it (live/research/typeless.ts). */
const typeless = (t: TypeFields): boolean => t.source_types?.length === 1 && t.source_types[0] === 'sfr';

/** data_note's words for a type no source of the market records a sale of, else null: which source, what it does
 *  record, and that the empty months are no count of 0 to 4 sales. */
export function typeDataNote(t: TypeFields): string | null {
  if (!typeUnrecorded(t)) return null;
  const { words, many } = sourceWords(t);
  const type = t.property_type;
  const empty = `every month of this ${type} series is empty (no sales_count, median or price index)`;
  if (typeless(t)) {
    return `${words} ${many ? 'record' : 'records'} no property type: every sale in ${many ? 'them' : 'it'} is counted as a single-family house (sfr), `
      + `so ${type} sales cannot be told apart and ${empty}: no count of ${type} sales, not even 0, and not because fewer than 5 sold; its sfr series can be asked`;
  }
  const types = PROPERTY_TYPES.filter((p) => t.source_types!.includes(p));
  const of = types.length ? `${many ? 'their' : 'its'} sales are of the types ${types.join(', ').replace(/, ([^,]+)$/, ' and $1')} only` : `${many ? 'their' : 'its'} sales are of none of the five types`;
  return `${words} ${many ? 'record' : 'records'} no ${type} sale in any of ${many ? 'their' : 'its'} markets (${of}), `
    + `so ${empty} because the data holds no ${type} sale at all, not because fewer than 5 sold: ${type} sales made here are not in this build`;
}

/** The summary with change_note saying that each null change is null for want of any record of the type, for a type no
 *  source of the market records; the summary itself otherwise. */
export function typeChangeNote(t: TypeFields, summary: Record<string, unknown>): Record<string, unknown> {
  if (!typeUnrecorded(t)) return summary;
  const nulls = [3, 12, 24].map((b) => `change_${b}m_pct`).filter((f) => summary[f] === null);
  if (nulls.length === 0) return summary;
  const { many } = sourceWords(t);
  const said = `${nulls.join(', ').replace(/, ([^,]+)$/, ' and $1')} ${nulls.length === 1 ? 'is' : 'are'} null: `
    + `the market's sales ${many ? 'sources record' : 'source records'} ${typeless(t) ? 'no property type' : `no ${t.property_type} sales`} (data_note)`;
  const prior = typeof summary['change_note'] === 'string' ? summary['change_note'] : '';
  return { ...summary, change_note: [said, prior].filter(Boolean).join('; ') };
}
