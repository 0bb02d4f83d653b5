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
  searchHardware,
  searchPart,
  type HardwareSearch,
  type PlanResult,
  type RawPlanFlags,
  type SearchPart,
  type SearchShare,
} from '../../planner/index';

/**
 * A request: `search`, one share of the searches of the reader's GPUs (`rented` false) or of the GPUs offered for rent
 * (true); `plan`, the whole answer (planTraining), from searches already merged where given (it then searches only
 * what else it needs: hardware that would fit, when nothing fits on the reader's GPUs).
 */
export type PlannerWorkerRequest =
  | {
      readonly id: number;
      readonly kind: 'search';
      readonly flags: RawPlanFlags;
      readonly share: SearchShare;
      readonly rented: boolean;
    }
  | {
      readonly id: number;
      readonly kind: 'plan';
      readonly flags: RawPlanFlags;
      /** Whether the answer compares renting (the searches then include the rented GPUs'). */
      readonly rent: boolean;
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

/** What a responder searches one set of GPUs with (searchHardware; tests count the calls). */
export type HardwareSearcher = typeof searchHardware;

/**
 * A worker's answers to its requests, one at a time. With renting compared, one worker answers the same request
 * twice (planner-client.ts): the reader's GPUs first, then everything; the second answer reuses the first's search of
 * the reader's GPUs rather than running it again.
 */
export function createPlannerResponder(
  search: HardwareSearcher = searchHardware,
): (request: PlannerWorkerRequest) => PlannerWorkerResponse {
  /** The reader's GPUs' search for the latest request answered whole. */
  let own: { readonly id: number; readonly search: HardwareSearch } | null = null;
  return (request) => {
    const parsed = parsePlanFlags(request.flags, EXAMPLE_PRICES);
    if (!parsed.ok)
      return { id: request.id, ok: false, message: parsed.errors.map((e) => `${e.field}: ${e.message}`).join('; ') };
    const start = performance.now();
    const model = planModel(parsed.request);
    if (request.kind === 'plan') {
      const planned = { ...parsed.request, rent: request.rent };
      let searches = request.searches;
      if (searches === undefined) {
        const [reader, ...rented] = planHardware(planned);
        if (reader === undefined) throw new Error('a plan searches the reader’s GPUs');
        const ownSearch = own !== null && own.id === request.id ? own.search : search(planned, reader, model);
        own = { id: request.id, search: ownSearch };
        searches = [ownSearch, ...rented.map((h) => search(planned, h, model))];
      }
      const result = planTraining(planned, { searches });
      return { id: request.id, ok: true, kind: 'plan', result, ms: performance.now() - start };
    }
    const hardware = planHardware(parsed.request);
    const searched = request.rented ? hardware.slice(1) : hardware.slice(0, 1);
    const parts = searched.map((h) => searchPart(parsed.request, h, model, undefined, request.share));
    return { id: request.id, ok: true, kind: 'search', parts, ms: performance.now() - start };
  };
}
