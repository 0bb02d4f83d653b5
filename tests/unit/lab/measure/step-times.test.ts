import { describe, expect, test } from 'vitest';
import { createMemoryTracker } from '../../../../src/lab/measure/memory-tracker.ts';
import { measureSingleRun } from '../../../../src/lab/measure/single-run.ts';
import { stepTimesDiffer, summariseStepTimes } from '../../../../src/lab/measure/step-times.ts';
import { countingUploadStore, nodeExecutor } from './node-executor.ts';
import { expectSameGradients, files, models, spec } from './step-fixtures.ts';

describe('summariseStepTimes', () => {
  test('the median of an odd count is its middle step, of an even count the mean of the middle two', () => {
    expect(summariseStepTimes([30, 10, 20])).toEqual({ medianMs: 20, minMs: 10, maxMs: 30, count: 3 });
    expect(summariseStepTimes([40, 10, 20, 30])).toEqual({ medianMs: 25, minMs: 10, maxMs: 40, count: 4 });
    expect(summariseStepTimes([7])).toEqual({ medianMs: 7, minMs: 7, maxMs: 7, count: 1 });
  });

  test('no timed step is refused rather than reported as 0 s', () => {
    expect(() => summariseStepTimes([])).toThrow(/at least one/);
  });

  test('two runs differ only when their ranges do not overlap', () => {
    const fast = summariseStepTimes([10, 11, 12]);
    expect(stepTimesDiffer(fast, summariseStepTimes([13, 14, 15]))).toBe(true);
    expect(stepTimesDiffer(fast, summariseStepTimes([12, 14, 15]))).toBe(false);
    expect(stepTimesDiffer(summariseStepTimes([9, 30]), fast)).toBe(false);
  });
});

describe('a single run times extra steps without touching its memory figures', () => {
  test('timedSteps gives that many step times, and the same memory, gradients and loss as the measured steps alone', async () => {
    const measure = (timedSteps?: number) => {
      const tracker = createMemoryTracker();
      return measureSingleRun(
        nodeExecutor(files, countingUploadStore(tracker), tracker),
        spec(models.keep, timedSteps === undefined ? {} : { timedSteps }),
      ).then((result) => ({ result, tracker }));
    };
    const alone = await measure();
    const timed = await measure(4);
    expect(alone.result.stepTimes.count).toBe(1);
    expect(timed.result.stepTimes.count).toBe(4);
    expect(timed.result.stepTimes.minMs).toBeLessThanOrEqual(timed.result.stepTimes.medianMs);
    expect(timed.result.stepTimes.medianMs).toBeLessThanOrEqual(timed.result.stepTimes.maxMs);
    expect(timed.result.stepMs).toBe(timed.result.stepTimes.medianMs);
    const { timeline: _aloneTimeline, ...aloneMemory } = alone.result.memory;
    const { timeline: _timedTimeline, ...timedMemory } = timed.result.memory;
    expect(timedMemory).toEqual(aloneMemory);
    expect(timed.result.stepBytes).toEqual(alone.result.stepBytes);
    expectSameGradients(timed.result.gradients, alone.result.gradients);
    expect(timed.result.loss).toBeCloseTo(alone.result.loss, 6);
    // The extra steps freed what they made.
    expect(timed.tracker.snapshot().liveBytes).toBe(0);
  });

  test('a loop that keeps every step alive times only its measured steps', async () => {
    const result = await measureSingleRun(
      nodeExecutor(files),
      spec(models.keep, { steps: 3, loop: { retain: true }, timedSteps: 6 }),
    );
    // On WebAssembly the first of several steps warms up and is not timed.
    expect(result.stepTimes.count).toBe(2);
  });
});
