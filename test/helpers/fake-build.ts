// A minimal published build folder: a manifest and one states shard whose count marks which build it is.
import fs from 'node:fs';
import path from 'node:path';
import { FORMAT_VERSION } from '../../warehouse/layout.ts';

export function fakeBuild(artifacts: string, id: string, count: number, formatVersion = FORMAT_VERSION): string {
  const dir = path.join(artifacts, 'builds', id);
  fs.mkdirSync(path.join(dir, 'shards', 'geo'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ format_version: formatVersion, build_id: id, as_of: '2026-11-21', built_at: '2026-11-21T06:00:00Z' }));
  fs.writeFileSync(path.join(dir, 'shards', 'geo', 'states.json'), JSON.stringify({ count, states: [] }));
  return dir;
}
