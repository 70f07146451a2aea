// `reii query`: which build's warehouse it reads. The current (published) build, or with --build any build kept in
// <artifacts>/builds by its id: a failed one (<id>.failed, with the manifest saying why) or a partial one. Reading
// a build never publishes it: the server serves only `current`.
import fs from 'node:fs';
import path from 'node:path';
import { buildDirById, buildsDir, currentBuildDir } from '../warehouse/build-folder.ts';
import { CliError, EXIT } from '../warehouse/errors.ts';

/** The folder to query; a build that was not published says so on stderr, with why. Exit 6 when there is none. */
export function queryBuildDir(artifacts: string, id: string | undefined): string {
  if (id === undefined) {
    const dir = currentBuildDir(artifacts);
    if (dir) return dir;
    // A first build that failed left a folder to read: name it.
    const failed = fs.existsSync(buildsDir(artifacts)) ? fs.readdirSync(buildsDir(artifacts)).filter((n) => n.endsWith('.failed')).sort().at(-1) : undefined;
    throw new CliError(`no published build in ${artifacts}: run \`reii build\` first${failed ? `; the last failed build is read with --build ${failed.replace(/\.failed$/, '')}` : ''}`, { exitCode: EXIT.notFound });
  }
  const dir = buildDirById(artifacts, id);
  if (!dir) throw new CliError(`no build ${id} in ${path.join(artifacts, 'builds')} (give a build id as \`reii build\` printed it, or its folder name)`, { exitCode: EXIT.notFound });
  if (!fs.existsSync(path.join(dir, 'warehouse.duckdb'))) {
    throw new CliError(`build ${path.basename(dir)} kept no warehouse (\`reii check\` keeps only its manifest and report)`, { exitCode: EXIT.notFound });
  }
  let m: { status?: string; failure?: { stage?: string | null; file?: string | null; checks?: string[] } | null } = {};
  try { m = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as typeof m; } catch { /* no manifest: still queryable */ }
  if (m.status !== 'published') {
    const f = m.failure;
    const why = [f?.stage ? `stage ${f.stage}${f.file ? ` in ${f.file}` : ''}` : '', f?.checks?.length ? `checks ${f.checks.join(', ')}` : ''].filter(Boolean).join('; ');
    process.stderr.write(`reii: build ${path.basename(dir)} was not published (status ${m.status ?? 'unknown'}${why ? `: ${why}` : ''}; its manifest.json says why)\n`);
  }
  return dir;
}
