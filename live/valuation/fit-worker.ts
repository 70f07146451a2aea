// A worker thread of the valuation step (fit-tasks.ts runOnWorkers): runs each task it is sent and answers its result,
// or the error's message (a task that throws must fail the step, not hang it).
import { parentPort } from 'node:worker_threads';
import { runFitTask, type FitTask } from './fit-tasks.ts';

parentPort!.on('message', (task: FitTask) => {
  try {
    parentPort!.postMessage({ ok: true, result: runFitTask(task) });
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: err instanceof Error ? err.stack ?? err.message : String(err) });
  }
});
