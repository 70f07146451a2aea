// Serving shard files of one build: content-hash ETags (stable across builds when the data did not
// change, unlike size-mtime tags), precompressed .br/.gz siblings, and a bounded in-memory cache.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileShards, type ShardReader } from '../warehouse/live.ts';

export interface Shard {
  body: Buffer;
  etag: string;
  br: Buffer | null;
  gz: Buffer | null;
}

/** Also the ShardReader the live modules read a build's shards through (warehouse/live.ts), sharing this cache. */
export class ShardStore implements ShardReader {
  readonly root: string;
  private cache = new Map<string, Shard>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly files: ShardReader;
  private newest: string | null = null; // the key last moved to the end of `cache` (most recently used)

  constructor(root: string, maxBytes: number) {
    this.root = root;
    this.maxBytes = maxBytes;
    this.files = fileShards(root);
  }

  /** A shard already in memory, without touching the disk (the synchronous fast path); undefined when not cached. */
  cached(rel: string): Shard | undefined {
    const hit = this.cache.get(rel);
    if (hit && rel !== this.newest) {
      this.cache.delete(rel); // refresh its place: least recently used goes first
      this.cache.set(rel, hit);
      this.newest = rel; // already last: a shard asked again and again is not moved each time
    }
    return hit;
  }

  /** Whether the shard file exists (synchronous: a route choosing between two names of a city asks once per URL,
   *  api/resolved.ts remembers its answer). rel comes from layout.shardPath() only. */
  has(rel: string): boolean {
    return this.cache.has(rel) || fs.existsSync(path.join(this.root, rel));
  }

  /** rel comes from layout.shardPath() only (an allowlisted relative path); null when absent. */
  async get(rel: string): Promise<Shard | null> {
    const hit = this.cached(rel);
    if (hit) return hit;
    const abs = path.join(this.root, rel);
    if (!abs.startsWith(this.root + path.sep)) return null;
    let body: Buffer;
    try {
      body = await fs.promises.readFile(abs);
    } catch {
      return null;
    }
    const [br, gz] = await Promise.all([readOptional(abs + '.br'), readOptional(abs + '.gz')]);
    const etag = `W/"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    const shard: Shard = { body, etag, br, gz };
    const size = body.length + (br?.length ?? 0) + (gz?.length ?? 0);
    if (size <= this.maxBytes) {
      this.cache.set(rel, shard);
      this.newest = rel;
      this.bytes += size;
      for (const [k, v] of this.cache) {
        if (this.bytes <= this.maxBytes) break;
        this.cache.delete(k);
        this.bytes -= v.body.length + (v.br?.length ?? 0) + (v.gz?.length ?? 0);
      }
    }
    return shard;
  }

  /** The bytes of a shard (ShardReader); null when absent. */
  async read(rel: string): Promise<Buffer | null> {
    return (await this.get(rel))?.body ?? null;
  }

  /** Whether the build has a file or folder at rel (ShardReader: a live module asks whether a shard family was built). */
  exists(rel: string): Promise<boolean> {
    return this.files.exists(rel);
  }

  /** Parsed JSON of a shard (for endpoints that filter a shard, e.g. regulations). */
  async json<T>(rel: string): Promise<T | null> {
    const s = await this.get(rel);
    return s ? (JSON.parse(s.body.toString('utf8')) as T) : null;
  }
}

async function readOptional(file: string): Promise<Buffer | null> {
  try {
    return await fs.promises.readFile(file);
  } catch {
    return null;
  }
}
