import { describe, expect, test } from 'vitest';
import { unpickle, type PickleValue } from '../../../src/diagnose/pickle.ts';
import { writePickle, type PlainData } from '../../../src/diagnose/pickle-writer.ts';
import { readSnapshot } from '../../../src/diagnose/snapshot.ts';
import { exampleText, fixtureBytes } from './fixtures.ts';

/** What the data-only unpickler reads back, as plain data (its dicts are Maps). */
function readBack(bytes: Uint8Array): unknown {
  const read = unpickle(bytes);
  if (!read.ok) throw new Error(read.error.message);
  const plain = (v: PickleValue): unknown =>
    v instanceof Map
      ? Object.fromEntries([...v].map(([k, item]) => [String(k), plain(item)]))
      : Array.isArray(v)
        ? v.map(plain)
        : typeof v === 'bigint'
          ? Number(v)
          : v;
  return plain(read.value);
}

describe('writePickle(value)', () => {
  test.each<[string, PlainData]>([
    ['null and booleans', [null, true, false]],
    ['32-bit integers at their edges', [0, -1, 2 ** 31 - 1, -(2 ** 31)]],
    [
      'integers past 32 bits (LONG1)',
      [2 ** 31, -(2 ** 31) - 1, 25_769_803_776, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER],
    ],
    ['floats', [0.5, -1.25e-7, 1e300]],
    ['strings, UTF-8 included', ['', 'block', 'µs · 显存']],
    ['nested lists and dicts', { segments: [{ device: 0, blocks: [{ size: 512, state: 'active_allocated' }] }], empty: {} }],
  ])('%s read back unchanged through the data-only unpickler', (_name, value) => {
    expect(readBack(writePickle(value))).toEqual(value);
  });

  test('refuses NaN and infinities, which JSON never holds', () => {
    expect(() => writePickle(Number.NaN)).toThrow(RangeError);
    expect(() => writePickle([Number.POSITIVE_INFINITY])).toThrow(RangeError);
  });

  test("the snapshot page's example, pickled in the browser, reads as CPython's pickle of the same snapshot", () => {
    const fromBrowser = readSnapshot(writePickle(JSON.parse(exampleText('snapshot-oom.json')) as PlainData));
    const fromCPython = readSnapshot(fixtureBytes('snapshot-oom.pickle'));
    expect(fromCPython.ok).toBe(true);
    expect(fromBrowser).toEqual(fromCPython);
  });
});
