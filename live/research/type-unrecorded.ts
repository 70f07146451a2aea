// A property type asked of a market whose sales sources record no sale of it at all ("land price trend in Denver":
// Denver's file classes every deed single-family, rowhouse or condominium, no vacant land; "commercial sales in
// Sacramento"): said so, with the types they do record, never "no month with 20 or more land sales ... too few" (h68ask:
// that read as thin data where the data holds none) nor a bare "We have no land sales". The trends shard's
// `source_types` (pipelines/marts/30_mart_market_trends.ts: the types any record of the market's sources holds) tells
// the two apart, as GET /v1/market/trends' data_note does (api/trends-type-note.ts). A source with no property type at
// all (King County's) keeps its own words (typeless.ts), read before this. Rules: warehouse/docs/research.md
// "Property types".
import type { ResearchData, ShardKeys } from './data.ts';
import { PROPERTY_TYPES } from '../../warehouse/property-types.ts';
import { TYPE_WORDS } from './sales-facts.ts';

/** The trends shard fields read here (absent in a build before `source_types`). */
interface TypeFields { source_types?: readonly string[] | null; sources?: readonly string[] }

const list = (xs: readonly string[]): string => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/** The sentence for `type` asked of the market of `keys` whose sales sources record no sale of it ("We have no land
 *  price trend for Denver, CO: its sales source, ..., records no land sale at all ..."), else null (the type is
 *  recorded, the market has no shard, or the build predates `source_types`). `what`: the figure asked ("price trend"). */
export async function typeUnrecorded(data: ResearchData, keys: ShardKeys, type: string, what: string, where: string): Promise<string | null> {
  const s = await data.shard<TypeFields>('trends', keys);
  if (!s || !Array.isArray(s.source_types) || s.source_types.includes(type)) return null;
  const ids = s.sources ?? [];
  const names = ids.map((id) => data.titles.get(id) ?? id);
  const many = names.length > 1;
  const held = PROPERTY_TYPES.filter((p) => s.source_types!.includes(p)).map((p) => TYPE_WORDS[p]!);
  const noun = TYPE_WORDS[type] ?? type;
  const source = names.length ? `${many ? 'its sales sources' : 'its sales source'}, ${list(names)}, ${many ? 'record' : 'records'}` : 'its sales sources record';
  const of = held.length ? `${many ? 'their' : 'its'} sales are ${list(held)} sales only` : `${many ? 'their' : 'its'} sales are of none of the five property types`;
  return `We have no ${noun} ${what} for ${where}: ${source} no ${noun} sale at all (${of}), so ${noun} sales made there are not in this build; this is not too few sales, nor a count of 0${held.length ? `; its ${list(held)} figures can be asked` : ''}`;
}
