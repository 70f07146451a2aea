// The 404 of a city-keyed market answer (trends, investor overview) for a city no sales record names while its zips
// hold sales (review 21: a canonical NYC file names every sale's city "New York", so Staten Island, NY, whose 14 zips
// the geo lookup lists and whose zip 10314 alone holds 1,913 arm's-length sales, read "No sales source covers Staten
// Island, NY: this build has no sales records there"). City markets are keyed by the city the records name; the
// city's zips (its geo lookup shard's zip_codes) are where its sales are, and the zip endpoints answer them.
import { cityShard } from './shard-replies.ts';
import { armsLengthSales, salesRecorded } from './market-source.ts';
import { shardPath, type FamilyName } from '../warehouse/layout.ts';
import type { Reply } from './route.ts';
import type { LoadedBuild } from './builds.ts';

const LISTED = 5;

/** cityShard, whose 404 for a known city (no hint) without a sale record of its name names its zips with sales. */
export function marketCityShard(build: LoadedBuild, family: FamilyName, keys: Record<string, unknown>, notFound: (city: string, hint: string) => string): Reply | Promise<Reply> {
  let known: string | null = null;
  const reply = cityShard(build, family, keys, (city, hint) => { known = hint === '' ? city : null; return notFound(city, hint); });
  const state = keys['state'];
  if (reply.kind !== 'shard' || known === null || typeof state !== 'string' || build.shards.has(reply.path)) return reply;
  const city: string = known;
  if (salesRecorded(build, { state, city })) return reply; // its own records (flagged only, or another window) say why
  const geo = shardPath('geo-lookup', { state, city });
  if (!geo.ok || !build.shards.has(geo.path)) return reply;
  return build.shards.get(geo.path).then((file) => {
    const zips = file ? ((JSON.parse(file.body.toString('utf8')) as { zip_codes?: string[] | null }).zip_codes ?? []) : [];
    const sold = zips.map((zip) => ({ zip, n: armsLengthSales(build, { zip }) })).filter((z) => z.n > 0);
    if (!sold.length) return reply;
    const total = sold.reduce((a, z) => a + z.n, 0);
    const listed = sold.slice(0, LISTED).map((z) => z.zip).join(', ') + (sold.length > LISTED ? `, and ${sold.length - LISTED} more` : '');
    const notFoundText = `No sales record of this build names the city ${city}, ${state}, so it has no city market of that name; `
      + `but ${sold.length} of its ${zips.length} zips (the geo lookup's) hold ${total.toLocaleString('en-US')} arm's-length sales filed under another city name `
      + `(${listed}): ask by zip (/v1/market/comps, /v1/market/trends or /v1/market/rehab-score?zip=${sold[0]!.zip}), or by the city the records name`;
    return { ...reply, notFound: notFoundText };
  });
}
