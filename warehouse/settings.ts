// Every setting is a row: name, environment variable, default, help. Parsed once, validated, frozen.
// README.md documents each row (test/warehouse/settings.test.ts fails when one is missing).
import path from 'node:path';
import fs from 'node:fs';
import net from 'node:net';
import { CliError } from './errors.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');

export interface SettingRow {
  name: keyof Settings;
  env: string;
  default: string;
  help: string;
}

export interface Settings {
  sources: string; // defaults to $REII_SOURCES, else ../shared/data
  artifacts: string; // defaults to ./artifacts
  state: string; // defaults to ./var
  keepBuilds: number; // defaults to 3
  port: number; // defaults to $PORT, else 8080
  host: string; // defaults to 127.0.0.1
  duckdbThreads: number; // defaults to 2
  duckdbMemory: string; // defaults to 6GB
  logFormat: 'human' | 'json'; // defaults to human
  shardCacheMb: number; // defaults to 64
  requestTimeoutMs: number; // defaults to 10000
  liveTimeoutMs: number; // defaults to 5000: a valuation or research answer past it is a 504 upstream_timeout
  refusalHoldMs: number; // defaults to 1000: a caller's repeated 429 is held this long (api/refusals.ts)
  drainTimeoutMs: number; // defaults to 10000: after SIGTERM, whatever is still open this long is cut (api/server.ts)
  trustedProxies: string; // defaults to '' (X-Forwarded-For ignored); validated IPs/CIDRs, comma-separated
  stepFilter: string; // defaults to '' (every step)
  redisUrl: string; // defaults to '' (limits in this process)
  webhooksAllowPrivate: string; // webhooks settings: passed to api/webhooks by api/server.ts (webhookOptions)
  webhooksRetrySchedule: string;
  webhooksTimeoutMs: string;
  webhooksTickMs: string;
  autocompleteBudgetMs: string; // read by live/autocomplete/endpoint.ts through LiveBuild.settings
  llmUrl: string; // read by live/research/endpoint.ts through LiveBuild.settings; defaults to '' (no rephrase)
  llmModel: string;
  llmKey: string;
  llmTimeoutMs: string;
  geographyRequired: boolean; // defaults to true: a canonical folder without the geography folders beside it fails the build
  rejectMaxShare: number; // defaults to 0.05: a source file whose rejected-row share passes it fails the build
  driftMedianFactor: number; // defaults to 3: a market median moving by more than this factor against the build replaced fails a data test
  driftRowsShare: number; // defaults to 0.5: a table's row count changing by more than this share against the build replaced fails a data test
  driftSourcesGone: string; // source ids, comma-separated and normalised, allowed to go absent against the build replaced; empty: none
  corsOrigins: string; // comma-separated origins whose browser pages may call keyed endpoints, or `*`; empty: none
}

