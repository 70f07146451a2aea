// Build folders, the build lock, the atomic `current` swap and pruning.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { CliError, EXIT } from '../warehouse/errors.ts';
import { buildsDir, currentBuildDir, currentLink } from '../warehouse/build-folder.ts';

/** Ids sort in the order builds started (wall clock, milliseconds), whatever date the data is as of. */
export function newBuildId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `${stamp}-${crypto.randomBytes(3).toString('hex')}`;
}

/** Points `current` at the build atomically: a new symlink renamed over the old one. */
export function publish(artifacts: string, buildDir: string): void {
  const link = currentLink(artifacts);
  const tmp = `${link}.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true });
  fs.symlinkSync(path.relative(artifacts, buildDir), tmp);
  fs.renameSync(tmp, link);
}

const NOT_PUBLISHED = /\.(failed|partial)$/; // build folders never served

/**
 * Keeps the newest `keep` published builds, never the current one nor the `also` ones (the build that was
 * current just before a publish: a running server answers from it until it notices the swap, up to a
 * second later). Failed and partial (`--until`) builds older than the kept ones go too.
 */
export function prune(artifacts: string, keep: number, also: readonly string[] = []): string[] {
  const dir = buildsDir(artifacts);
  if (!fs.existsSync(dir)) return [];
  const current = currentBuildDir(artifacts);
  const all = fs.readdirSync(dir).filter((n) => !n.startsWith('.')).sort().reverse();
  const published = all.filter((n) => fs.existsSync(path.join(dir, n, 'manifest.json')) && !NOT_PUBLISHED.test(n));
  const keepSet = new Set(published.slice(0, keep));
  if (current) keepSet.add(path.basename(current));
  for (const name of also) if (all.includes(name)) keepSet.add(name);
  const removed: string[] = [];
  const newestKept = [...keepSet].sort().at(0) ?? '';
  for (const name of all) {
    if (keepSet.has(name)) continue;
    if (NOT_PUBLISHED.test(name) && name >= newestKept) continue; // keep recent failed and partial builds for inspection
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed build whose parent is gone can linger as a zombie: it holds nothing.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

/** One build at a time per artifacts folder. A lock left by a dead process is taken over. */
export function acquireLock(artifacts: string): () => void {
  fs.mkdirSync(artifacts, { recursive: true });
  const file = path.join(artifacts, 'build.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, started_at: new Date().toISOString() }));
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        fs.rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let holder: { pid?: number; started_at?: string } = {};
      try { holder = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof holder; } catch { /* half-written lock: treat as stale */ }
      if (holder.pid && pidAlive(holder.pid)) {
        throw new CliError(`another build is running (pid ${holder.pid}, started ${holder.started_at ?? 'unknown'}); lock ${file}`, { exitCode: EXIT.locked });
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new CliError(`could not take the build lock ${file}`, { exitCode: EXIT.locked });
}
