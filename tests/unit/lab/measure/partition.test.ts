import { describe, expect, test } from 'vitest';
import { createMlp } from '../../../../src/graphs/mlp';
import { allParameters } from '../../../../src/graphs/model';
import { partitionParameters, shardSizes } from '../../../../src/lab/measure/partition';

describe('partitionParameters(parameters, devices)', () => {
  const params = allParameters(createMlp({ hidden: 256, layers: 8, classes: 10 }));
  const total = params.reduce((n, p) => n + p.shape.reduce((a, b) => a * b, 1), 0);

  test.each([1, 2, 4])('every parameter has one owner among %i devices, and shards are within one layer of equal', (devices) => {
    const owners = partitionParameters(params, devices);
    expect(Object.keys(owners).sort()).toEqual(params.map((p) => p.name).sort());
    const sizes = shardSizes(params, owners, devices);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(256 * 256 + 256);
  });

  test('eight equal layers split four and four over two devices', () => {
    const owners = partitionParameters(params, 2);
    expect(params.filter((p) => /^w\d$/.test(p.name)).filter((p) => owners[p.name] === 0)).toHaveLength(4);
  });

  test('zero devices is rejected', () => expect(() => partitionParameters(params, 0)).toThrowError(/cannot shard/));
});
