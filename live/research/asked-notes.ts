// What a figure is not, said beside it when the question asked for something it is not (sweep h68ask3): a Zillow
// estimate asked ("median home value zillow 98103") is answered by the median of recorded sales, said so with its
// source (a Denver neighbourhood named is read as Denver, said: hood-cities.ts); a zip asked in a city whose sales carry no zip ("best zip
// for flipping in denver"), said so (zipless.ts).
import type { ResearchData, ShardKeys } from './data.ts';
import type { Understanding } from './intent.ts';
import { ziplessCity } from './zipless.ts';
import { saleNote } from './sale-words.ts';

/** The names of the sales sources of the first place asked with a trends shard, else null. */
async function salesSources(data: ResearchData, u: Pick<Understanding, 'targets' | 'propertyType'>): Promise<string | null> {
  for (const t of u.targets) {
    const keys: ShardKeys | null = t.zip ? { zip: t.zip, property_type: u.propertyType } : t.city ? { state: t.state, city: t.city, property_type: u.propertyType } : null;
    const s = keys ? await data.shard<{ sources?: string[] }>('trends', keys) : null;
    if (s?.sources?.length) return s.sources.map((id) => data.titles.get(id) ?? id).join(' and ');
  }
  return null;
}

/** The notes to say after an answer (`said`: the answer so far), in the order asked. */
export async function askedNotes(data: ResearchData, u: Pick<Understanding, 'targets' | 'propertyType'>, asked: string, sources: { category: string }[], said = ''): Promise<string[]> {
  const q = asked.toLowerCase();
  const notes: string[] = [];
  const cite = /\b(zillow|zestimates?|zhvi)\b/.test(q) && sources.some((s) => s.category === 'market') ? await salesSources(data, u) : null;
  if (cite) notes.push(`No Zillow figure is used: this build holds no Zillow estimate or index, and the figure above is the median of recorded sales (${cite}), not a Zillow home value`);
  const sale = saleNote(asked);
  if (sale) notes.push(sale);
  const denver = u.targets.length === 1 && u.targets.find((t) => t.city === 'Denver' && t.state === 'CO' && !t.zip);
  if (!denver) return notes;
  // said once: an answer that already says Denver's sales carry no zip (a ranking of its zips refused) gets no note
  if (/\bzip(?: ?codes?|s)?\b/.test(q) && !/carry no zip code in the source/.test(said)) {
    const why = ziplessCity(data, 'CO', 'Denver', u.propertyType) ?? ziplessCity(data, 'CO', 'Denver', 'sfr');
    if (why) notes.push(`No zip of Denver is given or ranked: ${why}`);
  }
  return notes;
}
