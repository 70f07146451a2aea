// What each build stage runs (their names and order: stage-names.ts). Each folder's steps run in file-name order (pipelines/steps.ts).
import path from 'node:path';
import type { StageContext } from '../warehouse/context.ts';
import { checkCanonicalGeography, runSources } from './sources/index.ts';
import { runFolder, type StepResult } from './steps.ts';
import { runChecks, type CheckResult } from './checks.ts';
import { runShards, type ShardStats } from './shards/index.ts';
import type { StageName } from './stage-names.ts';

export interface StageOutcome {
  name: StageName;
  seconds: number;
  steps?: StepResult[];
  checks?: CheckResult[];
  shards?: ShardStats;
}

const here = import.meta.dirname;

export async function runStage(ctx: StageContext, name: StageName): Promise<Omit<StageOutcome, 'name' | 'seconds'>> {
  switch (name) {
    case 'sources':
      checkCanonicalGeography(ctx); // before any load: a canonical folder without its geography fails at once
      await runSources(ctx);
      return {};
    case 'staging':
    case 'intermediate':
      return { steps: await runFolder(ctx, name, path.join(here, name)) };
    case 'marts': {
      const steps = await runFolder(ctx, name, path.join(here, 'marts'));
      return { steps, checks: await runChecks(ctx, path.join(here, 'marts', 'checks')) };
    }
    case 'shards':
      return { shards: await runShards(ctx) };
  }
}
