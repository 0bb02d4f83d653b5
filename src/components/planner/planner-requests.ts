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
import { packResult, packSearch, unpackSearch, type WithPackedPlans } from './plan-transfer';

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
      readonly searches?: readonly WithPackedPlans<HardwareSearch>[];
    };

/** An answer, with the time it took in this worker, or an error. Plans travel packed (plan-transfer.ts). */
export type PlannerWorkerResponse =
  | {
      readonly id: number;
      readonly ok: true;
      readonly kind: 'search';
      readonly parts: readonly WithPackedPlans<SearchPart>[];
      readonly ms: number;
    }
  | {
      readonly id: number;
      readonly ok: true;
      readonly kind: 'plan';
      readonly result: WithPackedPlans<PlanResult>;
      readonly ms: number;
    }
  | { readonly id: number; readonly ok: false; readonly message: string };

/** A worker's answer to one request; its time is the search's (and ranking's), its plans packed after it. */
export function answerPlannerRequest(request: PlannerWorkerRequest): PlannerWorkerResponse {
  const parsed = parsePlanFlags(request.flags, EXAMPLE_PRICES);
  if (!parsed.ok) return { id: request.id, ok: false, message: parsed.errors.map((e) => `${e.field}: ${e.message}`).join('; ') };
  const start = performance.now();
  if (request.kind === 'plan') {
    const searches = request.searches?.map((search) => unpackSearch(search));
    const result = planTraining(parsed.request, searches === undefined ? {} : { searches });
    const ms = performance.now() - start;
    return { id: request.id, ok: true, kind: 'plan', result: packResult(result), ms };
  }
  const parts = searchParts(parsed.request, planHardware(parsed.request), planModel(parsed.request), undefined, request.share);
  const ms = performance.now() - start;
  return { id: request.id, ok: true, kind: 'search', parts: parts.map((part) => packSearch(part)), ms };
}
