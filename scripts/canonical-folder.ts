// What the two converters (scripts/canonical-sales.ts, scripts/canonical-denver.ts) share: both lay out a buildable
// sources folder, DIR/canonical/<file>.csv with the default sources' geography and reference folders linked beside
// it (the row contracts check every zip and state against them; without them the build has no zips, places or
// counties), and the hazard folders GET /v1/location/risk reads (optional to the build, README "Canonical format": without
// them every zip's answer said "no Superfund site within 1 mile" from no SEMS file at all), so `npx reii build --sources
// DIR` and `npm run eval:avm -- --sources DIR` read DIR as it is. And one
// command-line reader: a usage text on --help, one line and exit 2 on a bad or missing option, never a stack trace.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { LOCATION_SOURCES, SOURCES } from '../pipelines/sources/registry.ts';
import { REFERENCE_IDS } from './eval-avm-sources.ts';

const LOCATION_IDS: ReadonlySet<string> = new Set(LOCATION_SOURCES);

/** Links the sources' geography, reference and hazard folders into `out` beside its `canonical/` (existing entries are kept). */
export function linkReference(sources: string, out: string): string[] {
  const linked: string[] = [];
  for (const s of SOURCES) {
    const to = path.join(out, s.folder);
    if (!(REFERENCE_IDS.has(s.id) || LOCATION_IDS.has(s.id)) || !fs.existsSync(path.join(sources, s.folder)) || fs.existsSync(to)) continue;
    fs.symlinkSync(path.resolve(sources, s.folder), to);
    linked.push(s.folder);
  }
  return linked;
}

/** A usage error: the CLI prints its message and the usage, and exits 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses argv against `options` (plus --help). --help prints `usage` and exits 0; a parse error or a missing
 *  `required` option prints one line and the usage to stderr and exits 2. */
export function readArgs<O extends Options>(argv: string[], usage: string, options: O, required: readonly (keyof O & string)[]): Record<string, string | undefined> {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: false, strict: true }).values;
  } catch (err) {
    return usageExit((err as Error).message, usage);
  }
  if (values['help']) {
    process.stdout.write(usage);
    process.exit(0);
  }
  const missing = required.filter((k) => values[k] === undefined || values[k] === '');
  if (missing.length) return usageExit(`missing ${missing.map((k) => `--${k}`).join(', ')}`, usage);
  return values as Record<string, string | undefined>;
}

export function usageExit(message: string, usage: string): never {
  process.stderr.write(`error: ${message}\n\n${usage}`);
  process.exit(2);
}
