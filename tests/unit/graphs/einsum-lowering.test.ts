/** Matrix products are written as Einsum, and compute exactly what MatMul and Gemm define. */
import onnxProto from 'onnx-proto';
import { describe, expect, test } from 'vitest';
import { GraphBuilder } from '../../../src/graphs/builder.ts';
import * as op from '../../../src/graphs/ops.ts';
import { serializeModel } from '../../../src/graphs/serialize.ts';
import { createRunner, maxRelativeError } from './helpers.ts';

/** A·B for row-major A (m×k) and B (k×n), in float64. */
function product(a: number[], b: number[], m: number, k: number, n: number): number[] {
  return Array.from({ length: m * n }, (_, idx) => {
    const i = Math.floor(idx / n);
    const j = idx % n;
    let sum = 0;
    for (let p = 0; p < k; p++) sum += a[i * k + p]! * b[p * n + j]!;
    return sum;
  });
}

/** The transpose of a row-major rows×cols matrix. */
const transposed = (x: number[], rows: number, cols: number): number[] =>
  Array.from({ length: rows * cols }, (_, idx) => x[(idx % rows) * cols + Math.floor(idx / rows)]!);

const values = (count: number, seed: number): number[] => Array.from({ length: count }, (_, i) => Math.sin(seed * 7.3 + i * 1.7));

/** The op types written to the file for a built graph. */
const writtenOps = (b: GraphBuilder): string[] =>
  onnxProto.onnx.ModelProto.decode(serializeModel(b)).graph!.node!.map((n) => n.opType!);

describe('2-D matrix products are written as Einsum', () => {
  const [m, k, n] = [3, 5, 4];

  test.each([
    [false, false],
    [false, true],
    [true, false],
    [true, true],
  ])('Gemm transA=%s transB=%s equals op(A)·op(B)', async (transA, transB) => {
    const a = values(m * k, 1);
    const bValues = values(k * n, 2);
    const g = new GraphBuilder('gemm');
    const x = g.input('a', 'float32', transA ? [k, m] : [m, k]);
    const y = g.input('b', 'float32', transB ? [n, k] : [k, n]);
    g.output(op.gemm(g, x, y, { transA, transB }, 'out'));
    expect(writtenOps(g)).toEqual(['Einsum']);
    const run = await createRunner(g, {});
    const { values: out } = await run({ a: transA ? transposed(a, m, k) : a, b: transB ? transposed(bValues, k, n) : bValues });
    expect(maxRelativeError(out['out']!, product(a, bValues, m, k, n))).toBeLessThan(1e-5);
  });

  test('MatMul of two matrices equals A·B', async () => {
    const a = values(m * k, 3);
    const bValues = values(k * n, 4);
    const g = new GraphBuilder('matmul');
    g.output(op.matmul(g, g.input('a', 'float32', ['batch', k]), g.input('b', 'float32', [k, n]), 'out'));
    expect(writtenOps(g)).toEqual(['Einsum']);
    const { values: out } = await (await createRunner(g, { batch: m }))({ a, b: bValues });
    expect(maxRelativeError(out['out']!, product(a, bValues, m, k, n))).toBeLessThan(1e-5);
  });

  test('batched (3-D) MatMul stays MatMul', () => {
    const g = new GraphBuilder('batched');
    g.output(op.matmul(g, g.input('a', 'float32', [2, m, k]), g.input('b', 'float32', [2, k, n]), 'out'));
    expect(writtenOps(g)).toEqual(['MatMul']);
  });
});
