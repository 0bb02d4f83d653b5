/** The page's side of the planner worker: one worker, the latest request wins. */
import type { RawPlanFlags } from '../../planner/index';
import type { PlannerWorkerRequest, PlannerWorkerResponse } from './planner.worker';

/** Something that searches in the background and calls back with the answer to the latest request. */
export interface PlannerClient {
  /** Start a search; answers to earlier requests are dropped. */
  search(flags: RawPlanFlags): void;
  /** Stop the worker. */
  close(): void;
}

/** A client whose answers go to `onAnswer`. */
export function createPlannerClient(onAnswer: (answer: PlannerWorkerResponse) => void): PlannerClient {
  const worker = new Worker(new URL('./planner.worker.ts', import.meta.url), { type: 'module' });
  let latest = 0;
  worker.onmessage = (event: MessageEvent<PlannerWorkerResponse>) => {
    if (event.data.id === latest) onAnswer(event.data);
  };
  worker.onerror = (event) => onAnswer({ id: latest, ok: false, message: event.message || 'the planner worker crashed' });
  return {
    search(flags) {
      latest += 1;
      worker.postMessage({ id: latest, flags } satisfies PlannerWorkerRequest);
    },
    close() {
      worker.terminate();
    },
  };
}
