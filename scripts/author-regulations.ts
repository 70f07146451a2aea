// Authoring tool for the state regulation files (warehouse/regulations/states/XX.json).
// It is run by hand when the reference facts change, never by the build: the JSON files it writes
// are the source of truth. It reads the structured values of legal-facts.csv (types, numbers,
// uncertain_fields, statute sections) and words every summary itself; the CSV's notes are not
// copied, the per-state caveats (scripts/regulations/notes.ts) are written for this dataset.
//
//   npx tsx scripts/author-regulations.ts [path/to/legal-facts.csv]
//
// City and county overlays (warehouse/regulations/local/) are curated by hand, not generated.
//
// The records are written by scripts/regulations/: record.ts (the record and a row's context), ownership.ts,
// tenancy.ts and purchase.ts (the records of each category), from the tables of citations.ts, notes.ts and
// state-laws.ts.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { RegulationRecord } from '../warehouse/regulations/schema.ts';
import { validateRecord } from '../warehouse/regulations/validate.ts';
import { adversePossession, foreclosure, taxSale } from './regulations/ownership.ts';
import { creativeFinance, disclosure, zoning } from './regulations/purchase.ts';
import { stateContext, type Row } from './regulations/record.ts';
import { eviction, rentControl, securityDeposit } from './regulations/tenancy.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'warehouse/regulations/states');
const CSV = process.argv[2] ?? path.resolve(ROOT, '../shared/reference/legal-facts.csv');

/** Every state-level record of one reference row, in the order its states/XX.json holds them. */
function buildState(row: Row): RegulationRecord[] {
  const s = stateContext(row);
  return [
    ...foreclosure(s), ...taxSale(s), ...rentControl(s), ...adversePossession(s), ...eviction(s), ...securityDeposit(s),
    ...creativeFinance(s), ...zoning(s), ...disclosure(s),
  ];
}

function main() {
  const rows = parse(fs.readFileSync(CSV), { columns: true, skip_empty_lines: true }) as Row[];
  if (rows.length !== 51) throw new Error(`expected 51 rows in ${CSV}, got ${rows.length}`);
  fs.mkdirSync(OUT, { recursive: true });
  let total = 0;
  const problems: string[] = [];
  for (const row of rows) {
    const records = buildState(row);
    records.forEach((r, i) => problems.push(...validateRecord(r, `states/${row.state_code}.json`, i)));
    fs.writeFileSync(path.join(OUT, `${row.state_code}.json`), `${JSON.stringify(records, null, 2)}\n`);
    total += records.length;
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
  console.log(`wrote ${total} records for ${rows.length} jurisdictions to ${path.relative(ROOT, OUT)}`);
}

main();
