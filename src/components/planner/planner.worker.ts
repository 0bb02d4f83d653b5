/// <reference lib="webworker" />
/**
 * Runs the planner's search off the page's thread, so typing never waits for it. Each message is
 * one request; the answer carries the request's id so that the page keeps only the latest.
 */
import { EXAMPLE_PRICES, parsePlanFlags, planTraining, type PlanResult, type RawPlanFlags } from '../../planner/index';

/** A search request. */
export interface PlannerWorkerRequest {
  readonly id: number;
  readonly flags: RawPlanFlags;
}

/**
 * An answer: the result and the search's time in this worker, or an error. With renting compared,
 * the reader's own GPUs are answered first (`partial`), then everything.
 */
export type PlannerWorkerResponse =
  | { readonly id: number; readonly ok: true; readonly result: PlanResult; readonly ms: number; readonly partial: boolean }
  | { readonly id: number; readonly ok: false; readonly message: string };

self.onmessage = (event: MessageEvent<PlannerWorkerRequest>) => {
  const { id, flags } = event.data;
  const parsed = parsePlanFlags(flags, EXAMPLE_PRICES);
  if (!parsed.ok) {
    self.postMessage({
      id,
      ok: false,
      message: parsed.errors.map((e) => `${e.field}: ${e.message}`).join('; '),
    } satisfies PlannerWorkerResponse);
    return;
  }
  const start = performance.now();
  const own = planTraining({ ...parsed.request, rent: false });
  self.postMessage({
    id,
    ok: true,
    result: own,
    ms: performance.now() - start,
    partial: parsed.request.rent,
  } satisfies PlannerWorkerResponse);
  if (!parsed.request.rent) return;
  const restart = performance.now();
  const all = planTraining(parsed.request);
  self.postMessage({
    id,
    ok: true,
    result: all,
    ms: performance.now() - restart,
    partial: false,
  } satisfies PlannerWorkerResponse);
};
