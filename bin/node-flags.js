// The V8 flags and the environment the server runs under: those `npm start` and `npm run serve` give node
// (package.json scripts.serve, the one place they are written; README "reii start" says why). bin/reii.js gives them
// to `reii serve` and `reii start`.
import fs from 'node:fs';

function serveScriptWords() {
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return String(pkg.scripts?.serve ?? '').split(/\s+/);
}

/** The flags between "node" and "--import" of package.json scripts.serve
 *  ("NAME=VALUE exec node <flags> --import tsx bin/cli.ts serve"). */
export function serverNodeFlags() {
  const words = serveScriptWords();
  const from = words.indexOf('node') + 1;
  const to = words.indexOf('--import');
  return from > 0 && to > from ? words.slice(from, to) : [];
}

/** The variables set before "exec" in package.json scripts.serve (glibc's malloc reads them when node starts). */
export function serverNodeEnv() {
  const words = serveScriptWords();
  const to = words.indexOf('exec');
  return Object.fromEntries(words.slice(0, Math.max(to, 0)).filter((w) => /^[A-Z_][A-Z0-9_]*=/.test(w)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
}
