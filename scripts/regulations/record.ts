// One state regulation record and what every record builder shares (scripts/author-regulations.ts): the record
// maker (id, fixed fields, uncertain_fields, the review date), the small wording helpers, and the context of one
// reference row (the state's names, notes, the reference's uncertain columns, citations).
import { UNCERTAINTY_PHRASE, type Category, type RegulationRecord, type StructuredData } from '../../warehouse/regulations/schema.ts';
import { CITE_OVERRIDES, statuteOf } from './citations.ts';
import { NOTES, type StateNotes } from './notes.ts';

const REVIEWED = '2026-11-21';

export type Row = Record<string, string>;

export const fmt = (n: number) => String(n);
export const plural = (n: number, unit: string) => `${fmt(n)} ${unit}${n === 1 ? '' : 's'}`;
export const num = (v: string | undefined): number | null => (v === undefined || v.trim() === '' || v.trim() === 'none' ? null : Number(v));

function slug(category: Category, subcategory: string): string {
  return `${category}-${subcategory}`.replaceAll('_', '-');
}

export function make(
  st: string,
  category: Category,
  subcategory: string,
  fields: {
    title: string;
    summary: string;
    data: Record<string, unknown>;
    uncertain?: string[];
    cite?: string | null;
    url?: string | null;
    effective?: string | null;
    status?: 'active' | 'pending';
    idSuffix?: string;
  },
): RegulationRecord {
  const uncertain = new Set(fields.uncertain ?? []);
  // A summary that carries a caveat marks the record uncertain even when no single value is in doubt.
  if (uncertain.size === 0 && UNCERTAINTY_PHRASE.test(fields.summary)) uncertain.add('summary');
  const structured: StructuredData = { ...fields.data, uncertain_fields: [...uncertain] };
  return {
    id: `${st.toLowerCase()}-${slug(category, subcategory)}${fields.idSuffix ? `-${fields.idSuffix}` : ''}`,
    jurisdiction_level: 'state',
    state_code: st,
    county_fips: null,
    city: null,
    category,
    subcategory,
    title: fields.title,
    summary: fields.summary,
    structured_data: structured,
    source_citation: fields.cite ?? null,
    source_url: fields.url ?? null,
    effective_date: fields.effective ?? null,
    status: fields.status ?? 'active',
    verified_at: null,
    last_reviewed_at: REVIEWED,
  };
}

/** Reference column names listed in uncertain_fields, without their parenthetical comments. */
function referenceUncertain(row: Row): Set<string> {
  return new Set(
    (row.uncertain_fields ?? '')
      .split(';')
      .map((s) => s.replace(/\(.*\)/, '').trim())
      .filter(Boolean),
  );
}

export const join = (...parts: (string | undefined | false)[]) => parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' ');
const UNCERTAIN_NOTE = 'Unverified: sources conflict on this point.';

/** One reference row as the record builders read it (ownership.ts, tenancy.ts, purchase.ts). */
export interface StateCtx {
  row: Row;
  st: string;
  name: string;
  Name: string;
  notes: StateNotes;
  unc: Set<string>;
  cite: (key: 'deposit' | 'notice' | 'ap' | 'preemption' | 'tax', column: string) => string | null;
  flagged: (s: string) => string;
}

export function stateContext(row: Row): StateCtx {
  const st = row.state_code!;
  const name = st === 'DC' ? 'the District of Columbia' : row.state_name!;
  const Name = st === 'DC' ? 'The District of Columbia' : row.state_name!;
  const notes = NOTES[st] ?? {};
  const unc = referenceUncertain(row);
  const over = CITE_OVERRIDES[st] ?? {};
  const cite = (key: 'deposit' | 'notice' | 'ap' | 'preemption' | 'tax', column: string) => (key in over ? over[key] ?? null : statuteOf(row[column]));
  const flagged = (s: string) => (/unverified|sources conflict/i.test(s) ? s : join(s, UNCERTAIN_NOTE));
  return { row, st, name, Name, notes, unc, cite, flagged };
}
