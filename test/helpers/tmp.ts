// Temporary folders of a test file: made under the OS temp folder, removed together once the file is done
// (`afterAll(removeTmpDirs)` in the test file, or the cleanup of a helper that calls it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const tmpDirs: string[] = [];

/** A new empty folder, removed by `removeTmpDirs`. */
export function tmp(prefix = 'reii-test-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(d);
  return d;
}

/** Removes every folder `tmp` made so far. */
export function removeTmpDirs(): void {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}
