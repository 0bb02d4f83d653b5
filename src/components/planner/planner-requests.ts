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
  WHOLE_SEARCH,
  type HardwareSearch,
  type PlanResult,
  type RawFlagValues,
  type SearchPart,
  type SearchShare,
} from '../../planner/index';
import type { ModelConfig } from '../../memory/index';
import { DEFAULT_LOCALE, type Locale } from '../../i18n/locales';
import { messagesFor } from '../../i18n/messages/index';
import { packResult, packSearch, unpackSearch, type WithPackedPlans } from './plan-transfer';
import { fieldErrorsLine } from '../field-errors';

/**
 * What the reader asked: the planner's flags, and the model's shape when it was read from a config.json instead of
 * `model`; and the page's language, in which the search words the plans' choices and its reasons (default English).
 */
export interface PlannerQuery {
  readonly flags: RawFlagValues;
  readonly modelConfig?: ModelConfig;
  readonly locale?: Locale;
}

/**
 * A request: `search`, one share of the searches of every set of GPUs the request compares (planHardware: the reader's,
 * and with renting compared those offered for rent), in one walk; `plan`, the whole answer (planTraining), from
 * searches already merged where given (it then searches only what else it needs: hardware that would fit, when nothing
 * fits on the reader's GPUs).
 */
export type PlannerWorkerRequest =
  | (PlannerQuery & {
      readonly id: number;
      readonly kind: 'search';
      readonly share: SearchShare;
    })
  | (PlannerQuery & {
      readonly id: number;
      readonly kind: 'plan';
      readonly searches?: readonly WithPackedPlans<HardwareSearch>[];
    });

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
  const words = messagesFor(request.locale ?? DEFAULT_LOCALE).planner.search;
  const parsed = parsePlanFlags(request.flags, EXAMPLE_PRICES, request.modelConfig, words.request);
  if (!parsed.ok) return { id: request.id, ok: false, message: fieldErrorsLine(parsed.errors, words.fieldError) };
  const start = performance.now();
  if (request.kind === 'plan') {
    const searches = request.searches?.map((search) => unpackSearch(search));
    const result = planTraining(parsed.request, searches === undefined ? { words } : { searches, words });
    const ms = performance.now() - start;
    return { id: request.id, ok: true, kind: 'plan', result: packResult(result), ms };
  }
  const parts = searchParts(
    parsed.request,
    planHardware(parsed.request),
    planModel(parsed.request),
    undefined,
    request.share,
    words,
  );
  const ms = performance.now() - start;
  return { id: request.id, ok: true, kind: 'search', parts: parts.map((part) => packSearch(part)), ms };
}

/**
 * A worker's handler of requests: it answers each through `post`; after its first answer it warms up (warmUpPieces),
 * one piece per call of `later` (a turn of the worker's event loop, where a request waiting is answered first), and a
 * request drops the pieces left.
 */
export function plannerWorkerHandler(
  post: (response: PlannerWorkerResponse) => void,
  later: (run: () => void) => void,
): (request: PlannerWorkerRequest) => void {
  let pieces: (() => unknown)[] | null = null;
  const next = () => {
    const piece = pieces?.shift();
    if (piece === undefined) return;
    piece();
    later(next);
  };
  return (request) => {
    const first = pieces === null;
    pieces = [];
    post(answerPlannerRequest(request));
    if (!first) return;
    pieces = warmUpPieces(request);
    later(next);
  };
}

/** Rounds of warm-up searches a fresh worker runs after its first answer, and the pieces each round is run in. */
const WARM_UP_ROUNDS = 4;
const WARM_UP_PIECES = 4;

/**
 * The searches a fresh worker runs after its first answer, while the reader reads it, in pieces. V8 compiles the
 * search's code for speed only after running it a while, so without this the reader's first edits pay for the
 * compiling (why: see docs/PERFORMANCE.md § Planner in the page). Each round searches this
 * worker's share of the layouts again, in four shares of it, so that a request arriving meanwhile waits for one piece
 * at most.
 */
export function warmUpPieces(request: PlannerWorkerRequest): (() => readonly SearchPart[])[] {
  const parsed = parsePlanFlags(request.flags, EXAMPLE_PRICES, request.modelConfig);
  if (!parsed.ok) return [];
  const hardware = planHardware(parsed.request);
  const model = planModel(parsed.request);
  const share = request.kind === 'search' ? request.share : WHOLE_SEARCH;
  const pieces: (() => readonly SearchPart[])[] = [];
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (let piece = 0; piece < WARM_UP_PIECES; piece++) {
      const index = share.index + piece * share.of;
      pieces.push(() => searchParts(parsed.request, hardware, model, undefined, { index, of: share.of * WARM_UP_PIECES }));
    }
  }
  return pieces;
}
