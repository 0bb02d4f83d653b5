import { describe, expect, test } from 'vitest';
import { syntheticBatch } from '../../../src/graphs/data.ts';

describe('syntheticBatch(shape, batch, seed)', () => {
  test('mlp: x of batch×hidden and labels in range, deterministic', () => {
    const b = syntheticBatch({ arch: 'mlp', hidden: 8, classes: 3 }, 5, 1);
    expect(b.data).toHaveLength(40);
    expect([...b.labels].every((l) => l >= 0n && l < 3n)).toBe(true);
    expect(syntheticBatch({ arch: 'mlp', hidden: 8, classes: 3 }, 5, 1)).toEqual(b);
  });
  test('tiny-gpt: labels are the next tokens', () => {
    const b = syntheticBatch({ arch: 'tiny-gpt', seq: 6, vocab: 256 }, 2, 1);
    expect(b.labels.slice(0, 5)).toEqual((b.data as BigInt64Array).slice(1, 6));
  });
});
