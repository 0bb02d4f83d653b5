import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { getGpuPreset, getModelPreset } from '../../../src/memory/index.ts';
import { DIMENSIONS, divisors, PLANNER_WORDS, type PlanRequest, type SearchContext } from '../../../src/planner/index.ts';

describe('the search’s dimensions', () => {
  test.each<[number, number[]]>([
    [1, [1]],
    [12, [1, 2, 3, 4, 6, 12]],
    [16, [1, 2, 4, 8, 16]],
    [7, [1, 7]],
  ])('divisors(%i) is %j', (n, expected) => {
    expect(divisors(n)).toEqual(expected);
  });

  test('every lesson a choice names is a page of the site', () => {
    const model = getModelPreset('llama-2-7b')?.config;
    const gpu = getGpuPreset('a100-80gb');
    if (model === undefined || gpu === undefined) throw new Error('presets');
    const request = { globalBatch: 16 } as PlanRequest;
    const ctx: SearchContext = { request, gpu, gpus: 8, model, words: PLANNER_WORDS };
    const lessons = new Set(DIMENSIONS.flatMap((d) => d.choices(ctx, { dp: 2 }).flatMap((c) => c.lessons)));
    expect(lessons.size).toBeGreaterThan(4);
    for (const id of lessons)
      expect(existsSync(join(import.meta.dirname, '../../../content/docs/lessons', `${id}.mdx`)), id).toBe(true);
  });
});
