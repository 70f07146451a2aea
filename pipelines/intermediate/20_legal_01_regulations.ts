// regulations: one row per regulation record of warehouse/regulations/{states,local}/*.json (every status),
// with the spec's sixteen fields, structured_data as JSON and its uncertain_fields as a list.
// The dataset is validated first (warehouse/regulations/validate.ts): any invalid record fails the build, so a
// broken edit can never publish. Also writes int_legal_state_names (the 51 jurisdictions' names), so the legal
// domain does not depend on the Census state source being present. Docs: warehouse/docs/legal.md.
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { STATE_NAMES } from '../../warehouse/regulations/schema.ts';
import { loadRegulations } from '../../warehouse/regulations/validate.ts';

/** The committed dataset (tests pass their own folder to run()). */
export const REGULATIONS_DIR = path.resolve(import.meta.dirname, '../../warehouse/regulations');



export async function run(ctx: StageContext, dir = REGULATIONS_DIR): Promise<void> {
  const { records, errors } = loadRegulations(dir);
  if (errors.length > 0) {
    const shown = errors.slice(0, 10).map((e) => `  - ${e}`).join('\n');
    throw new Error(`the regulations dataset (${dir}) is invalid: ${errors.length} problem(s); the build refuses it.\n${shown}${errors.length > 10 ? `\n  ... and ${errors.length - 10} more` : ''}`);
  }
  if (records.length === 0) throw new Error(`the regulations dataset (${dir}) holds no records`);

  await ctx.db.run(`
    create or replace table regulations (
        id varchar primary key,
        jurisdiction_level varchar not null,
        state_code varchar not null,
        county_fips varchar,
        city varchar,
        category varchar not null,
        subcategory varchar not null,
        title varchar not null,
        summary varchar not null,
        structured_data json,
        source_citation varchar,
        source_url varchar,
        effective_date date,
        status varchar not null,
        verified_at date,
        last_reviewed_at date,
        uncertain_fields varchar[] not null
    )`);
  // One bound JSON text, unnested in SQL: values never become SQL text.
  await ctx.db.run(`
    insert into regulations
    with recs as (
        select unnest(json_extract($data::json, '$[*]')) as r
    )
    select
        r->>'id',
        r->>'jurisdiction_level',
        r->>'state_code',
        r->>'county_fips',
        r->>'city',
        r->>'category',
        r->>'subcategory',
        r->>'title',
        r->>'summary',
        case when json_type(r->'structured_data') = 'OBJECT' then r->'structured_data' end,
        r->>'source_citation',
        r->>'source_url',
        cast(r->>'effective_date' as date),
        r->>'status',
        cast(r->>'verified_at' as date),
        cast(r->>'last_reviewed_at' as date),
        coalesce(from_json(r->'structured_data'->'uncertain_fields', '["VARCHAR"]'), []::varchar[]),
    from recs`, { data: JSON.stringify(records) });

  await ctx.db.run(`create or replace table int_legal_state_names (state_code varchar primary key, state_name varchar not null)`);
  await ctx.db.run(`
    insert into int_legal_state_names
    select k as state_code, $names::json->>k as state_name
    from (select unnest(json_keys($names::json)) as k)`, { names: JSON.stringify(STATE_NAMES) });
}
