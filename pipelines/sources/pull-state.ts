// The state file of `reii sources pull` (<into>/.pull-state.json): per <folder>/<name>, the url, ETag, Last-Modified,
// sha256 and size of the last complete download (for conditional requests), and the validators of a partial download
// (for a safe resume). Written synchronously and atomically after every change.
import fs from 'node:fs';
import type { Logger } from '../../warehouse/log.ts';
import { describe } from './pull-http.ts';

export const STATE_FILE = '.pull-state.json';

interface FileState {
  url: string;
  etag: string | null;
  lastModified: string | null;
  sha256: string;
  bytes: number;
  pulledAt: string;
}
interface PartState {
  url: string;
  etag: string | null;
  lastModified: string | null;
}
interface PullState {
  version: 1;
  files: Record<string, FileState>;
  parts: Record<string, PartState>;
}

export class StateStore {
  readonly state: PullState;
  constructor(private readonly file: string, log: Logger) {
    this.state = { version: 1, files: {}, parts: {} };
    let text: string | null = null;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch { /* first pull */ }
    if (text !== null) {
      try {
        const v = JSON.parse(text) as Partial<PullState>;
        if (v && typeof v === 'object') {
          if (v.files && typeof v.files === 'object') this.state.files = v.files;
          if (v.parts && typeof v.parts === 'object') this.state.parts = v.parts;
        }
      } catch (err) {
        log.warn(`sources pull: ignoring unreadable ${file} (every file is downloaded again)`, { error: describe(err) });
      }
    }
  }
  setFile(rel: string, s: FileState, o: { dropPart?: boolean } = {}): void {
    this.state.files[rel] = s;
    if (o.dropPart) delete this.state.parts[rel];
    this.save();
  }
  setPart(rel: string, p: PartState): void {
    this.state.parts[rel] = p;
    this.save();
  }
  clearPart(rel: string): void {
    if (!(rel in this.state.parts)) return;
    delete this.state.parts[rel];
    this.save();
  }
  /** Synchronous and atomic (temp file + rename): concurrent downloads in this process never interleave writes. */
  private save(): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    const sorted = (r: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.keys(r).sort().map((k) => [k, r[k]]));
    fs.writeFileSync(tmp, JSON.stringify({ version: 1, files: sorted(this.state.files), parts: sorted(this.state.parts) }, null, 2) + '\n');
    fs.renameSync(tmp, this.file);
  }
}
