import { describe, expect, test } from 'vitest';
import { initWeights } from '../../../src/graphs/init.ts';
import type { ParamSpec } from '../../../src/graphs/params.ts';

describe('initWeights(params, seed)', () => {
  const params: ParamSpec[] = [
    { name: 'w0', shape: [64, 64], init: { kind: 'normal', std: 0.5 } },
    { name: 'b0', shape: [64], init: { kind: 'zeros' } },
    { name: 'g', shape: [4], init: { kind: 'ones' } },
  ];
  test('is deterministic, follows the init rule, and gives each parameter its own stream', () => {
    const a = initWeights(params, 42);
    expect(initWeights(params, 42)).toEqual(a);
    expect(initWeights(params, 43)['w0']).not.toEqual(a['w0']);
    expect(initWeights(params.slice(0, 1), 42)['w0']).toEqual(a['w0']);
    expect([...(a['b0'] ?? [])].every((v) => v === 0)).toBe(true);
    expect([...(a['g'] ?? [])].every((v) => v === 1)).toBe(true);
    const w = [...(a['w0'] ?? [])];
    const std = Math.sqrt(w.reduce((s, v) => s + v * v, 0) / w.length);
    expect(std).toBeGreaterThan(0.45);
    expect(std).toBeLessThan(0.55);
  });
});
