// The only place shard paths are spelled. The shard writer (pipelines/shards/index.ts) and the API
// (api/routes.ts) both call shardPath(); it never throws and never returns a path outside the tree.

export const FORMAT_VERSION = 1;

/** URL slug of a city name; the SQL macro slug() in warehouse/macros.sql is the same rule. */
export function slug(s: string): string {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

type Keys = Record<string, string | null | undefined>;
interface Family {
  /** Key columns a shard .sql returns beside `body`, in path order. */
  keys: readonly string[];
  path(k: Keys): string | null;
}

const ZIP = /^\d{5}$/;
const STATE = /^[A-Z]{2}$/;
const MONTHS = /^(?:[3-9]|1\d|2[0-4])$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ok = (re: RegExp, v: string | null | undefined): v is string => typeof v === 'string' && re.test(v);
const citySlug = (v: string | null | undefined): string | null => {
  if (typeof v !== 'string') return null;
  const s = slug(v);
  return SLUG.test(s) && s.length <= 80 ? s : null;
};

export const FAMILIES = {
  'geo-states': { keys: [], path: () => 'geo/states.json' },
  'geo-lookup': {
    keys: ['state', 'city'],
    path: (k) => { const c = citySlug(k['city']); return ok(STATE, k['state']) && c ? `geo/lookup/${k['state']}/${c}.json` : null; },
  },
  'geo-markets': {
    // tier: primary|secondary|tertiary|rural|all; investor_active: 'true' for the active-only list
    keys: ['state', 'tier', 'investor_active'],
    path: (k) => {
      const tier = k['tier'] ?? 'all';
      if (!ok(STATE, k['state']) || !/^(all|primary|secondary|tertiary|rural)$/.test(tier)) return null;
      return `geo/markets/${k['state']}/${tier}${k['investor_active'] === 'true' ? '-active' : ''}.json`;
    },
  },
  'coverage': { keys: [], path: () => 'coverage/summary.json' },
  'comps': {
    keys: ['zip', 'property_type', 'months'],
    path: (k) => ok(ZIP, k['zip']) && ok(/^(sfr|multi|condo|land|commercial)$/, k['property_type']) && ok(MONTHS, k['months'])
      ? `market/comps/${k['zip']}/${k['property_type']}-${k['months']}.json` : null,
  },
  'rehab': {
    keys: ['zip', 'months'],
    path: (k) => ok(ZIP, k['zip']) && ok(MONTHS, k['months']) ? `market/rehab/${k['zip']}/${k['months']}.json` : null,
  },
  'trends': {
    // issue 23: one shard per market (a zip, or a state + city) and property type, holding the market's 60 months
    keys: ['zip', 'state', 'city', 'property_type'],
    path: (k) => {
      if (!ok(/^(sfr|multi|condo|land|commercial)$/, k['property_type'])) return null;
      if (k['zip'] != null) return ok(ZIP, k['zip']) ? `market/trends/zip/${k['zip']}/${k['property_type']}.json` : null;
      const c = citySlug(k['city']);
      return ok(STATE, k['state']) && c ? `market/trends/city/${k['state']}/${c}/${k['property_type']}.json` : null;
    },
  },
  'investor': {
    keys: ['state', 'city', 'months'],
    path: (k) => { const c = citySlug(k['city']); return ok(STATE, k['state']) && c && ok(MONTHS, k['months']) ? `market/investor/${k['state']}/${c}/${k['months']}.json` : null; },
  },
  'location-zip': { keys: ['zip'], path: (k) => ok(ZIP, k['zip']) ? `location/zip/${k['zip']}.json` : null },
  'regulations': { keys: ['state'], path: (k) => ok(STATE, k['state']) ? `regulations/${k['state']}.json` : null },
  'legal-market-risk': {
    keys: ['state', 'city'],
    path: (k) => { const c = citySlug(k['city']); return ok(STATE, k['state']) && c ? `legal/market-risk/${k['state']}/${c}.json` : null; },
  },
  'legal-landlord': {
    // city optional: '_state' holds the state-level profile
    keys: ['state', 'city'],
    path: (k) => {
      if (!ok(STATE, k['state'])) return null;
      if (k['city'] == null || k['city'] === '') return `legal/landlord/${k['state']}/_state.json`;
      const c = citySlug(k['city']);
      return c ? `legal/landlord/${k['state']}/${c}.json` : null;
    },
  },
  'legal-tax-sale': { keys: ['state'], path: (k) => ok(STATE, k['state']) ? `legal/tax-sale/${k['state']}.json` : null },
} satisfies Record<string, Family>;

export type FamilyName = keyof typeof FAMILIES;

export type ShardPath = { ok: true; path: string } | { ok: false; reason: string };

export function isFamily(name: string): name is FamilyName {
  return Object.hasOwn(FAMILIES, name);
}

export function shardPath(family: FamilyName, keys: Keys = {}): ShardPath {
  const p = (FAMILIES[family] as Family).path(keys);
  return p ? { ok: true, path: p } : { ok: false, reason: `no ${family} shard for ${JSON.stringify(keys)}` };
}
