// The key registry shared by every instance on one Redis (api/redis.ts has the connection): a revocation
// reaches every instance within a second, and a key made by `reii keys create` works at once.
//
// The key registry is append-only (keys are revoked, never deleted): an instance merges what Redis
// holds into what it knows (a revocation wins), so a Redis that lost its data can never shrink it, and
// writes back records Redis lacks. The registry's version is `<epoch>:<counter>` with a random epoch
// made when the registry is first written, so a restarted Redis counting again from 1 is never taken
// for a version already seen. The last registry is saved to <state>/redis-keys.json and loaded at
// start, so an instance started while Redis is down still knows its keys.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { checkKey, KEY_RE, makeKey, type KeyCheck, type KeyChecker, type KeyRecord } from './keys.ts';
import { CliError, EXIT } from '../warehouse/errors.ts';
import { connectRedis, PREFIX, whenReady, writeAtomic } from './redis.ts';

/** The key registry in Redis: a hash of records by id, a random epoch made with the registry, and a
 *  version counter instances poll (`<epoch>:<counter>`). */
export class RedisKeys implements KeyChecker {
  private byId = new Map<string, KeyRecord>();
  private version = '';
  private timer: NodeJS.Timeout | null = null;
  private readonly file: string | null;
  readonly redis: Redis;

  /** `stateDir`: where the last registry loaded is kept (<state>/redis-keys.json); none for the CLI. */
  constructor(url: string, stateDir: string | null = null) {
    this.redis = connectRedis(url);
    this.redis.on('error', () => {});
    this.file = stateDir ? path.join(stateDir, 'redis-keys.json') : null;
    if (this.file && fs.existsSync(this.file)) {
      try {
        const saved = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { records: KeyRecord[] };
        this.byId = new Map(saved.records.map((r) => [r.id, r]));
      } catch {
        // unreadable: the registry comes from Redis alone
      }
    }
  }

  private lookingUp: Promise<void> | null = null;
  private verdicts = new Map<string, KeyCheck>(); // header -> a passing check, for the registry in verdictsOf
  private verdictsOf: ReadonlyMap<string, KeyRecord> | null = null;

  /** A key this instance does not know is looked up in Redis once more before it is refused (one MGET when
   *  the registry has not moved; concurrent misses share it; failing keys are throttled per address), so a
   *  key made a moment ago by `reii keys create` works at once, not on the next 250 ms poll. */
  check(header: string | undefined): KeyCheck | Promise<KeyCheck> {
    // A key that passed is remembered until the registry is replaced (every reload that saw it move): no hash per request.
    if (this.verdictsOf !== this.byId) { this.verdicts.clear(); this.verdictsOf = this.byId; }
    const known = header === undefined ? undefined : this.verdicts.get(header);
    if (known) return known;
    const result = checkKey(this.byId, header);
    if (result.ok && header !== undefined) {
      if (this.verdicts.size >= 10_000) this.verdicts.clear(); // bounded
      this.verdicts.set(header, result);
    }
    if (result.ok || result.code !== 'key_invalid' || this.redis.status !== 'ready') return result;
    const m = header === undefined ? null : KEY_RE.exec(header.trim());
    if (!m || this.byId.has(m[1]!)) return result; // not a key's shape, or a known id with a wrong secret
    this.lookingUp ??= this.reload().finally(() => { this.lookingUp = null; });
    return this.lookingUp.then(() => checkKey(this.byId, header));
  }

  /** How many keys this instance knows (for logs and tests). */
  get size(): number {
    return this.byId.size;
  }

