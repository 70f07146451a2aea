// The build's stage names, in their fixed order. A module of its own with no imports, so the CLI can offer them
// (`--only`, `--until`) without loading the pipeline code and DuckDB into every command: `reii serve` never runs a
// stage, and those modules cost the server about 45 MB of memory.
export const STAGE_NAMES = ['sources', 'staging', 'intermediate', 'marts', 'shards'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

export function parseStages(names: readonly string[]): StageName[] {
  const bad = names.filter((n) => !(STAGE_NAMES as readonly string[]).includes(n));
  if (bad.length) throw new Error(`unknown stage(s) ${bad.join(', ')}; stages are ${STAGE_NAMES.join(', ')}`);
  return STAGE_NAMES.filter((s) => names.includes(s));
}
