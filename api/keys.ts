// API keys: `ries_live_<id>_<secret>` (base62). Only sha256(secret) is stored, in <state>/keys.json,
// compared with timingSafeEqual. A running server re-reads the file when it changes (within a second).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CliError, EXIT } from '../warehouse/errors.ts';
import { isPlan, PLANS } from './plans.ts';

export interface KeyRecord {
  id: string;
  name: string | null;
  plan: string;
  rpm: number | null; // per-minute override; null = the plan's
  sha256: string; // hex digest of the secret part
  created_at: string;
  revoked_at: string | null;
  rotated_to: string | null;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The shape of a key: `ries_live_<8-character id>_<32-character secret>`. */
export const KEY_RE = /^ries_live_([0-9A-Za-z]{8})_([0-9A-Za-z]{32})$/;
const DUMMY = crypto.createHash('sha256').update('no such key').digest();

function base62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of crypto.randomBytes(n * 2)) {
      if (b < 248 && out.length < n) out += BASE62[b % 62]; // 248 = 4 * 62: no modulo bias
    }
  }
  return out;
}

const digest = (s: string): Buffer => crypto.createHash('sha256').update(s).digest();

export type KeyCheck =
  | { ok: true; record: KeyRecord }
  | { ok: false; code: 'key_missing' | 'key_invalid' | 'key_revoked' };

/** What the server needs of a key registry: a check against the keys it holds. Synchronous for a known key;
 *  a registry that must ask a remote store about a key it does not know yet may answer with a promise. */
export interface KeyChecker {
  check(header: string | undefined): KeyCheck | Promise<KeyCheck>;
  close(): void;
}

/** Checks a presented key against records by id, in constant time whether or not the id exists. */
export function checkKey(byId: ReadonlyMap<string, KeyRecord>, header: string | undefined): KeyCheck {
  if (header === undefined || header.trim() === '') return { ok: false, code: 'key_missing' };
  const m = KEY_RE.exec(header.trim());
  const record = m ? byId.get(m[1]!) : undefined;
  const equal = crypto.timingSafeEqual(digest(m?.[2] ?? header), record ? Buffer.from(record.sha256, 'hex') : DUMMY);
  if (!record || !equal) return { ok: false, code: 'key_invalid' };
  if (record.revoked_at) return { ok: false, code: 'key_revoked' };
  return { ok: true, record };
}

/** A new key and its record (the record holds only the secret's hash). */
export function makeKey(opts: { plan: string; name: string | null; rpm: number | null }, taken: (id: string) => boolean): { record: KeyRecord; key: string } {
  if (!isPlan(opts.plan)) throw new CliError(`unknown plan "${opts.plan}"; plans are ${[...PLANS.keys()].join(', ')}`, { exitCode: EXIT.usage });
  let id = base62(8);
  while (taken(id)) id = base62(8);
  const secret = base62(32);
  const record: KeyRecord = { id, name: opts.name, plan: opts.plan, rpm: opts.rpm, sha256: digest(secret).toString('hex'), created_at: new Date().toISOString(), revoked_at: null, rotated_to: null };
  return { record, key: `ries_live_${id}_${secret}` };
}

export class KeyStore implements KeyChecker {
  readonly file: string;
  private byId = new Map<string, KeyRecord>();
  private stamp = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(stateDir: string) {
    this.file = path.join(stateDir, 'keys.json');
    this.reload();
  }

  /** Re-reads keys.json when its size or mtime changed. */
  reload(): void {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch {
      this.byId = new Map();
      this.checked = new Map();
      this.stamp = '';
      return;
    }
    const stamp = `${stat.mtimeMs}:${stat.size}`;
    if (stamp === this.stamp) return;
    try {
      const records = JSON.parse(fs.readFileSync(this.file, 'utf8')) as KeyRecord[];
      this.byId = new Map(records.map((r) => [r.id, r]));
      this.checked = new Map();
      this.stamp = stamp;
    } catch {
      // A half-written file cannot happen (writes are renames); an edited-by-hand broken file keeps the last good set.
    }
  }

  /** Polls the file so creations and revocations reach a running server within `ms`. */
  watch(ms = 250): void {
    this.timer ??= setInterval(() => this.reload(), ms);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  list(): KeyRecord[] {
    return [...this.byId.values()].sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  private checked = new Map<string, KeyCheck>();

  /** Checks a key; results are remembered per presented value until the key file changes. */
  check(header: string | undefined): KeyCheck {
    if (header === undefined) return checkKey(this.byId, header);
    const hit = this.checked.get(header);
    if (hit?.ok) return hit;
    // A key that fails is looked up once more after a stat of the file (microseconds; failing keys are
    // throttled per address), so a key made a moment ago by `reii keys create` works at once, not on the next poll.
    this.reload();
    const again = this.checked.get(header);
    if (again) return again;
    const result = checkKey(this.byId, header);
    if (this.checked.size >= 10_000) this.checked.clear(); // bounded: random keys cannot grow it
    this.checked.set(header, result);
    return result;
  }

  create(opts: { plan: string; name: string | null; rpm: number | null }): { record: KeyRecord; key: string } {
    this.reload();
    const made = makeKey(opts, (id) => this.byId.has(id));
    this.byId.set(made.record.id, made.record);
    this.save();
    return made;
  }

  revoke(id: string): KeyRecord {
    this.reload();
    const record = this.byId.get(id);
    if (!record) throw new CliError(`no key with id ${id}`, { exitCode: EXIT.notFound });
    if (!record.revoked_at) record.revoked_at = new Date().toISOString();
    this.save();
    return record;
  }

  rotate(id: string): { record: KeyRecord; key: string } {
    this.reload();
    const old = this.byId.get(id);
    if (!old) throw new CliError(`no key with id ${id}`, { exitCode: EXIT.notFound });
    if (old.revoked_at) throw new CliError(`key ${id} is revoked; create a new one instead`, { exitCode: EXIT.usage });
    const fresh = this.create({ plan: old.plan, name: old.name, rpm: old.rpm });
    old.revoked_at = new Date().toISOString();
    old.rotated_to = fresh.record.id;
    this.save();
    return fresh;
  }

  private save(): void {
    this.checked = new Map();
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.list(), null, 2) + '\n', { mode: 0o600 });
    fs.renameSync(tmp, this.file);
    const stat = fs.statSync(this.file);
    this.stamp = `${stat.mtimeMs}:${stat.size}`;
  }
}
