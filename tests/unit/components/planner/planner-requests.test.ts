import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  plannerWorkerHandler,
  warmUpPieces,
  type PlannerWorkerRequest,
  type PlannerWorkerResponse,
} from '../../../../src/components/planner/planner-requests.ts';
import { readConfigJson } from '../../../../src/memory/index.ts';
import {
  EXAMPLE_PRICES,
  mergeParts,
  parsePlanFlags,
  planHardware,
  planModel,
  planTraining,
  searchParts,
} from '../../../../src/planner/index.ts';
import { planRequest } from '../../support/plan-request.ts';
import { unpackResult } from '../../../../src/components/planner/plan-transfer.ts';

/** Renting compared, so that the worker has several sets of GPUs to share out. */
const FLAGS = { model: 'gpt2', gpu: 'a100-80gb', gpus: '8', 'global-batch': '16', seq: '512', rent: 'true' };

describe("the planner worker's warm-up", () => {
  test('a round of warm-up pieces searches exactly the worker’s share of every set of GPUs, in four shares of it', () => {
    const share = { index: 1, of: 2 };
    const request: PlannerWorkerRequest = { id: 1, kind: 'search', flags: FLAGS, share };
    const pieces = warmUpPieces(request);
    expect(pieces).toHaveLength(16);
    const parsed = planRequest(FLAGS);
    const hardware = planHardware(parsed);
    const whole = searchParts(parsed, hardware, planModel(parsed), undefined, share);
    const round = pieces.slice(0, 4).map((piece) => piece());
    expect(whole.length).toBeGreaterThan(1);
    whole.forEach((part, h) => {
      const pieceParts = round.map((parts) => parts[h]).filter((p) => p !== undefined);
      expect(pieceParts).toHaveLength(4);
      const merged = mergeParts(pieceParts);
      expect(merged.plans.length).toBeGreaterThan(0);
      expect(merged).toEqual(mergeParts([part]));
    });
  });

  test('the handler answers each request at once, warms up after the first only, and a request drops the pieces left', () => {
    const posted: PlannerWorkerResponse[] = [];
    const queue: (() => void)[] = [];
    const handle = plannerWorkerHandler(
      (response) => posted.push(response),
      (run) => queue.push(run),
    );
    const runQueued = (turns: number) => {
      for (let i = 0; i < turns; i++) queue.shift()?.();
    };
    handle({ id: 1, kind: 'plan', flags: FLAGS });
    expect(posted.map((r) => r.id)).toEqual([1]);
    expect(queue).toHaveLength(1);
    runQueued(3); // three pieces ran, each scheduling the next
    expect(queue).toHaveLength(1);
    handle({ id: 2, kind: 'plan', flags: FLAGS });
    expect(posted.map((r) => r.id)).toEqual([1, 2]);
    runQueued(1); // the turn scheduled before the request finds no piece left
    expect(queue).toHaveLength(0);
    handle({ id: 3, kind: 'plan', flags: { ...FLAGS, gpus: '0' } });
    expect(posted.at(-1)).toMatchObject({ id: 3, ok: false });
    expect(queue).toHaveLength(0);
  });
});

describe('a model read from a config.json', () => {
  test('travels with the request: the worker plans that shape, as the planner does given it directly', () => {
    const reading = readConfigJson(
      readFileSync(new URL('../../../../src/memory/model-configs/qwen3-0.6b.json', import.meta.url), 'utf8'),
    );
    if (!reading.ok) throw new Error('qwen3-0.6b.json reads');
    const { model: _preset, ...flags } = FLAGS;
    const posted: PlannerWorkerResponse[] = [];
    plannerWorkerHandler(
      (response) => posted.push(response),
      () => undefined,
    )({ id: 1, kind: 'plan', flags, modelConfig: reading.config });
    const answer = posted[0];
    if (answer?.ok !== true || answer.kind !== 'plan') throw new Error(JSON.stringify(answer));
    const direct = parsePlanFlags(flags, EXAMPLE_PRICES, reading.config);
    if (!direct.ok) throw new Error(JSON.stringify(direct.errors));
    const expected = planTraining(direct.request);
    const plans = unpackResult(answer.result).plans;
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.map((p) => p.perGpu.total)).toEqual(expected.plans.map((p) => p.perGpu.total));
    expect(answer.result.request.base.modelConfig).toEqual(reading.config);
  });
});
