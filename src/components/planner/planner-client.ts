/**
 * The page's side of the planner's workers: with several, each search runs in shares, one per worker, at once (a
 * reader's machine has several cores), and the shares merge into the whole search here; one worker answers whole. The
 * latest request wins.
 */
import {
  EXAMPLE_PRICES,
  mergeParts,
  parsePlanFlags,
  planTraining,
  type HardwareSearch,
  type PlanRequest,
  type PlanResult,
  type SearchPart,
} from '../../planner/index';
import { packSearch, unpackResult, unpackSearch } from './plan-transfer';
import { fieldErrorsLine } from '../field-errors';
import { DEFAULT_LOCALE } from '../../i18n/locales';
import { messagesFor } from '../../i18n/messages/index';
import type { PlannerQuery, PlannerWorkerRequest, PlannerWorkerResponse } from './planner-requests';

/** Something that searches in the background and calls back with the answer to the latest request. */
export interface PlannerClient {
  /** Start a search; answers to earlier requests are dropped. */
  search(query: PlannerQuery): void;
  /** Stop the workers. */
  close(): void;
}

/**
 * An answer: the result and the search's time in the workers (the longest share's, the time the reader waits for the
 * search), or an error.
 */
export type PlannerAnswer =
  | {
      readonly ok: true;
      readonly result: PlanResult;
      readonly ms: number;
      /** Workers the search ran in, one share each. */
      readonly workers: number;
    }
  | { readonly ok: false; readonly message: string };

/** What the client needs of a worker (a Web Worker; tests pass workers that answer in-process). */
export interface PlannerWorker {
  postMessage(request: PlannerWorkerRequest): void;
  onmessage: ((event: { data: PlannerWorkerResponse }) => void) | null;
  onerror: ((event: { message?: string }) => void) | null;
  terminate(): void;
}

/** The most workers a page starts (workerCount). */
export const MAX_WORKERS = 4;

/**
 * Workers a page starts: one per core the browser reports but one, left to the page and the browser's own threads
 * (garbage collection, compiling), at most four (each holds its own copy of the engine). On two cores two workers
 * searched no faster than one (Chromium, this planner's worker, one and two workers in turn): the browser's threads
 * took the second core.
 */
export function workerCount(): number {
  const cores = typeof navigator === 'undefined' ? 1 : navigator.hardwareConcurrency;
  return Math.max(1, Math.min(MAX_WORKERS, (Number.isFinite(cores) ? cores : 1) - 1));
}

function startWorker(): PlannerWorker {
  return new Worker(new URL('./planner.worker.ts', import.meta.url), { type: 'module' }) as unknown as PlannerWorker;
}

/**
 * A client whose answers go to `onAnswer`, with the wait from the request to the answer. A search still running when
 * the next one starts is stopped with its workers (a search cannot be interrupted from inside), so a large search never
 * delays the answer to the reader's latest settings.
 */
export function createPlannerClient(
  onAnswer: (answer: PlannerAnswer, waitedMs: number) => void,
  { workers = workerCount(), start = startWorker }: { workers?: number; start?: () => PlannerWorker } = {},
): PlannerClient {
  let pool = Array.from({ length: workers }, start);
  let latest = 0;
  let busy = false;

  const ask = (worker: PlannerWorker, request: PlannerWorkerRequest) =>
    new Promise<PlannerWorkerResponse>((resolve) => {
      worker.onmessage = (event) => resolve(event.data);
      // The browser's reason, or none: the page words a crash without one in its language.
      worker.onerror = (event) => resolve({ id: request.id, ok: false, message: event.message ?? '' });
      worker.postMessage(request);
    });

  /** The searches, each worker searching its share of every set of GPUs, merged; or the error. */
  const searchShares = async (id: number, query: PlannerQuery) => {
    const answers = await Promise.all(
      pool.map((worker, index) => ask(worker, { id, kind: 'search', ...query, share: { index, of: pool.length } })),
    );
    let ms = 0;
    const shares: (readonly SearchPart[])[] = [];
    for (const answer of answers) {
      if (!answer.ok) return answer;
      if (answer.kind !== 'search') throw new Error('a search request gets search parts');
      ms = Math.max(ms, answer.ms);
      shares.push(answer.parts.map((part) => unpackSearch(part)));
    }
    const searches = (shares[0] ?? []).map((_, i) =>
      mergeParts(shares.map((parts) => parts[i]).filter((part): part is SearchPart => part !== undefined)),
    );
    return { ok: true as const, searches, ms };
  };

  /** planTraining in the first worker, from `searches` where given (else it searches itself). */
  const askPlan = async (id: number, query: PlannerQuery, searches?: readonly HardwareSearch[]) => {
    const worker = pool[0];
    if (worker === undefined) throw new Error('the client has workers');
    const answer = await ask(
      worker,
      searches === undefined
        ? { id, kind: 'plan', ...query }
        : { id, kind: 'plan', ...query, searches: searches.map((search) => packSearch(search)) },
    );
    if (!answer.ok) return answer;
    if (answer.kind !== 'plan') throw new Error('a plan request gets a plan');
    return { ok: true as const, result: unpackResult(answer.result), ms: answer.ms };
  };

  /**
   * The answer from merged searches. Where a plan fits on the reader's GPUs it only ranks them, here; where none does,
   * the answer searches more hardware (what would fit), which a worker does.
   */
  const answerFrom = (id: number, query: PlannerQuery, request: PlanRequest, searches: readonly HardwareSearch[]) =>
    (searches[0]?.plans.length ?? 0) > 0
      ? Promise.resolve({ ok: true as const, result: planTraining(request, { searches }), ms: 0 })
      : askPlan(id, query, searches);

  const run = async (id: number, query: PlannerQuery, sentAt: number) => {
    const stale = () => id !== latest;
    const reply = (answer: PlannerAnswer) => {
      if (stale()) return;
      busy = false;
      onAnswer(answer, performance.now() - sentAt);
    };
    const words = messagesFor(query.locale ?? DEFAULT_LOCALE).planner.search;
    const parsed = parsePlanFlags(query.flags, EXAMPLE_PRICES, query.modelConfig, words.request);
    if (!parsed.ok) return reply({ ok: false, message: fieldErrorsLine(parsed.errors, words.fieldError) });
    // One worker answers whole, as planTraining does: merging and ranking here would only add to the wait.
    const answer = pool.length === 1 ? await askPlan(id, query) : await searchAndPlan(id, query, parsed.request, stale);
    if (answer === null) return;
    if (!answer.ok) return reply(answer);
    reply({ ok: true, result: answer.result, ms: answer.ms, workers });
  };

  /** The searches in shares over the workers, merged, and the answer from them; null once the request is stale. */
  const searchAndPlan = async (id: number, query: PlannerQuery, request: PlanRequest, stale: () => boolean) => {
    const searched = await searchShares(id, query);
    if (stale()) return null;
    if (!searched.ok) return searched;
    const planned = await answerFrom(id, query, request, searched.searches);
    // The answer's search time: the longest share's, and the plan's.
    return planned.ok ? { ...planned, ms: searched.ms + planned.ms } : planned;
  };

  return {
    search(query) {
      if (busy) {
        for (const worker of pool) worker.terminate();
        pool = Array.from({ length: workers }, start);
      }
      latest += 1;
      busy = true;
      const id = latest;
      run(id, query, performance.now()).catch((error: unknown) => {
        if (id !== latest) return;
        busy = false;
        onAnswer({ ok: false, message: error instanceof Error ? error.message : String(error) }, 0);
      });
    },
    close() {
      for (const worker of pool) worker.terminate();
    },
  };
}
