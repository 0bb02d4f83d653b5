import { describe, expect, test, vi } from 'vitest';
import {
  createPlannerClient,
  workerCount,
  type PlannerAnswer,
  type PlannerWorker,
} from '../../../../src/components/planner/planner-client.ts';
import { answerPlannerRequest, type PlannerWorkerRequest } from '../../../../src/components/planner/planner-requests.ts';
import { planTraining, type RawFlagValues } from '../../../../src/planner/index.ts';
import { planRequest } from '../../support/plan-request.ts';

/**
 * Workers that answer in this process, a turn later, as a Web Worker would; a terminated one never answers. Each
 * records what it was asked.
 */
function inProcessWorkers() {
  const started: { terminated: boolean; asked: PlannerWorkerRequest[] }[] = [];
  const start = (): PlannerWorker => {
    const record = { terminated: false, asked: [] as PlannerWorkerRequest[] };
    started.push(record);
    const worker: PlannerWorker = {
      onmessage: null,
      onerror: null,
      postMessage(request) {
        record.asked.push(request);
        // A structured clone, as postMessage makes, both ways.
        const copy = structuredClone(request);
        setTimeout(() => {
          if (!record.terminated) worker.onmessage?.({ data: structuredClone(answerPlannerRequest(copy)) });
        }, 0);
      },
      terminate() {
        record.terminated = true;
      },
    };
    return worker;
  };
  return { start, started };
}

/** The client's first answer (to the last of `searches`: the latest request wins), and the workers it started. */
function answers(workers: number, ...searches: RawFlagValues[]) {
  const { start, started } = inProcessWorkers();
  return new Promise<{ answer: PlannerAnswer; started: typeof started }>((resolve) => {
    const client = createPlannerClient(
      (answer) => {
        client.close();
        resolve({ answer, started });
      },
      { workers, start },
    );
    for (const flags of searches) client.search({ flags });
  });
}

function planned(flags: RawFlagValues) {
  return planTraining(planRequest(flags));
}

const FITS: RawFlagValues = { model: 'gpt2-xl', gpu: 'a100-80gb', gpus: '4', 'global-batch': '16', seq: '1024' };
const NOTHING_FITS: RawFlagValues = {
  model: 'llama-2-70b',
  gpu: 'rtx-4090',
  gpus: '2',
  'global-batch': '8',
  seq: '4096',
  'max-host-gb': '64',
};

describe('the planner client: a search in shares over several workers', () => {
  test.each([1, 2, 3, 4])('with %i workers the answer is planTraining’s', { timeout: 60_000 }, async (workers) => {
    const { answer, started } = await answers(workers, FITS);
    if (!answer.ok) throw new Error(JSON.stringify(answer));
    expect(answer.result).toEqual(planned(FITS));
    expect(answer.workers).toBe(workers);
    // Every worker searched a share; one worker answers whole.
    expect(started.map((w) => w.asked.map((r) => (r.kind === 'search' ? r.share : r.kind)))).toEqual(
      workers === 1 ? [['plan']] : Array.from({ length: workers }, (_, index) => [{ index, of: workers }]),
    );
  });

  test.each([1, 2])(
    'renting compared, %i worker(s): one answer, planTraining’s, the rented GPUs searched in the same walk',
    { timeout: 60_000 },
    async (workers) => {
      const rent = { ...FITS, rent: true };
      const { answer, started } = await answers(workers, rent);
      if (!answer.ok) throw new Error(JSON.stringify(answer));
      expect(answer.result).toEqual(planned(rent));
      expect(answer.result.plans.some((p) => p.hardware.rented)).toBe(true);
      expect(started.map((w) => w.asked.map((r) => r.kind))).toEqual(
        workers === 1 ? [['plan']] : Array.from({ length: workers }, () => ['search']),
      );
    },
  );

  test('nothing fits: a worker answers with the shortfall and the hardware that would fit', { timeout: 60_000 }, async () => {
    const { answer, started } = await answers(2, NOTHING_FITS);
    if (!answer.ok) throw new Error(JSON.stringify(answer));
    const expected = planned(NOTHING_FITS);
    expect(expected.plans).toEqual([]);
    expect(expected.wouldFit.length).toBeGreaterThan(0);
    expect(answer.result).toEqual(expected);
    expect(started[0]?.asked.map((r) => r.kind)).toEqual(['search', 'plan']);
  });

  test('the latest request wins: a search still running is stopped with its workers', { timeout: 60_000 }, async () => {
    const { answer, started } = await answers(2, NOTHING_FITS, FITS);
    if (!answer.ok) throw new Error(JSON.stringify(answer));
    expect(answer.result).toEqual(planned(FITS));
    // Two workers stopped with the first search, two started for the second.
    expect(started.map((w) => w.terminated)).toEqual([true, true, true, true]);
    expect(started.slice(0, 2).every((w) => w.asked.every((r) => r.flags['model'] === 'llama-2-70b'))).toBe(true);
  });
});

describe('workerCount', () => {
  test.each<[number | undefined, number]>([
    [undefined, 1],
    [1, 1],
    [2, 1],
    [4, 3],
    [8, 4],
    [64, 4],
  ])('with %s cores reported: %i workers (one core left to the page, at most four)', (cores, expected) => {
    vi.stubGlobal('navigator', { hardwareConcurrency: cores });
    try {
      expect(workerCount()).toBe(expected);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
