// The plan table (api/plans.json): which plan first includes each endpoint group, and its limits.
import fs from 'node:fs';
import path from 'node:path';

export type Group = 'public' | 'account' | 'address' | 'geo' | 'location' | 'market' | 'valuation' | 'property' | 'regulations' | 'legal' | 'research' | 'webhooks' | 'export';

export interface Plan {
  name: string;
  rank: number;
  callsPerMonth: number | null; // null = unlimited
  requestsPerMinute: number | null; // null = unlimited (enterprise unless the key sets one)
  groups: ReadonlySet<Group>; // every group of this plan and the plans below it
}

interface PlansFile {
  plans: Record<string, { rank: number; calls_per_month: number | null; requests_per_minute: number | null; adds_groups: Group[] }>;
  anonymous: { requests_per_minute: number; failed_auth_per_10_minutes: number };
}

const file = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'plans.json'), 'utf8')) as PlansFile;

const ALL_GROUPS = new Set(Object.values(file.plans).flatMap((p) => p.adds_groups));

export const PLANS: ReadonlyMap<string, Plan> = new Map(
  Object.entries(file.plans)
    .sort((a, b) => a[1].rank - b[1].rank)
    .map(([name, p]) => {
      const groups = new Set<Group>(
        p.rank === Math.max(...Object.values(file.plans).map((q) => q.rank))
          ? ALL_GROUPS // the top plan has everything
          : Object.values(file.plans).filter((q) => q.rank <= p.rank).flatMap((q) => q.adds_groups),
      );
      return [name, Object.freeze({ name, rank: p.rank, callsPerMonth: p.calls_per_month, requestsPerMinute: p.requests_per_minute, groups })];
    }),
);

export const ANONYMOUS = Object.freeze({ requestsPerMinute: file.anonymous.requests_per_minute, failedAuthPer10Min: file.anonymous.failed_auth_per_10_minutes });

/** The lowest plan that includes a group. */
export function planFor(group: Group): string {
  for (const plan of PLANS.values()) if (plan.groups.has(group)) return plan.name;
  return 'enterprise';
}

export function isPlan(name: string): boolean {
  return PLANS.has(name);
}
