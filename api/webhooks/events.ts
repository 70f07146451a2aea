// The events a newly published build raises, found by comparing it with the build served before it:
//   build.published             always (ids, as_of, counts from the build manifest)
//   market.rehab_label_changed  a zip's 6-month rehab label differs (shards market/rehab/<zip>/6.json of both)
//   regulation.changed          a regulation record added, changed or expired (shards regulations/<STATE>.json,
//                               compared by id and a content hash that ignores review dates)
// A family absent from the previous build raises nothing (a first load is not a change). Event ids are stable:
// evt_<build>_<kind>_<key>, so an event re-emitted after a crash is de-duplicated by the outbox and receivers.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { EventType } from './store.ts';

export const PAYLOAD_VERSION = 1;

export interface WebhookEvent {
  type: EventType;
  version: typeof PAYLOAD_VERSION;
  id: string;
  timestamp: string; // Standard Webhooks payload field: ISO 8601 UTC time the event was raised
  data: Record<string, unknown>;
}

export interface BuildRef {
  dir: string;
  buildId: string;
}

interface BuildManifest {
  build_id?: string;
  as_of?: string;
  built_at?: string;
  shards?: { total?: number; by_family?: Record<string, number> };
  tables?: { name: string; rows: number }[];
  rejects?: { total?: number };
}

const REHAB_MONTHS = 6;
const REVIEW_FIELDS = new Set(['verified_at', 'last_reviewed_at']);

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Event ids keep to [A-Za-z0-9_.-]: other characters of a key become '-'. */
export function eventId(buildId: string, kind: string, key: string): string {
  return `evt_${buildId}_${kind}${key ? `_${key.replace(/[^A-Za-z0-9_.-]/g, '-')}` : ''}`;
}

