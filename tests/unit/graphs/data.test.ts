import { describe, expect, test } from 'vitest';
import { syntheticBatch } from '../../../src/graphs/data.ts';

describe('syntheticBatch(shape, batch, seed)', () => {
  test('mlp: x of batch×hidden and labels in range, deterministic', () => {
    const b = syntheticBatch({ arch: 'mlp', hidden: 8, classes: 3 }, 5, 1);
    expect(b.data).toHaveLength(40);
    // float32 class indices (the MLP's label input, mlp.ts), whole numbers in range.
    expect(b.labels).toBeInstanceOf(Float32Array);
    expect([...(b.labels as Float32Array)].every((l) => Number.isInteger(l) && l >= 0 && l < 3)).toBe(true);
    expect(syntheticBatch({ arch: 'mlp', hidden: 8, classes: 3 }, 5, 1)).toEqual(b);
  });
  test('tiny-gpt: labels are the next tokens', () => {
    const b = syntheticBatch({ arch: 'tiny-gpt', seq: 6, vocab: 256 }, 2, 1);
    expect(b.labels.slice(0, 5)).toEqual((b.data as BigInt64Array).slice(1, 6));
  });
});
