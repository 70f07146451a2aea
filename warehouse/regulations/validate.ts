// The validator and loader of the regulation records (warehouse/regulations/{states,local}/*.json): one record
// against the schema (schema.ts: fields, vocabularies, structured_data key sets), the file layout, unique ids and the
// overlay flags of a jurisdiction. Pure TypeScript (node:fs only). SCHEMA.md documents the same rules in prose.
import fs from 'node:fs';
import path from 'node:path';
import {
  CATEGORIES, JURISDICTION_LEVELS, RECORD_FIELDS, STATE_CODES, STATUSES, SUBCATEGORY_KEYS, UNCERTAIN_TOP_LEVEL_FIELDS, UNCERTAINTY_PHRASE,
  describeKeyType, type Category, type JurisdictionLevel, type KeyType, type RegulationRecord, type Status,
} from './schema.ts';

const STATE_SET: ReadonlySet<string> = new Set(STATE_CODES);

const ID_PATTERN = /^[a-z]{2}(-[a-z0-9]+)+$/;
const FIPS_PATTERN = /^\d{5}$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

function isIsoDate(v: string): boolean {
  const m = DATE_PATTERN.exec(v);
  if (!m) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkValue(t: KeyType, v: unknown): boolean {
  if (v === null) return t.nullable;
  switch (t.kind) {
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string' && v.length > 0;
    case 'string[]':
      return Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0);
    case 'enum':
      return typeof v === 'string' && t.values.includes(v);
  }
}

/**
 * Validate one record. Returns human-readable problems, each naming the file, the record index
 * and id, and the field; an empty array means the record is valid.
 */
