// The V8 flags the server runs under: those `npm start` and `npm run serve` give node (package.json scripts.serve, the
// one place they are written; README "reii start" says why). bin/reii.js gives them to `reii serve` and `reii start`.
import fs from 'node:fs';

/** The flags between "node" and "--import" of package.json scripts.serve ("exec node <flags> --import tsx bin/cli.ts serve"). */
export function serverNodeFlags() {
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const words = String(pkg.scripts?.serve ?? '').split(/\s+/);
  const from = words.indexOf('node') + 1;
  const to = words.indexOf('--import');
  return from > 0 && to > from ? words.slice(from, to) : [];
}
