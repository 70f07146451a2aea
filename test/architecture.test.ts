// The code's shape, read from the source files themselves (README "Folder map"):
//   warehouse/  the contracts both sides stand on; imports nothing outside itself
//   live/       one folder per live endpoint (build step, engine, HTTP entry); imports warehouse/ only
//   pipelines/  the build; imports warehouse/ and live/
//   api/        the server; imports warehouse/ and live/
//   bin/        the command line, the one place that imports both the build and the server
// Also: no import circles between files, no import() of a computed path (but the stage-folder runner), and no source file over 300 lines
// without a first-lines comment that says why ("Over 300 lines: ...").
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO } from './helpers/paths.ts';

const LAYERS: Record<string, readonly string[]> = {
  warehouse: [],
  live: ['warehouse'],
  pipelines: ['warehouse', 'live'],
  api: ['warehouse', 'live'],
  bin: ['warehouse', 'live', 'pipelines', 'api'],
};
const MAX_LINES = 300;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|js)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const FILES = Object.keys(LAYERS).flatMap(sourceFiles).sort();

/** Every module specifier a file names: import/export ... from, import('...'), side-effect imports. */
function specifiers(src: string): { spec: string; computed: boolean; lazy: boolean }[] {
  const out: { spec: string; computed: boolean; lazy: boolean }[] = [];
  // `import type` is erased: it loads nothing at run time.
  for (const m of src.matchAll(/^\s*(import|export)\s([^;]*?)\sfrom\s+['"]([^'"]+)['"]/gms)) {
    out.push({ spec: m[3]!, computed: false, lazy: m[1] === 'import' && /^type\s/.test(m[2]!) });
  }
  for (const m of src.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push({ spec: m[1]!, computed: false, lazy: false });
  for (const m of src.matchAll(/\bimport\(\s*([^)]*?)\s*\)/g)) {
    const arg = m[1]!;
    const lit = /^['"]([^'"]+)['"]$/.exec(arg);
    out.push(lit ? { spec: lit[1]!, computed: false, lazy: true } : { spec: arg, computed: true, lazy: true });
  }
  return out;
}

/** `to` is a repository file, or the package name for a bare specifier; `lazy` when loaded only by import() or for types. */
interface Edge { from: string; to: string; lazy?: boolean }

function graph(): { edges: Edge[]; packages: Edge[]; computed: string[] } {
  const edges: Edge[] = [];
  const packages: Edge[] = [];
  const computed: string[] = [];
  for (const file of FILES) {
    const src = fs.readFileSync(path.join(REPO, file), 'utf8');
    for (const { spec, computed: isComputed, lazy } of specifiers(src)) {
      if (isComputed) { computed.push(`${file}: import(${spec})`); continue; }
      if (!spec.startsWith('.')) { packages.push({ from: file, to: spec, lazy }); continue; } // a package or node: builtin
      edges.push({ from: file, to: path.normalize(path.join(path.dirname(file), spec)), lazy });
    }
  }
  return { edges, packages, computed };
}

/** Every file a module loads when it is imported, following only static value imports. */
function loadedBy(entry: string, edges: Edge[]): Set<string> {
  const seen = new Set([entry]);
  const todo = [entry];
  while (todo.length) {
    const f = todo.pop()!;
    for (const e of edges) if (e.from === f && !e.lazy && !seen.has(e.to)) { seen.add(e.to); todo.push(e.to); }
  }
  return seen;
}

const top = (file: string): string => file.split(path.sep)[0]!;

/** Strongly connected components of more than one file (Tarjan): each is an import circle. */
function circles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) (next.get(e.from) ?? next.set(e.from, []).get(e.from)!).push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter); low.set(v, counter); counter++;
    stack.push(v); on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); comp.push(w); } while (w !== v);
      if (comp.length > 1 || (next.get(v) ?? []).includes(v)) found.push(comp.sort());
    }
  };
  for (const f of FILES) if (!index.has(f)) visit(f);
  return found;
}