export function validateRecord(rec: unknown, file: string, index: number): string[] {
  const errors: string[] = [];
  const idLabel = isPlainObject(rec) && typeof rec.id === 'string' ? rec.id : '?';
  const at = (field: string, msg: string) => errors.push(`${file} [${index}] (${idLabel}): ${field}: ${msg}`);

  if (!isPlainObject(rec)) {
    at('record', 'must be a JSON object');
    return errors;
  }

  const allowed: ReadonlySet<string> = new Set(RECORD_FIELDS);
  for (const f of RECORD_FIELDS) if (!(f in rec)) at(f, 'missing');
  for (const k of Object.keys(rec)) if (!allowed.has(k)) at(k, 'not a regulation record field');

  const { id, jurisdiction_level: level, state_code: state, county_fips: fips, city, category, subcategory } = rec;

  if (typeof state !== 'string' || !STATE_SET.has(state)) at('state_code', `must be one of the 51 codes (50 states + DC), got ${JSON.stringify(state)}`);

  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    at('id', `must match ${ID_PATTERN} (lowercase, hyphen-separated), got ${JSON.stringify(id)}`);
  } else if (typeof state === 'string') {
    const prefix = state.toLowerCase();
    if (!id.startsWith(`${prefix}-`)) at('id', `must start with "${prefix}-"`);
    if (level === 'city' && !id.startsWith(`${prefix}-city-`)) at('id', `city records start with "${prefix}-city-"`);
    if (level === 'county' && !id.startsWith(`${prefix}-county-`)) at('id', `county records start with "${prefix}-county-"`);
  }

  if (!JURISDICTION_LEVELS.includes(level as JurisdictionLevel)) at('jurisdiction_level', `must be one of ${JURISDICTION_LEVELS.join(', ')}, got ${JSON.stringify(level)}`);

  if (level === 'state') {
    if (fips !== null) at('county_fips', 'must be null on state records');
    if (city !== null) at('city', 'must be null on state records');
  } else if (level === 'county' || level === 'city') {
    if (typeof fips !== 'string' || !FIPS_PATTERN.test(fips)) at('county_fips', `must be a 5-digit county FIPS on ${level} records, got ${JSON.stringify(fips)}`);
    if (level === 'county' && city !== null) at('city', 'must be null on county records');
    if (level === 'city' && (typeof city !== 'string' || city.trim() === '')) at('city', 'must be the city name on city records');
  } else if (level === 'zip') {
    if (fips !== null && (typeof fips !== 'string' || !FIPS_PATTERN.test(fips))) at('county_fips', 'must be null or a 5-digit county FIPS');
    if (city !== null && typeof city !== 'string') at('city', 'must be null or a string');
  }

  if (!CATEGORIES.includes(category as Category)) at('category', `must be one of ${CATEGORIES.join(', ')}, got ${JSON.stringify(category)}`);
  const keySet = typeof category === 'string' && typeof subcategory === 'string' ? SUBCATEGORY_KEYS[`${category}/${subcategory}`] : undefined;
  if (typeof subcategory !== 'string' || subcategory === '') at('subcategory', 'must be a non-empty string');
  else if (!keySet) at('subcategory', `"${String(category)}/${subcategory}" has no documented key set (see SCHEMA.md)`);

  for (const f of ['title', 'summary'] as const) {
    if (typeof rec[f] !== 'string' || (rec[f] as string).trim() === '') at(f, 'must be a non-empty string');
  }

  for (const f of ['source_citation', 'source_url'] as const) {
    const v = rec[f];
    if (v !== null && (typeof v !== 'string' || v.trim() === '')) at(f, 'must be a non-empty string or null');
  }
  if (typeof rec.source_url === 'string' && !/^https?:\/\//.test(rec.source_url)) at('source_url', 'must be an http(s) URL or null');

  for (const f of ['effective_date', 'verified_at', 'last_reviewed_at'] as const) {
    const v = rec[f];
    if (v !== null && (typeof v !== 'string' || !isIsoDate(v))) at(f, `must be an ISO date (YYYY-MM-DD) or null, got ${JSON.stringify(v)}`);
  }

  if (!STATUSES.includes(rec.status as Status)) at('status', `must be one of ${STATUSES.join(', ')}, got ${JSON.stringify(rec.status)}`);

  const sd = rec.structured_data;
  if (!isPlainObject(sd)) {
    at('structured_data', 'must be an object (with at least uncertain_fields)');
    return errors;
  }
  const uf = sd.uncertain_fields;
  if (!Array.isArray(uf) || !uf.every((s) => typeof s === 'string')) {
    at('structured_data.uncertain_fields', 'must be an array of strings');
  }
  if (keySet) {
    for (const [k, t] of Object.entries(keySet)) {
      if (!(k in sd)) at(`structured_data.${k}`, `missing (expected ${describeKeyType(t)})`);
      else if (!checkValue(t, sd[k])) at(`structured_data.${k}`, `expected ${describeKeyType(t)}, got ${JSON.stringify(sd[k])}`);
    }
    for (const k of Object.keys(sd)) {
      if (k !== 'uncertain_fields' && !(k in keySet)) at(`structured_data.${k}`, `not in the key set for ${String(category)}/${String(subcategory)}`);
    }
    if (Array.isArray(uf)) {
      const nameable = new Set<string>([...Object.keys(keySet), ...UNCERTAIN_TOP_LEVEL_FIELDS]);
      for (const name of uf) {
        if (typeof name === 'string' && !nameable.has(name)) at('structured_data.uncertain_fields', `"${name}" is neither a key of this subcategory nor one of ${UNCERTAIN_TOP_LEVEL_FIELDS.join(', ')}`);
      }
      if (uf.length > 0 && typeof rec.summary === 'string' && !UNCERTAINTY_PHRASE.test(rec.summary)) {
        at('summary', 'record has uncertain_fields, so the summary must say "unverified" or "sources conflict"');
      }
    }
  }
  return errors;
}

function readJsonArray(file: string, errors: string[]): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    errors.push(`${file}: not valid JSON (${(err as Error).message})`);
    return [];
  }
  if (!Array.isArray(parsed)) {
    errors.push(`${file}: must contain a JSON array of regulation records`);
    return [];
  }
  return parsed;
}