export const SETTINGS: readonly SettingRow[] = [
  { name: 'sources', env: 'REII_SOURCES', default: '../shared/data', help: 'Folder of raw source folders (laid out like ../shared/data) read by `reii build`.' },
  { name: 'artifacts', env: 'REII_ARTIFACTS', default: './artifacts', help: 'Where builds are written (`builds/<id>/`) and `current` points.' },
  { name: 'state', env: 'REII_STATE', default: './var', help: 'Server state: API key hashes, usage counters.' },
  { name: 'keepBuilds', env: 'REII_KEEP_BUILDS', default: '3', help: 'How many published builds to keep; older ones are pruned after a publish.' },
  { name: 'port', env: 'PORT', default: '8080', help: 'Port `reii serve` listens on (0 picks a free one).' },
  { name: 'host', env: 'REII_HOST', default: '127.0.0.1', help: 'Address `reii serve` binds.' },
  { name: 'duckdbThreads', env: 'REII_DUCKDB_THREADS', default: '2', help: 'DuckDB worker threads during a build.' },
  { name: 'duckdbMemory', env: 'REII_DUCKDB_MEMORY', default: '6GB', help: 'DuckDB memory_limit during a build (the build process peaks near it on large inputs).' },
  { name: 'logFormat', env: 'REII_LOG', default: 'human', help: 'Build log format: human (progress) or json (JSON lines for cron).' },
  { name: 'shardCacheMb', env: 'REII_SHARD_CACHE_MB', default: '64', help: 'Server in-memory cache of hot shard files, in MiB.' },
  { name: 'stepFilter', env: 'REII_STEP_FILTER', default: '', help: 'Development aid: comma-separated substrings; only step files whose name contains one run (sources always run). Empty runs every step.' },
  { name: 'redisUrl', env: 'REII_REDIS_URL', default: '', help: 'Redis for limits, usage, keys and webhooks shared by several API instances (redis://host:port); empty keeps them in this process and ./var.' },
  { name: 'webhooksAllowPrivate', env: 'REII_WEBHOOKS_ALLOW_PRIVATE', default: '0', help: 'Webhooks: 1 allows private, loopback and link-local target addresses (tests, private networks); 0 refuses them with 422.' },
  { name: 'webhooksRetrySchedule', env: 'REII_WEBHOOKS_RETRY_SCHEDULE', default: '', help: 'Webhooks: comma-separated retry delays (e.g. 5s,5m,30m); empty uses the built-in schedule of about three days.' },
  { name: 'webhooksTimeoutMs', env: 'REII_WEBHOOKS_TIMEOUT_MS', default: '15000', help: 'Webhooks: connect, headers and body timeout of one delivery attempt, in milliseconds.' },
  { name: 'webhooksTickMs', env: 'REII_WEBHOOKS_TICK_MS', default: '500', help: 'Webhooks: how often the server checks for a new build and due deliveries, in milliseconds.' },
  { name: 'autocompleteBudgetMs', env: 'REII_AUTOCOMPLETE_BUDGET_MS', default: '25', help: 'Autocomplete: time budget of one search; past it the answer degrades to exact street-line prefixes.' },
  { name: 'llmUrl', env: 'REII_LLM_URL', default: '', help: 'Research: an OpenAI-compatible chat completions URL that may reword research answers (a reply that changes a number, citation, place or key term is discarded); empty answers without it.' },
  { name: 'llmModel', env: 'REII_LLM_MODEL', default: 'default', help: 'Research: the model name sent to REII_LLM_URL.' },
  { name: 'llmKey', env: 'REII_LLM_KEY', default: '', help: 'Research: bearer token sent to REII_LLM_URL; empty sends none.' },
  { name: 'llmTimeoutMs', env: 'REII_LLM_TIMEOUT_MS', default: '4000', help: 'Research: how long a rewording may take, in milliseconds; past it the answer is sent as drafted.' },
  { name: 'liveTimeoutMs', env: 'REII_LIVE_TIMEOUT_MS', default: '5000', help: 'Valuation and research: time budget of one answer, in milliseconds, checked between its stages; past it the answer is a 504 upstream_timeout with Retry-After (0 times out every such request).' },
  { name: 'requestTimeoutMs', env: 'REII_REQUEST_TIMEOUT_MS', default: '10000', help: 'Server: a request (headers and body) not received within this time is answered 408 and closed.' },
  { name: 'drainTimeoutMs', env: 'REII_DRAIN_TIMEOUT_MS', default: '10000', help: 'Server: after SIGTERM (or SIGINT) the server drains: answers in flight finish; whatever is still open this long after the signal (a download its client stopped reading, say) is cut, so the process always exits.' },
  { name: 'refusalHoldMs', env: 'REII_REFUSAL_HOLD_MS', default: '1000', help: 'Server: a 429 to a caller (key, or client address without a valid key) refused again before the Retry-After of its previous 429 ran out is held this long before it is sent, so a client that ignores 429s cannot crowd out other keys; 0 sends every 429 at once.' },
  { name: 'geographyRequired', env: 'REII_GEOGRAPHY_REQUIRED', default: '1', help: 'Build: 1 fails a build whose sources folder has a `canonical/` folder without the geography folders beside it, naming them (README "Canonical format"); 0 builds anyway with a warning (unknown zips not rejected, no market tier: tests of the canonical format alone).' },
  { name: 'rejectMaxShare', env: 'REII_REJECT_MAX_SHARE', default: '0.05', help: 'Build: a source file whose share of rejected rows passes this (0-1) fails the build, naming the file and its top reasons; `current` is untouched.' },
  { name: 'driftMedianFactor', env: 'REII_DRIFT_MEDIAN_FACTOR', default: '3', help: 'Build data test: a zip\'s comps median price per sqft moving up or down by more than this factor against the build being replaced fails the build.' },
  { name: 'driftRowsShare', env: 'REII_DRIFT_ROWS_SHARE', default: '0.5', help: 'Build data test: a table\'s row count changing by more than this share of the larger of the two counts (0-1; 1 turns it off) against the build being replaced fails the build.' },
  { name: 'driftSourcesGone', env: 'REII_DRIFT_SOURCES_GONE', default: '', help: 'Build data test: comma-separated source ids (`reii sources list`) that may be absent from this build though the build being replaced loaded them (a source retired on purpose); any other source gone (its folder missing or empty) fails the build, so a lost folder never unpublishes its markets.' },
  { name: 'corsOrigins', env: 'REII_CORS_ORIGINS', default: '', help: 'Server: comma-separated origins (https://app.example.com, http://localhost:3000) whose browser pages may call the keyed endpoints with X-Service-Key (CORS), or * for any; empty allows none. Public endpoints (coverage summary, OpenAPI document, health, /docs) are open to every origin.' },
  { name: 'trustedProxies', env: 'REII_TRUSTED_PROXIES', default: '', help: 'Server: comma-separated IPs or CIDRs of load balancers; only a request from one of them has its client address taken from X-Forwarded-For (the right-most entry that is not a trusted proxy). Empty ignores X-Forwarded-For.' },
];

