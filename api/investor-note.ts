// The investor overview's additions in the server (no shard rebuild): its `source` (api/market-source.ts) and, where
// flip_velocity_days is given, a note clause saying what it measures (review 18: the spec defines it as purchase to
// re-list, the build measures purchase deed to resale deed, as warehouse/docs/market.md "Investor flip" says, but the
// answer did not).
import type { Reply } from './route.ts';
import type { LoadedBuild } from './builds.ts';
import { augmentedShard } from './shard-augment.ts';
import { marketSource } from './market-source.ts';

export const FLIP_BASIS = "flip_velocity_days is the median days from an investor's purchase deed to the property's resale deed, not to its re-listing as the spec defines it: no source of the build records listing dates, so the resale stands for the re-list (a flip: an investor purchase resold 1 to 365 days later)";

/** The investor shard's reply with its source and the flip clause appended to its note (when flip_velocity_days is not null). */
export function investorShard(build: LoadedBuild, reply: Reply): Reply | Promise<Reply> {
  return augmentedShard(build, reply, 'investor', (body) => {
    const fields: Record<string, unknown> = {};
    const note = typeof body['note'] === 'string' ? body['note'] : null;
    if (body['flip_velocity_days'] !== null && body['flip_velocity_days'] !== undefined && !note?.includes(FLIP_BASIS)) {
      fields['note'] = note === null ? FLIP_BASIS : `${note}; ${FLIP_BASIS}`;
    }
    const source = marketSource(build, { state: body['state'], city: body['city'] });
    if (source !== null) fields['source'] = source;
    return Object.keys(fields).length === 0 ? null : { fields, tag: `${source?.id ?? ''}|${'note' in fields ? 'flip' : ''}` };
  });
}
