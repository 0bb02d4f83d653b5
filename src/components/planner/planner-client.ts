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

/**
 * A client whose answers go to `onAnswer`. A search still running when the next one starts is
 * stopped with its worker (a search cannot be interrupted from inside), so a large search never
 * delays the answer to the reader's latest settings.
 */
export function createPlannerClient(onAnswer: (answer: PlannerWorkerResponse, waitedMs: number) => void): PlannerClient {
  let latest = 0;
  let busy = false;
  let sentAt = 0;
  const start = (): Worker => {
    const created = new Worker(new URL('./planner.worker.ts', import.meta.url), { type: 'module' });
    created.onmessage = (event: MessageEvent<PlannerWorkerResponse>) => {
      if (event.data.id !== latest) return;
      busy = !event.data.ok ? false : event.data.partial;
      // What the reader waits: the search, and the answer's way back to the page.
      onAnswer(event.data, performance.now() - sentAt);
    };
    created.onerror = (event) => {
      busy = false;
      onAnswer({ id: latest, ok: false, message: event.message || 'the planner worker crashed' }, performance.now() - sentAt);
    };
    return created;
  };
  let worker = start();
  return {
    search(flags) {
      if (busy) {
        worker.terminate();
        worker = start();
      }
      latest += 1;
      busy = true;
      sentAt = performance.now();
      worker.postMessage({ id: latest, flags } satisfies PlannerWorkerRequest);
    },
    close() {
      worker.terminate();
    },
  };
}