function intSetting(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new CliError(`setting ${name} must be a whole number from ${min} to ${max}, got "${raw}"`, { exitCode: 2 });
  }
  return n;
}

function flagSetting(name: string, raw: string): boolean {
  if (raw !== '0' && raw !== '1') throw new CliError(`setting ${name} must be 0 or 1, got "${raw}"`, { exitCode: 2 });
  return raw === '1';
}

function numberSetting(name: string, raw: string, min: number, max: number): number {
  const n = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new CliError(`setting ${name} must be a number from ${min} to ${max}, got "${raw}"`, { exitCode: 2 });
  }
  return n;
}

/** Reads the environment once; explicit overrides (CLI flags) win over environment, which wins over defaults. */
export function loadSettings(overrides: Partial<Record<keyof Settings, string | undefined>> = {}, env: NodeJS.ProcessEnv = process.env): Readonly<Settings> {
  const raw = (row: SettingRow): string => overrides[row.name] ?? env[row.env] ?? defaultFor(row);
  const get = (name: keyof Settings): string => raw(SETTINGS.find((r) => r.name === name)!);
  const logFormat = get('logFormat');
  if (logFormat !== 'human' && logFormat !== 'json') throw new CliError(`setting logFormat must be human or json, got "${logFormat}"`, { exitCode: 2 });
  const memory = get('duckdbMemory');
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(memory)) throw new CliError(`setting duckdbMemory must look like 8GB, got "${memory}"`, { exitCode: 2 });
  return Object.freeze({
    sources: path.resolve(get('sources')),
    artifacts: path.resolve(get('artifacts')),
    state: path.resolve(get('state')),
    keepBuilds: intSetting('keepBuilds', get('keepBuilds'), 1, 1000),
    port: intSetting('port', get('port'), 0, 65535),
    host: get('host'),
    duckdbThreads: intSetting('duckdbThreads', get('duckdbThreads'), 1, 256),
    duckdbMemory: memory,
    logFormat,
    shardCacheMb: intSetting('shardCacheMb', get('shardCacheMb'), 0, 65536),
    requestTimeoutMs: intSetting('requestTimeoutMs', get('requestTimeoutMs'), 100, 600_000),
    liveTimeoutMs: intSetting('liveTimeoutMs', get('liveTimeoutMs'), 0, 600_000),
    refusalHoldMs: intSetting('refusalHoldMs', get('refusalHoldMs'), 0, 60_000),
    drainTimeoutMs: intSetting('drainTimeoutMs', get('drainTimeoutMs'), 0, 600_000),
    trustedProxies: proxyList(get('trustedProxies')),
    stepFilter: get('stepFilter'),
    redisUrl: get('redisUrl'),
    webhooksAllowPrivate: get('webhooksAllowPrivate'),
    webhooksRetrySchedule: get('webhooksRetrySchedule'),
    webhooksTimeoutMs: get('webhooksTimeoutMs'),
    webhooksTickMs: get('webhooksTickMs'),
    autocompleteBudgetMs: get('autocompleteBudgetMs'),
    llmUrl: get('llmUrl'),
    llmModel: get('llmModel'),
    llmKey: get('llmKey'),
    llmTimeoutMs: get('llmTimeoutMs'),
    geographyRequired: flagSetting('geographyRequired', get('geographyRequired')),
    rejectMaxShare: numberSetting('rejectMaxShare', get('rejectMaxShare'), 0, 1),
    driftMedianFactor: numberSetting('driftMedianFactor', get('driftMedianFactor'), 1, 1000),
    driftRowsShare: numberSetting('driftRowsShare', get('driftRowsShare'), 0, 1),
    driftSourcesGone: idList('driftSourcesGone', get('driftSourcesGone')),
    corsOrigins: originList(get('corsOrigins')),
  });
}