function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stableStringify((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** sha256 of a regulation record's content, review dates left out (a re-review that changes nothing is no change). */
export function regulationHash(rec: Record<string, unknown>): string {
  const content = Object.fromEntries(Object.entries(rec).filter(([k]) => !REVIEW_FIELDS.has(k)));
  return crypto.createHash('sha256').update(stableStringify(content)).digest('hex');
}

interface Rehab {
  zip_code?: string;
  city?: string;
  state?: string;
  label?: string;
  rehab_momentum_score?: number;
  as_of?: string;
}

async function rehabLabels(buildDir: string): Promise<Map<string, Rehab> | null> {
  const root = path.join(buildDir, 'shards', 'market', 'rehab');
  if (!fs.existsSync(root)) return null;
  const out = new Map<string, Rehab>();
  const zips = listDir(root).filter((z) => /^\d{5}$/.test(z));
  const BATCH = 256;
  for (let i = 0; i < zips.length; i += BATCH) {
    const part = zips.slice(i, i + BATCH);
    const bodies = await Promise.all(part.map((z) => fs.promises.readFile(path.join(root, z, `${REHAB_MONTHS}.json`), 'utf8').then((t) => JSON.parse(t) as Rehab, () => null)));
    part.forEach((z, j) => { const b = bodies[j]; if (b && typeof b.label === 'string') out.set(z, b); });
  }
  return out;
}

type Regulation = Record<string, unknown> & { id?: string; status?: string };

function regulations(buildDir: string): Map<string, Regulation> | null {
  const root = path.join(buildDir, 'shards', 'regulations');
  if (!fs.existsSync(root)) return null;
  const out = new Map<string, Regulation>();
  for (const f of listDir(root).filter((n) => /^[A-Z]{2}\.json$/.test(n))) {
    const recs = readJson<Regulation[]>(path.join(root, f)) ?? [];
    for (const r of recs) if (typeof r.id === 'string') out.set(r.id, r);
  }
  return out;
}

function regulationData(change: 'added' | 'changed' | 'expired', r: Regulation, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    change,
    regulation_id: r.id,
    state: r['state_code'] ?? null,
    jurisdiction_level: r['jurisdiction_level'] ?? null,
    county_fips: r['county_fips'] ?? null,
    city: r['city'] ?? null,
    category: r['category'] ?? null,
    subcategory: r['subcategory'] ?? null,
    title: r['title'] ?? null,
    status: change === 'expired' ? 'expired' : (r.status ?? null),
    effective_date: r['effective_date'] ?? null,
    source_url: r['source_url'] ?? null,
    ...extra,
  };
}

/** Every event of the move from `prev` (null: nothing served before) to `next`. */
export async function buildEvents(prev: BuildRef | null, next: BuildRef, now: Date): Promise<WebhookEvent[]> {
  const created = now.toISOString();
  const manifest = readJson<BuildManifest>(path.join(next.dir, 'manifest.json')) ?? {};
  const common = { build_id: next.buildId, previous_build_id: prev?.buildId ?? null };
  const events: WebhookEvent[] = [];
  const ev = (type: EventType, kind: string, key: string, data: Record<string, unknown>): WebhookEvent =>
    ({ type, version: PAYLOAD_VERSION, id: eventId(next.buildId, kind, key), timestamp: created, data });

  const prevUsable = prev && fs.existsSync(prev.dir) ? prev : null;
  // market.rehab_label_changed
  let rehabChanges = 0;
  if (prevUsable) {
    const [a, b] = await Promise.all([rehabLabels(prevUsable.dir), rehabLabels(next.dir)]);
    if (a && b) {
      for (const [zip, now6] of b) {
        const was = a.get(zip);
        if (!was || was.label === now6.label) continue;
        rehabChanges++;
        events.push(ev('market.rehab_label_changed', 'rehab', zip, {
          ...common, zip_code: zip, city: now6.city ?? null, state: now6.state ?? null, months: REHAB_MONTHS,
          previous_label: was.label, label: now6.label,
          previous_score: was.rehab_momentum_score ?? null, rehab_momentum_score: now6.rehab_momentum_score ?? null,
          as_of: now6.as_of ?? manifest.as_of ?? null,
        }));
      }
    }
  }
  // regulation.changed
  let regulationChanges = 0;
  if (prevUsable) {
    const a = regulations(prevUsable.dir);
    const b = regulations(next.dir);
    if (a && b) {
      for (const [id, r] of b) {
        const was = a.get(id);
        const hash = regulationHash(r);
        if (!was) {
          regulationChanges++;
          events.push(ev('regulation.changed', 'regulation', id, regulationData(r.status === 'expired' ? 'expired' : 'added', r, { ...common, changed_fields: [], previous_hash: null, hash })));
          continue;
        }
        const prevHash = regulationHash(was);
        if (prevHash === hash) continue;
        const fields = [...new Set([...Object.keys(r), ...Object.keys(was)])]
          .filter((k) => !REVIEW_FIELDS.has(k) && stableStringify(r[k]) !== stableStringify(was[k])).sort();
        regulationChanges++;
        const change = r.status === 'expired' && was.status !== 'expired' ? 'expired' : 'changed';
        events.push(ev('regulation.changed', 'regulation', id, regulationData(change, r, { ...common, changed_fields: fields, previous_hash: prevHash, hash })));
      }
      for (const [id, was] of a) {
        if (b.has(id)) continue;
        // Shards hold active records only: a record gone from them expired (or was withdrawn).
        regulationChanges++;
        events.push(ev('regulation.changed', 'regulation', id, regulationData('expired', was, { ...common, changed_fields: ['status'], previous_hash: regulationHash(was), hash: null })));
      }
    }
  }
  const tables = Object.fromEntries((manifest.tables ?? []).filter((t) => !t.name.includes('.') && !t.name.startsWith('int_')).map((t) => [t.name, t.rows]));
  events.unshift(ev('build.published', 'build', 'published', {
    ...common,
    as_of: manifest.as_of ?? null,
    built_at: manifest.built_at ?? null,
    shards: { total: manifest.shards?.total ?? 0, by_family: manifest.shards?.by_family ?? {} },
    tables,
    rejected_rows: manifest.rejects?.total ?? 0,
    changes: { rehab_labels: rehabChanges, regulations: regulationChanges },
  }));
  return events;
}

export function testEvent(endpointId: string, now: Date): WebhookEvent {
  return {
    type: 'webhook.test', version: PAYLOAD_VERSION,
    id: `evt_test_${now.getTime()}_${crypto.randomBytes(4).toString('hex')}`,
    timestamp: now.toISOString(),
    data: { endpoint_id: endpointId, message: 'A test event sent on request (POST /v1/webhooks/{id}/test).' },
  };
}