  /** Re-reads the registry when its version moved. Redis's records are merged into the known ones (the
   *  registry is append-only; a revocation wins), so an outage or a Redis that lost its data never drops
   *  a key; records Redis lacks are written back to it. Keeps the last registry while Redis is away. */
  async reload(): Promise<void> {
    try {
      const [epoch, counter] = await this.redis.mget(`${PREFIX}keys:epoch`, `${PREFIX}keys:version`);
      const version = `${epoch ?? '-'}:${counter ?? '-'}`;
      if (version === this.version) return;
      const all = await this.redis.hgetall(`${PREFIX}keys`);
      const merged = new Map(this.byId);
      const fromRedis = new Set<string>();
      const writeBack: KeyRecord[] = [];
      for (const j of Object.values(all)) {
        const r = JSON.parse(j) as KeyRecord;
        fromRedis.add(r.id);
        const known = merged.get(r.id);
        if (known?.revoked_at && !r.revoked_at) { merged.set(r.id, known); writeBack.push(known); } // Redis went back in time
        else merged.set(r.id, r);
      }
      for (const r of this.byId.values()) if (!fromRedis.has(r.id)) writeBack.push(r);
      this.byId = merged;
      this.save();
      if (writeBack.length) await this.writeBack(writeBack); // moves the version: the next poll re-reads
      this.version = version;
    } catch {
      // unreachable: keep the keys we have
    }
  }

  /** Restores records a restarted (or rolled back) Redis lacks; never overwrites a record it holds unless
   *  ours is revoked and its copy is not. */
  private async writeBack(records: KeyRecord[]): Promise<void> {
    const m = this.redis.multi();
    for (const r of records) {
      if (r.revoked_at) m.hset(`${PREFIX}keys`, r.id, JSON.stringify(r));
      else m.hsetnx(`${PREFIX}keys`, r.id, JSON.stringify(r));
    }
    await m.set(`${PREFIX}keys:epoch`, crypto.randomBytes(8).toString('hex'), 'NX').incr(`${PREFIX}keys:version`).exec();
  }

  private save(): void {
    if (!this.file) return;
    try {
      writeAtomic(this.file, JSON.stringify({ saved_at: new Date().toISOString(), version: this.version, records: [...this.byId.values()] }) + '\n');
    } catch {
      // state folder not writable: the next registry change tries again
    }
  }

  async watch(ms = 250): Promise<void> {
    await whenReady(this.redis);
    await this.reload();
    this.timer ??= setInterval(() => { void this.reload(); }, ms);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.redis.disconnect();
  }

  // ---------- administration (the CLI with REII_REDIS_URL)
  private async ready(): Promise<void> {
    if (!(await whenReady(this.redis, 3000))) throw new CliError('Redis is unreachable at REII_REDIS_URL', { exitCode: EXIT.failed });
  }

  async list(): Promise<KeyRecord[]> {
    await this.ready();
    const all = await this.redis.hgetall(`${PREFIX}keys`);
    return Object.values(all).map((j) => JSON.parse(j) as KeyRecord).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  private async put(...records: KeyRecord[]): Promise<void> {
    const m = this.redis.multi().set(`${PREFIX}keys:epoch`, crypto.randomBytes(8).toString('hex'), 'NX');
    for (const r of records) m.hset(`${PREFIX}keys`, r.id, JSON.stringify(r));
    await m.incr(`${PREFIX}keys:version`).exec();
  }

  async create(opts: { plan: string; name: string | null; rpm: number | null }): Promise<{ record: KeyRecord; key: string }> {
    const existing = new Set((await this.list()).map((r) => r.id));
    const made = makeKey(opts, (id) => existing.has(id));
    await this.put(made.record);
    return made;
  }

  async revoke(id: string): Promise<KeyRecord> {
    const record = (await this.list()).find((r) => r.id === id);
    if (!record) throw new CliError(`no key with id ${id}`, { exitCode: EXIT.notFound });
    record.revoked_at ??= new Date().toISOString();
    await this.put(record);
    return record;
  }

  async rotate(id: string): Promise<{ record: KeyRecord; key: string }> {
    const old = (await this.list()).find((r) => r.id === id);
    if (!old) throw new CliError(`no key with id ${id}`, { exitCode: EXIT.notFound });
    if (old.revoked_at) throw new CliError(`key ${id} is revoked; create a new one instead`, { exitCode: EXIT.usage });
    const fresh = await this.create({ plan: old.plan, name: old.name, rpm: old.rpm });
    old.revoked_at = new Date().toISOString();
    old.rotated_to = fresh.record.id;
    await this.put(old);
    return fresh;
  }
}
