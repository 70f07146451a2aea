// A shard answered with additive fields the server computes from data it holds per build (the sales source of a market
// answer, api/market-source.ts; whether a FEMA flood map is loaded for a zip, api/routes.ts): the stored shard parsed,
// the fields added, and the result kept by build and shard ETag as a shard of its own (its bytes, a weak ETag, brotli
// and gzip copies made once), so it is answered as a stored shard is: no JSON serialising or compressing per request.
// Where `add` adds nothing (null), the shard is answered as stored.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { HttpError } from './errors.ts';
import type { Reply } from './route.ts';
import type { LoadedBuild } from './builds.ts';
import type { Shard } from './shards.ts';

/** The fields to add to a shard's body, with a tag naming them (for the ETag), or null to answer the shard as stored. */
export type Addition = (body: Record<string, unknown>) => { fields: Record<string, unknown>; tag: string } | null;

const answers = new Map<string, Shard | null>();
/** The answers kept: at most this many bytes (bodies and their compressed copies), then the cache starts again. */
const MAX_BYTES = 16 * 1024 * 1024;
let bytes = 0;

/** `reply` (a shard) with `add`'s fields; `name` tells the additions of one route from another's in the cache. */
export function augmentedShard(build: LoadedBuild, reply: Reply, name: string, add: Addition): Reply | Promise<Reply> {
  if (reply.kind !== 'shard') return reply;
  const hit = build.shards.cached(reply.path);
  return hit ? augmented(build, hit, reply, name, add) : build.shards.get(reply.path).then((f) => augmented(build, f, reply, name, add));
}

function augmented(build: LoadedBuild, file: Shard | null, reply: Reply & { kind: 'shard' }, name: string, add: Addition): Reply {
  if (!file) throw new HttpError('no_data', reply.notFound);
  const id = `${name}|${build.dir}|${file.etag}`;
  let made = answers.get(id);
  if (made === undefined) {
    const body = JSON.parse(file.body.toString('utf8')) as Record<string, unknown>;
    const more = add(body);
    made = more === null ? null : shardOf({ ...body, ...more.fields }, `${file.etag}|${more.tag}`);
    const size = made ? made.body.length + (made.br?.length ?? 0) + (made.gz?.length ?? 0) : 0;
    if (bytes + size > MAX_BYTES) { answers.clear(); bytes = 0; }
    answers.set(id, made);
    bytes += size;
  }
  return made === null ? reply : { ...reply, file: made };
}

/** A body as a shard: its bytes, a weak ETag of what it was made from, and its compressed copies. */
function shardOf(body: Record<string, unknown>, from: string): Shard {
  const bytesOf = Buffer.from(JSON.stringify(body));
  return {
    body: bytesOf,
    etag: `W/"${crypto.createHash('sha256').update(from).digest('base64url').slice(0, 22)}"`,
    br: zlib.brotliCompressSync(bytesOf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
    gz: zlib.gzipSync(bytesOf, { level: 9 }),
  };
}
