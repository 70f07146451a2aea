// The artifacts folder as both sides see it: artifacts/builds/<id>/ and the `current` link the server follows,
// and the files of a build folder that several steps share (report-sections.json). The build writes them
// (pipelines/publish.ts, pipelines/build.ts); the server only reads them (api/builds.ts).
import fs from 'node:fs';
import path from 'node:path';

export function buildsDir(artifacts: string): string {
  return path.join(artifacts, 'builds');
}

export function currentLink(artifacts: string): string {
  return path.join(artifacts, 'current');
}

/** The folder `current` points at, or null when nothing was published yet. */
export function currentBuildDir(artifacts: string): string | null {
  try {
    const target = fs.readlinkSync(currentLink(artifacts));
    const abs = path.resolve(artifacts, target);
    return fs.existsSync(path.join(abs, 'manifest.json')) ? abs : null;
  } catch {
    return null;
  }
}

/**
 * A build folder named by its id, for `reii query --build`: builds/<id> when it was published, else the kept
 * <id>.failed or <id>.partial (the name may also be given with its suffix). Null when there is none. Never what the
 * server serves: that is only ever `current` (currentBuildDir).
 */
export function buildDirById(artifacts: string, id: string): string | null {
  if (!/^[A-Za-z0-9_-]+(\.(failed|partial))?$/.test(id)) return null; // a build id, never a path
  for (const name of id.includes('.') ? [id] : [id, `${id}.failed`, `${id}.partial`]) {
    const dir = path.join(buildsDir(artifacts), name);
    if (fs.existsSync(path.join(dir, 'manifest.json')) || fs.existsSync(path.join(dir, 'warehouse.duckdb'))) return dir;
  }
  return null;
}

export interface ReportSection {
  title: string;
  headers: string[];
  rows: unknown[][];
}

/** Appends (or replaces, by title) one section of <build>/report-sections.json, which the build report shows. */
export function appendReportSection(buildDir: string, section: ReportSection): void {
  const file = path.join(buildDir, 'report-sections.json');
  const list = readReportSections(buildDir);
  fs.writeFileSync(file, JSON.stringify([...list.filter((s) => s.title !== section.title), section], null, 1));
}

/** The sections steps appended to <build>/report-sections.json, in the order they were added. */
export function readReportSections(buildDir: string): ReportSection[] {
  const file = path.join(buildDir, 'report-sections.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as ReportSection[]) : [];
}
