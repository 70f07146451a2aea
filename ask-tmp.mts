import { ResearchData } from '/work/main/live/research/data.ts';
import { ResearchEngine } from '/work/main/live/research/endpoint.ts';
import { currentBuildDir } from '/work/main/warehouse/build-folder.ts';
const e = new ResearchEngine(ResearchData.fromBuild(currentBuildDir(process.argv[2]!))!, null);
for (const q of process.argv.slice(3)) { const r = await e.answer({ query: q, depth: 'quick' }); console.log('Q:', q, '\nA:', r.answer, `[${r.confidence}]\n`); }
