/**
 * What the planner's workers are asked and answer. The page's client runs one share of each search in each of its
 * workers (planner-client.ts) and merges them; this module is the workers' side, pure so that tests run it in Node.
 */
import {
  EXAMPLE_PRICES,
  parsePlanFlags,
  planHardware,
  planModel,
  planTraining,
  searchParts,
  type HardwareSearch,
  type PlanResult,
  type RawPlanFlags,
  type SearchPart,
  type SearchShare,
} from '../../planner/index';

/**
 * A request: `search`, one share of the searches of every set of GPUs the request compares (planHardware: the reader's,
 * and with renting compared those offered for rent), in one walk; `plan`, the whole answer (planTraining), from
 * searches already merged where given (it then searches only what else it needs: hardware that would fit, when nothing
 * fits on the reader's GPUs).
 */
export type PlannerWorkerRequest =
  | {
      readonly id: number;
      readonly kind: 'search';
      readonly flags: RawPlanFlags;
      readonly share: SearchShare;
    }
  | {
      readonly id: number;
      readonly kind: 'plan';
      readonly flags: RawPlanFlags;
      readonly searches?: readonly HardwareSearch[];
    };

/** An answer, with the time it took in this worker, or an error. */
export type PlannerWorkerResponse =
  | {
      readonly id: number;
      readonly ok: true;
      readonly kind: 'search';
      readonly parts: readonly SearchPart[];
      readonly ms: number;
    }
  | { readonly id: number; readonly ok: true; readonly kind: 'plan'; readonly result: PlanResult; readonly ms: number }
  | { readonly id: number; readonly ok: false; readonly message: string };

/** A worker's answer to one request. */
export function answerPlannerRequest(request: PlannerWorkerRequest): PlannerWorkerResponse {
  const parsed = parsePlanFlags(request.flags, EXAMPLE_PRICES);
  if (!parsed.ok) return { id: request.id, ok: false, message: parsed.errors.map((e) => `${e.field}: ${e.message}`).join('; ') };
  const start = performance.now();
  if (request.kind === 'plan') {
    const result = planTraining(parsed.request, request.searches === undefined ? {} : { searches: request.searches });
    return { id: request.id, ok: true, kind: 'plan', result, ms: performance.now() - start };
  }
  const parts = searchParts(parsed.request, planHardware(parsed.request), planModel(parsed.request), undefined, request.share);
  return { id: request.id, ok: true, kind: 'search', parts, ms: performance.now() - start };
}