/** Comma-separated source ids (lower-case letters, digits, underscores), normalised to `a,b`; anything else refused by name. */
function idList(name: string, raw: string): string {
  const ids = raw.split(',').map((x) => x.trim()).filter((x) => x !== '');
  const bad = ids.find((id) => !/^[a-z0-9_]+$/.test(id));
  if (bad !== undefined) throw new CliError(`setting ${name} must list source ids (lower-case letters, digits and underscores, as \`reii sources list\` names them), got "${bad}"`, { exitCode: 2 });
  return ids.join(',');
}

/** Comma-separated IPs and CIDRs (v4 or v6), normalised to `a,b/n`; anything else is refused by name. */
function proxyList(raw: string): string {
  const entries = raw.split(',').map((x) => x.trim()).filter((x) => x !== '');
  for (const e of entries) {
    const [addr = '', bits, extra] = e.split('/');
    const family = net.isIP(addr);
    const max = family === 4 ? 32 : 128;
    const ok = family !== 0 && extra === undefined && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max));
    if (!ok) throw new CliError(`setting trustedProxies must be comma-separated IP addresses or CIDRs (10.0.0.0/8, fd00::/8), got "${e}"`, { exitCode: 2 });
  }
  return entries.join(',');
}

/** `*`, or comma-separated origins as a browser sends them (scheme://host[:port], no path, no default port). */
function originList(raw: string): string {
  const entries = raw.split(',').map((x) => x.trim()).filter((x) => x !== '');
  for (const e of entries) {
    let origin: string | null = null;
    try { origin = new URL(e).origin; } catch { /* not a URL */ }
    if (e !== '*' && (origin === null || origin === 'null' || origin !== e.toLowerCase())) {
      throw new CliError(`setting corsOrigins must be * or comma-separated origins (https://app.example.com, http://localhost:3000), got "${e}"`, { exitCode: 2 });
    }
  }
  return entries.join(',');
}

function defaultFor(row: SettingRow): string {
  if (row.name === 'sources') {
    // ../shared/data beside the checkout, resolved from the repository so any working directory works.
    const shared = path.resolve(REPO_ROOT, '../shared/data');
    return fs.existsSync(shared) ? shared : path.resolve(row.default);
  }
  if (row.name === 'artifacts' || row.name === 'state') return path.resolve(REPO_ROOT, row.default);
  return row.default;
}
