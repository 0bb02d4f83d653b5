import { describe, expect, test } from 'vitest';
import { defaultSegmentLength, segmentRanges, stageRanges } from '../../../src/graphs/segments.ts';

describe('layer ranges', () => {
  test.each([
    [1, 1],
    [4, 2],
    [8, 3],
    [16, 4],
  ])('defaultSegmentLength(%i) = %i', (layers, k) => expect(defaultSegmentLength(layers)).toBe(k));
  test('segmentRanges(8, 3) covers the layers with a shorter last segment', () =>
    expect(segmentRanges(8, 3)).toEqual([
      [0, 3],
      [3, 6],
      [6, 8],
    ]));
  test('stageRanges(7, 2) splits near-evenly', () =>
    expect(stageRanges(7, 2)).toEqual([
      [0, 4],
      [4, 7],
    ]));
  test('segmentRanges(8, 0) is rejected', () => expect(() => segmentRanges(8, 0)).toThrowError(/positive integer/));
});
