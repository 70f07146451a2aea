// Test files in two groups: those that never read the shared build first, then those that do (they import
// ./build.ts, directly or through another helper). The first group runs while global-setup.ts builds; within each
// group vitest's own order is kept (slowest first, from the last run's timings).
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const BUILD_HELPER = path.join(import.meta.dirname, 'build.ts');

/** Relative imports of a file that name other files (import/export ... from, side-effect imports, import()). */
function localImports(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  const specs = [...src.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => path.resolve(path.dirname(file), s)).filter((f) => fs.existsSync(f));
}

/** Whether a file reaches ./build.ts through the test folder's own files (the repository's code never imports it). */
export function readsSharedBuild(file: string, testRoot: string, seen = new Set<string>()): boolean {
  if (file === BUILD_HELPER) return true;
  if (seen.has(file) || !file.startsWith(testRoot)) return false;
  seen.add(file);
  return localImports(file).some((f) => readsSharedBuild(f, testRoot, seen));
}

export default class SharedBuildLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = path.dirname(import.meta.dirname);
    const needs = new Map(sorted.map((f) => [f, readsSharedBuild(f.moduleId, root)]));
    return [...sorted.filter((f) => !needs.get(f)), ...sorted.filter((f) => needs.get(f))];
  }
}
