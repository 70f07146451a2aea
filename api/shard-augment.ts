// A shard answered with additive fields the server computes from data it holds per build (the sales source of a market
// answer, api/market-source.ts; whether a FEMA flood map is loaded for a zip, api/routes.ts): the stored shard parsed,
// the fields added, kept by build and shard ETag with a weak ETag of its own. Where `add` adds nothing (null), the shard
// is answered as stored (its compressed siblings included).
import crypto from 'node:crypto';
import { HttpError } from './errors.ts';
import type { Reply } from './route.ts';
import type { LoadedBuild } from './builds.ts';
import type { Shard } from './shards.ts';

/** The fields to add to a shard's body, with a tag naming them (for the ETag), or null to answer the shard as stored. */
export type Addition = (body: Record<string, unknown>) => { fields: Record<string, unknown>; tag: string } | null;

const answers = new Map<string, { body: unknown; etag: string } | null>();
const MAX_ANSWERS = 5_000;

/** `reply` (a shard) with `add`'s fields; `name` tells the additions of one route from another's in the cache. */
export function augmentedShard(build: LoadedBuild, reply: Reply, name: string, add: Addition): Reply | Promise<Reply> {
  if (reply.kind !== 'shard') return reply;
  const hit = build.shards.cached(reply.path);
  return hit ? augmented(build, hit, reply, name, add) : build.shards.get(reply.path).then((f) => augmented(build, f, reply, name, add));
}

function augmented(build: LoadedBuild, file: Shard | null, reply: Reply & { kind: 'shard' }, name: string, add: Addition): Reply {
  if (!file) throw new HttpError('no_data', reply.notFound);
  const id = `${name}|${build.dir}|${file.etag}`;
  let hit = answers.get(id);
  if (hit === undefined) {
    if (answers.size >= MAX_ANSWERS) answers.clear();
    const body = JSON.parse(file.body.toString('utf8')) as Record<string, unknown>;
    const more = add(body);
    hit = more === null ? null : {
      body: { ...body, ...more.fields },
      etag: `W/"${crypto.createHash('sha256').update(`${file.etag}|${more.tag}`).digest('base64url').slice(0, 22)}"`,
    };
    answers.set(id, hit);
  }
  return hit === null ? reply : { kind: 'json', body: hit.body, etag: hit.etag, headers: { 'Last-Modified': build.lastModified } };
}
