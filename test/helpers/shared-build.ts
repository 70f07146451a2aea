// The suite's shared real build, run by global-setup.ts as a child process: test files that do not read it run
// while it builds (test/helpers/sequencer.ts puts them first), and those that do wait for it in ./build.ts.
// usage: node --import tsx test/helpers/shared-build.ts <artifacts>; exits 0 once the build is published.
import { runBuild } from '../../pipelines/build.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';
import { PINNED_NOW } from './clock.ts';

const artifacts = process.argv[2];
if (!artifacts) throw new Error('usage: shared-build.ts <artifacts>');
const result = await runBuild({ settings: loadSettings({ artifacts }), log: silentLogger, now: PINNED_NOW });
if (!result.published) throw new Error(`the shared test build ${result.buildId} was not published`);