/**
 * Read every *.json under `dir`/states and `dir`/local, validate each record and the file layout
 * (states/XX.json holds state-level records for XX; local/xx-*.json holds city/county records for XX),
 * and check ids are unique. Records with problems are left out of `records`.
 */
export function loadRegulations(dir: string): { records: RegulationRecord[]; errors: string[] } {
  const records: RegulationRecord[] = [];
  const errors: string[] = [];
  const seen = new Map<string, string>();

  for (const sub of ['states', 'local'] as const) {
    const folder = path.join(dir, sub);
    if (!fs.existsSync(folder)) {
      errors.push(`${folder}: folder missing`);
      continue;
    }
    const files = fs.readdirSync(folder).filter((f) => f.endsWith('.json')).sort();
    for (const name of files) {
      const file = path.join(folder, name);
      const rel = `${sub}/${name}`;
      const fileState = sub === 'states' ? /^([A-Z]{2})\.json$/.exec(name)?.[1] : /^([a-z]{2})-[a-z0-9-]+\.json$/.exec(name)?.[1]?.toUpperCase();
      if (!fileState || !STATE_SET.has(fileState)) {
        errors.push(`${rel}: file name must be ${sub === 'states' ? 'XX.json (state code)' : 'xx-<slug>.json (lowercase state code first)'}`);
        continue;
      }
      readJsonArray(file, errors).forEach((rec, i) => {
        const problems = validateRecord(rec, rel, i);
        const r = rec as Partial<RegulationRecord>;
        if (problems.length === 0) {
          if (r.state_code !== fileState) problems.push(`${rel} [${i}] (${r.id}): state_code: ${r.state_code} does not match the file (${fileState})`);
          if (sub === 'states' && r.jurisdiction_level !== 'state') problems.push(`${rel} [${i}] (${r.id}): jurisdiction_level: states/ files hold state records only`);
          if (sub === 'local' && r.jurisdiction_level === 'state') problems.push(`${rel} [${i}] (${r.id}): jurisdiction_level: local/ files hold city, county or zip records`);
        }
        if (typeof r.id === 'string') {
          const first = seen.get(r.id);
          if (first) problems.push(`${rel} [${i}] (${r.id}): id: duplicate (first seen in ${first})`);
          else seen.set(r.id, rel);
        }
        if (problems.length > 0) errors.push(...problems);
        else records.push(rec as RegulationRecord);
      });
    }
  }
  errors.push(...overlayFlagConflicts(records));
  return { records, errors };
}

/** SCHEMA.md: the two overlay flags describe a jurisdiction as a whole, so every active local_overlay record of
 *  one jurisdiction must carry the same `rent_control` and `eviction_protections` values. */
function overlayFlagConflicts(records: readonly RegulationRecord[]): string[] {
  const first = new Map<string, RegulationRecord>();
  const errors: string[] = [];
  for (const r of records) {
    if (r.subcategory !== 'local_overlay' || r.status !== 'active' || !r.structured_data) continue;
    if (r.jurisdiction_level !== 'county' && r.structured_data['unincorporated_only'] === true) {
      errors.push(`${r.id}: structured_data.unincorporated_only: only a county record can cover unincorporated areas only`);
    }
    const where = `${r.state_code}/${r.jurisdiction_level}/${r.county_fips ?? ''}/${r.city ?? ''}`;
    const seen = first.get(where);
    if (!seen) { first.set(where, r); continue; }
    for (const flag of ['rent_control', 'eviction_protections'] as const) {
      if (seen.structured_data![flag] !== r.structured_data[flag]) {
        errors.push(`${r.id}: structured_data.${flag}: ${String(r.structured_data[flag])} differs from ${seen.id} (${String(seen.structured_data![flag])}); every overlay record of a jurisdiction carries the same flags`);
      }
    }
  }
  return errors;
}
