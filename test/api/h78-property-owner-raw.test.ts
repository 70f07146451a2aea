// GET /v1/property `owner_type` and `absentee_owner` of Philadelphia OPA and Denver parcels against the RAW files (h78 audit, gap
// b): test/helpers/oracle-raw-owner.ts reads the owner's row, name and mailing address with csv-parse and applies
// property.md's rule written out again. SOURCE.md: of the sales sources only Philadelphia's roll records an owner and
// a mailing address (Denver's deeds name a grantee, no mailing address; NYC's rolling sales, King County, Sacramento
// and Connecticut name no owner). Seeded sample: 60 parcels drawn from the whole roll, then 3 of each owner type and 5
// of each absentee reading (true, false, no mailing street) the raw rule gives, so the rare types are asked too; and
// Denver's owner type, its newest deed's grantee (40 parcels and 2 of each entity type, seed + 1).
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { rawDenverOwners, rawOpaOwners, type RawOwner } from '../helpers/oracle-raw-owner.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 78_002;
const api = serveSharedBuild('pro', 100_000);
const sample = new Map<string, RawOwner>();
let all: RawOwner[] = [];

function draw(from: RawOwner[], n: number, rnd: () => number): RawOwner[] {
  const left = [...from], out: RawOwner[] = [];
  while (out.length < n && left.length) out.push(left.splice(Math.floor(rnd() * left.length), 1)[0]!);
  return out;
}

beforeAll(() => {
  all = [...rawOpaOwners().values()].sort((a, b) => a.parcel_id.localeCompare(b.parcel_id));
  const rnd = rng(SEED);
  const picks = [...draw(all, 60, rnd),
    ...['government', 'bank', 'nonprofit', 'trust', 'corporate', 'individual'].flatMap((t) => draw(all.filter((o) => o.owner_type === t), 3, rnd)),
    ...[true, false, null].flatMap((a) => draw(all.filter((o) => o.owner && o.absentee_owner === a), 5, rnd))];
  for (const p of picks) sample.set(p.parcel_id, p);
}, 120_000);

describe(`seeded sample ${SEED}: Philadelphia owners' type and absentee reading against the raw roll`, () => {
  test('each sampled parcel answers the raw owner type and absentee reading', async () => {
    const bad: string[] = [];
    for (const o of sample.values()) {
      const res = await api.get(`/v1/property?parcel_id=${o.parcel_id}&state=PA`);
      if (res.status !== 200) { bad.push(`${o.parcel_id}: ${res.status}`); continue; }
      const b = (await res.json()) as { owner_type: string | null; absentee_owner: boolean | null };
      if (b.owner_type !== o.owner_type || b.absentee_owner !== o.absentee_owner) bad.push(`${o.parcel_id} "${o.owner}": api ${b.owner_type} ${b.absentee_owner}, raw ${o.owner_type} ${o.absentee_owner}`);
    }
    expect(bad).toEqual([]);
    const types = new Map<string, number>();
    for (const o of all) types.set(String(o.owner_type), (types.get(String(o.owner_type)) ?? 0) + 1);
    console.info(`${sample.size} parcels asked; the roll's owner types: ${JSON.stringify(Object.fromEntries(types))}`);
    expect(new Set([...sample.values()].map((o) => o.owner_type)).size).toBeGreaterThanOrEqual(5);
  }, 300_000);

  test('Denver: 40 parcels and 2 of each owner type, the newest deed\'s grantee typed, no absentee reading', async () => {
    const denver = [...rawDenverOwners().values()].sort((a, b) => a.parcel_id.localeCompare(b.parcel_id));
    const rnd = rng(SEED + 1);
    const picks = new Map([...draw(denver, 40, rnd), ...['government', 'bank', 'nonprofit', 'trust', 'corporate'].flatMap((t) => draw(denver.filter((o) => o.owner_type === t), 2, rnd))].map((o) => [o.parcel_id, o]));
    const bad: string[] = [];
    for (const o of picks.values()) {
      const res = await api.get(`/v1/property?parcel_id=${o.parcel_id}&state=CO`);
      if (res.status !== 200) { bad.push(`${o.parcel_id}: ${res.status}`); continue; }
      const b = (await res.json()) as { owner_type: string | null; absentee_owner: boolean | null };
      if (b.owner_type !== o.owner_type || b.absentee_owner !== null) bad.push(`${o.parcel_id} "${o.owner}": api ${b.owner_type} ${b.absentee_owner}, raw ${o.owner_type} null`);
    }
    expect(bad).toEqual([]);
    expect(new Set([...picks.values()].map((o) => o.owner_type)).size).toBeGreaterThanOrEqual(5);
  }, 300_000);
});
