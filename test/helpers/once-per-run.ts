// A folder made once per test run and shared by the test files of every worker (a synthetic build several files read,
// ./small-build.ts, ./denver-parcel-build.ts). It is kept under the run's temporary folder (every worker's
// os.tmpdir(), ./global-setup.ts), which the run removes at its end. The first caller takes a lock (a folder created
// exclusively) and makes it in a folder of its own, renamed into place once whole; a caller in another worker meanwhile
// waits for it (no second build on the run's two cores), and fails with the maker's error when making it failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from './wait.ts';

const made = new Map<string, Promise<string>>();

/** The run's folder `name`, made by `make(dir)` (into an empty `dir`) in the first test file that asks for it. */
export function oncePerRun(name: string, make: (dir: string) => Promise<void>, deadlineMs = 15 * 60_000): Promise<string> {
  let p = made.get(name);
  if (!p) {
    p = keep(path.join(os.tmpdir(), name), make, deadlineMs);
    made.set(name, p);
  }
  return p;
}

async function keep(kept: string, make: (dir: string) => Promise<void>, deadlineMs: number): Promise<string> {
  const failed = `${kept}.failed`;
  let mine = false;
  try {
    fs.mkdirSync(`${kept}.lock`);
    mine = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (mine) {
    const part = fs.mkdtempSync(`${kept}.part-`);
    try {
      await make(part);
      fs.renameSync(part, kept); // atomic: a waiting worker never sees it half made
      return kept;
    } catch (err) {
      fs.writeFileSync(failed, String((err as Error)?.stack ?? err));
      throw err;
    }
  }
  return waitFor(() => {
    if (fs.existsSync(failed)) throw new Error(`${path.basename(kept)} failed in another test file:\n${fs.readFileSync(failed, 'utf8')}`);
    return fs.existsSync(kept) ? kept : null;
  }, { what: `${path.basename(kept)}, made by another test file`, deadlineMs, intervalMs: 250 });
}
