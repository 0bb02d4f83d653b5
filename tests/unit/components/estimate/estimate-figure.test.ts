import { describe, expect, test } from 'vitest';
import { estimateFigure, parseFlagString, valueAt, estimateFor } from '../../../../src/components/estimate/estimate-figure';
import { formatStepShare, formatStepTime } from '../../../../src/memory/index';

describe('estimateFigure(flags, show, unit)', () => {
  test('parses flag strings the way the CLI reads argv', () => {
    expect(parseFlagString('--model gpt2 --sp --seq=1024 --micro-batch 4')).toEqual({
      model: 'gpt2',
      sp: true,
      seq: '1024',
      'micro-batch': '4',
    });
    expect(() => parseFlagString('model gpt2')).toThrow(/expected --flag/);
  });

  test('prints the engine value in the unit asked', () => {
    expect(estimateFigure('--model llama-2-7b --mode infer --weights fp16', 'perGpu.weights', 'GB')).toBe('13.48 GB');
    expect(estimateFigure('--model llama-2-7b', 'params', 'count')).toBe('6,738,415,616');
    expect(estimateFigure('--model gpt2', 'peakPhase', 'text')).toMatch(/forward|backward|optimizer/);
  });

  test('reads one line, one timeline moment or one step-time line', () => {
    const result = estimateFor('--model gpt2 --gpu a100-80gb');
    expect(valueAt(result, 'line.weights')).toBe(result.lines.find((l) => l.id === 'weights')?.bytes);
    expect(valueAt(result, 'moment.optimizer')).toBe(result.timeline.find((m) => m.moment === 'optimizer')?.bytes);
    const optimizer = result.timeline.find((m) => m.moment === 'optimizer')!;
    expect(valueAt(result, 'moment.optimizer.gradients')).toBe(optimizer.byCategory.gradients);
    expect(valueAt(result, 'moment.optimizer.gradients')).toBeGreaterThan(0);
    expect(valueAt(result, 'time.compute')).toBe(result.stepTime?.lines.find((l) => l.id === 'compute')?.seconds);
  });

  test("a step's total prints with its band, a part of it as its share of the total", () => {
    const flags = '--model gpt2 --gpu a100-80gb';
    const { stepTime } = estimateFor(flags);
    if (stepTime === null || stepTime.band === null) throw new Error('a training estimate on a GPU has a banded step time');
    expect(estimateFigure(flags, 'stepTime.totalSeconds', 'seconds')).toBe(formatStepTime(stepTime.totalSeconds, stepTime.band));
    expect(estimateFigure(flags, 'stepTime.totalSeconds', 'seconds')).toMatch(/\(.+–.+\)$/);
    const compute = stepTime.lines.find((l) => l.id === 'compute')?.seconds ?? 0;
    expect(estimateFigure(flags, 'time.compute', 'share')).toBe(formatStepShare(compute, stepTime.totalSeconds));
    expect(estimateFigure(flags, 'time.compute', 'share')).toMatch(/^\d+ %$/);
  });

  test('a part of the step in seconds, or a share of anything but a part, stops the build', () => {
    expect(() => estimateFigure('--model gpt2 --gpu a100-80gb', 'time.compute', 'seconds')).toThrow(/use unit="share"/);
    expect(() => estimateFigure('--model gpt2 --gpu a100-80gb', 'stepTime.lines.0.seconds', 'seconds')).toThrow(
      /show="stepTime.totalSeconds"/,
    );
    expect(() => estimateFigure('--model gpt2 --gpu a100-80gb', 'perGpu.total', 'share')).toThrow(/show="time.<id>"/);
  });

  test('a configuration the engine refuses, or a path it lacks, stops the build with the reason', () => {
    expect(() => estimateFigure('--model gpt2 --tp 5', 'perGpu.total', 'GiB')).toThrow(/--tp/);
    expect(() => estimateFigure('--model gpt2', 'perGpu.nothing', 'GiB')).toThrow(/perGpu.nothing/);
    expect(() => estimateFigure('--model gpt2', 'line.nothing', 'GiB')).toThrow(/no line 'nothing'/);
    expect(() => estimateFigure('--model gpt2', 'moment.optimizer.nothing', 'GiB')).toThrow(/no category 'nothing'/);
    // Without a GPU there is no step time to read.
    expect(() => estimateFigure('--model gpt2', 'time.compute', 'share')).toThrow(/no step-time line 'compute'/);
  });
});
