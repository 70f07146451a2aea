// What a figure is not, said beside it when the question asked for something it is not (sweep h68ask3): a Zillow
// estimate asked ("median home value zillow 98103") is answered by the median of recorded sales, said so with its
// source; a Denver neighbourhood named ("capitol hill denver home prices") is answered by Denver's whole-city figures,
// said so, as the build breaks out no Denver neighbourhood; a zip asked in a city whose sales carry no zip ("best zip
// for flipping in denver"), said so (zipless.ts).
import type { ResearchData, ShardKeys } from './data.ts';
import type { Understanding } from './intent.ts';
import { ziplessCity } from './zipless.ts';
import { saleNote } from './sale-words.ts';

/** Denver's assessor neighbourhood names (its sales file's NBHD_1_CN, read by the build into no table). */
const DENVER_HOODS = ['capitol hill', 'cheesman park', 'five points', 'highland', 'lodo', 'union station', 'rino', 'whittier', 'cole', 'city park', 'congress park', 'cherry creek', 'washington park', 'baker', 'speer', 'platt park', 'berkeley', 'sloan lake', 'sunnyside', 'park hill', 'north park hill', 'south park hill', 'stapleton', 'central park', 'montbello', 'green valley ranch', 'globeville', 'elyria swansea', 'swansea', 'lincoln park', 'la alma', 'jefferson park', 'west colfax', 'villa park', 'barnum', 'westwood', 'ruby hill', 'athmar park', 'mar lee', 'harvey park', 'bear valley', 'hampden', 'university park', 'virginia village', 'belcaro', 'hilltop', 'montclair', 'east colfax', 'skyland', 'clayton', 'cory merrill', 'rosedale', 'wellshire', 'overland', 'college view', 'goldsmith', 'indian creek', 'lowry field', 'windsor', 'gateway', 'regis', 'chaffee park', 'valverde', 'sun valley', 'auraria', 'north capitol hill', 'civic center', 'golden triangle', 'university hills', 'kennedy', 'marston', 'fort logan', 'southmoor park', 'hale', 'uptown', 'curtis park', 'ballpark'];

const title = (h: string): string => h.replace(/\b\w/g, (c) => c.toUpperCase());

/** The names of the sales sources of the first place asked with a trends shard, else null. */
async function salesSources(data: ResearchData, u: Pick<Understanding, 'targets' | 'propertyType'>): Promise<string | null> {
  for (const t of u.targets) {
    const keys: ShardKeys | null = t.zip ? { zip: t.zip, property_type: u.propertyType } : t.city ? { state: t.state, city: t.city, property_type: u.propertyType } : null;
    const s = keys ? await data.shard<{ sources?: string[] }>('trends', keys) : null;
    if (s?.sources?.length) return s.sources.map((id) => data.titles.get(id) ?? id).join(' and ');
  }
  return null;
}

/** The notes to say after an answer, in the order asked. */
export async function askedNotes(data: ResearchData, u: Pick<Understanding, 'targets' | 'propertyType'>, asked: string, sources: { category: string }[]): Promise<string[]> {
  const q = asked.toLowerCase();
  const notes: string[] = [];
  const cite = /\b(zillow|zestimates?|zhvi)\b/.test(q) && sources.some((s) => s.category === 'market') ? await salesSources(data, u) : null;
  if (cite) notes.push(`No Zillow figure is used: this build holds no Zillow estimate or index, and the figure above is the median of recorded sales (${cite}), not a Zillow home value`);
  const sale = saleNote(asked);
  if (sale) notes.push(sale);
  const denver = u.targets.length === 1 && u.targets.find((t) => t.city === 'Denver' && t.state === 'CO' && !t.zip);
  if (!denver) return notes;
  const hood = DENVER_HOODS.filter((h) => new RegExp(`\\b${h}\\b`).test(q)).sort((a, b) => b.length - a.length)[0];
  if (hood) notes.push(`${title(hood)} is a Denver neighbourhood, and this build breaks out no neighbourhood of Denver: any figure here is Denver's whole-city one, not the neighbourhood's own`);
  if (/\bzip(?: ?codes?|s)?\b/.test(q)) {
    const why = ziplessCity(data, 'CO', 'Denver', u.propertyType) ?? ziplessCity(data, 'CO', 'Denver', 'sfr');
    if (why) notes.push(`No zip of Denver is given or ranked: ${why}`);
  }
  return notes;
}
