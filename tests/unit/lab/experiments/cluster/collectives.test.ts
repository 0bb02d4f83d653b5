import { describe, expect, test } from 'vitest';
import { createRouter } from '../../../../../src/lab/experiments/cluster/collectives';

const f32 = (...values: number[]) => Float32Array.from(values);

describe('createRouter(size)', () => {
  test('all-reduce-mean delivers the element-wise mean to every device once all have joined', () => {
    const router = createRouter(2);
    expect(router.collective(0, 'b0', { op: 'all-reduce-mean' }, { w: f32(1, 2), b: f32(4) })).toEqual([]);
    const out = router.collective(1, 'b0', { op: 'all-reduce-mean' }, { w: f32(3, -2), b: f32(0) });
    expect(out.map((d) => d.to)).toEqual([0, 1]);
    for (const d of out) expect(d.tensors).toEqual({ w: f32(2, 0), b: f32(2) });
  });

  test('reduce-scatter-mean gives each device the mean of only the tensors it owns', () => {
    const router = createRouter(2);
    const owners = { w: 0, b: 1 };
    router.collective(1, 'g', { op: 'reduce-scatter-mean', owners }, { w: f32(2), b: f32(6) });
    const out = router.collective(0, 'g', { op: 'reduce-scatter-mean', owners }, { w: f32(4), b: f32(2) });
    expect(out).toEqual([
      { to: 0, key: 'g', tensors: { w: f32(3) } },
      { to: 1, key: 'g', tensors: { b: f32(4) } },
    ]);
  });

  test('all-gather gives every device the union of the parts', () => {
    const router = createRouter(3);
    router.collective(0, 'p', { op: 'all-gather' }, { a: f32(1) });
    router.collective(2, 'p', { op: 'all-gather' }, { c: f32(3) });
    const out = router.collective(1, 'p', { op: 'all-gather' }, { b: f32(2) });
    expect(out).toHaveLength(3);
    for (const d of out) expect(d.tensors).toEqual({ a: f32(1), b: f32(2), c: f32(3) });
  });

  test('collectives with different keys do not mix', () => {
    const router = createRouter(2);
    router.collective(0, 'step1', { op: 'all-reduce-mean' }, { w: f32(1) });
    expect(router.collective(1, 'step2', { op: 'all-reduce-mean' }, { w: f32(5) })).toEqual([]);
    expect(router.collective(1, 'step1', { op: 'all-reduce-mean' }, { w: f32(3) })[0]?.tensors).toEqual({ w: f32(2) });
  });

  test('mismatched shapes, ops and double joins are errors, not silent averages', () => {
    const router = createRouter(2);
    router.collective(0, 'x', { op: 'all-reduce-mean' }, { w: f32(1, 2) });
    expect(() => router.collective(1, 'x', { op: 'all-reduce-mean' }, { w: f32(1) })).toThrowError(
      /device 1 contributed w with 1 values, device 0 with 2/,
    );
    router.collective(0, 'y', { op: 'all-gather' }, {});
    expect(() => router.collective(1, 'y', { op: 'all-reduce-mean' }, {})).toThrowError(
      /called all-reduce-mean, others all-gather/,
    );
    router.collective(0, 'z', { op: 'all-gather' }, {});
    expect(() => router.collective(0, 'z', { op: 'all-gather' }, {})).toThrowError(/joined twice/);
  });

  test('send delivers to the named device only', () => {
    const router = createRouter(4);
    expect(router.send(1, 2, 'act/0', { act4: f32(7) })).toEqual([{ to: 2, key: 'act/0', tensors: { act4: f32(7) } }]);
    expect(() => router.send(1, 1, 'k', {})).toThrowError(/cannot send/);
    expect(() => router.send(1, 4, 'k', {})).toThrowError(/cannot send/);
  });
});
