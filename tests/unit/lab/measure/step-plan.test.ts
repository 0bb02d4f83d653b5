import { describe, expect, test } from 'vitest';
import type { ManifestGraph } from '../../../../src/graphs/manifest';
import { planStep } from '../../../../src/lab/measure/step-plan';

const graph = (file: string, inputs: string[], outputs: string[]): ManifestGraph => ({
  file,
  role: 'stage-forward',
  inputs: inputs.map((name) => ({ name, dtype: 'float32', shape: [1] })),
  outputs: outputs.map((name) => ({ name, dtype: 'float32', shape: [1] })),
  bytes: 0,
});

const isResult = (name: string) => name === 'loss' || name.startsWith('grad.w');

describe('planStep(graphs, external, keep)', () => {
  const segmented = [
    graph('f0', ['x', 'w0'], ['act1']),
    graph('f1', ['act1', 'w1'], ['act2']),
    graph('loss', ['act2', 'labels'], ['loss', 'grad.act2']),
    graph('b1', ['act1', 'grad.act2', 'w1'], ['grad.act1', 'grad.w1']),
    graph('b0', ['x', 'grad.act1', 'w0'], ['grad.w0']),
  ];
  const external = new Set(['x', 'labels', 'w0', 'w1']);

  test('releases each activation right after its last reader', () => {
    const plan = planStep(segmented, external, isResult);
    expect(plan.map((run) => [run.file, run.release])).toEqual([
      ['f0', []],
      ['f1', []],
      ['loss', ['act2']],
      ['b1', ['act1', 'grad.act2']],
      ['b0', ['grad.act1']],
    ]);
  });

  test('never releases feeds or kept results', () => {
    const released = planStep(segmented, external, isResult).flatMap((run) => run.release);
    for (const name of ['x', 'labels', 'w0', 'w1', 'loss', 'grad.w0', 'grad.w1']) expect(released).not.toContain(name);
  });

  test('an output nobody reads is released by the run that made it', () => {
    const plan = planStep([graph('g', ['x'], ['unused', 'loss'])], new Set(['x']), isResult);
    expect(plan[0]?.release).toEqual(['unused']);
  });

  test('a graph that reads a name nothing provides is an error that names it', () => {
    expect(() => planStep([graph('g', ['missing'], ['y'])], new Set(), isResult)).toThrow(/g reads missing/);
  });
});