describe('the import graph', () => {
  const { edges, packages, computed } = graph();

  test('the graph was read: every layer has files and imports', () => {
    for (const layer of Object.keys(LAYERS)) expect(FILES.some((f) => top(f) === layer), layer).toBe(true);
    expect(edges.length).toBeGreaterThan(200);
  });

  test('each layer imports only the layers below it', () => {
    const cross = edges.filter((e) => top(e.from) !== top(e.to) && !LAYERS[top(e.from)]!.includes(top(e.to)));
    expect(cross.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  test('every relative import names a file that exists', () => {
    expect(edges.filter((e) => !fs.existsSync(path.join(REPO, e.to))).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  test('no import circles', () => {
    expect(circles(edges)).toEqual([]);
  });

  test('no import() of a computed path: every module is found by a plain import', () => {
    // The one exception: a stage folder's `.ts` steps are found by file name, like its `.sql` steps
    // (pipelines/steps.ts runs a folder in file-name order; the name is the step's place in the build).
    expect(computed).toEqual(['pipelines/steps.ts: import(path.join(dir, file)']);
  });

  test('starting the CLI loads neither the build pipeline nor DuckDB: `reii serve` pays for neither (import() them where used)', () => {
    const loaded = loadedBy('bin/cli.ts', edges);
    expect(loaded.has('bin/cli-format.ts')).toBe(true); // the walk follows static imports
    expect([...loaded].filter((f) => top(f) === 'pipelines' && f !== 'pipelines/stage-names.ts')).toEqual([]);
    expect(packages.filter((p) => loaded.has(p.from) && !p.lazy && p.to.startsWith('@duckdb/')).map((p) => p.from)).toEqual([]);
    // The server, once imported, loads no DuckDB either: it reads the build's shards and files, never the warehouse.
    const server = loadedBy('api/server.ts', edges);
    expect(server.size).toBeGreaterThan(20);
    expect(packages.filter((p) => server.has(p.from) && !p.lazy && p.to.startsWith('@duckdb/')).map((p) => p.from)).toEqual([]);
    // Nor the Redis client (loaded only when REII_REDIS_URL is set) nor undici (at the first webhook attempt).
    expect(packages.filter((p) => server.has(p.from) && !p.lazy && (p.to === 'ioredis' || p.to === 'undici')).map((p) => `${p.from} -> ${p.to}`)).toEqual([]);
    expect(packages.some((p) => p.to === 'ioredis' && p.lazy === false)).toBe(true); // the modules that use it do import it
  });

  test('the checker sees a circle and a cross edge when there is one', () => {
    expect(circles([{ from: 'api/a.ts', to: 'api/b.ts' }, { from: 'api/b.ts', to: 'api/a.ts' }])).toEqual([]); // not in FILES: unvisited
    const real = FILES.filter((f) => top(f) === 'api').slice(0, 2) as [string, string];
    expect(circles([{ from: real[0], to: real[1] }, { from: real[1], to: real[0] }])).toEqual([[...real].sort()]);
    expect(specifiers("const m = await import(`./live/${name}.ts`);")).toEqual([{ spec: '`./live/${name}.ts`', computed: true, lazy: true }]);
    expect(specifiers("import type { A } from '../x.ts';\nexport { b } from './y.ts';")).toEqual([
      { spec: '../x.ts', computed: false, lazy: true }, { spec: './y.ts', computed: false, lazy: false }]);
    const chain = [{ from: 'a', to: 'b' }, { from: 'b', to: 'c', lazy: true }, { from: 'b', to: 'd' }];
    expect([...loadedBy('a', chain)].sort()).toEqual(['a', 'b', 'd']);
  });
});

describe('file size', () => {
  test(`no source file over ${MAX_LINES} lines without a reason in its first lines`, () => {
    const long = FILES.map((f) => ({ f, src: fs.readFileSync(path.join(REPO, f), 'utf8') }))
      .filter(({ src }) => src.split('\n').length > MAX_LINES + 1)
      .filter(({ src }) => !/^\/\/ Over 300 lines: \S/m.test(src.split('\n').slice(0, 12).join('\n')))
      .map(({ f, src }) => `${f} (${src.split('\n').length - 1} lines)`);
    expect(long).toEqual([]);
  });
});
