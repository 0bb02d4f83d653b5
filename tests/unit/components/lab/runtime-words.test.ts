import { describe, expect, test } from 'vitest';
import {
  describeRuntimeSide,
  describeUncheckedRuntimeSide,
  gapLines,
  runtimeVerdict,
} from '../../../../src/components/lab/runtime-words';
import type { GapItem, ItemisedGap } from '../../../../src/lab/runtime-model/runtime-gap';

const MiB = 2 ** 20;

/** A gap of a runtime peak of 2 MiB over a PyTorch peak of 1 MiB, with `rest` not itemised. */
function gapWithRest(rest: number): ItemisedGap {
  const items: GapItem[] = [
    { cause: 'second-gradient-set', bytes: 0 },
    { cause: 'size-classes', bytes: 0.5 * MiB },
    { cause: 'reuse-after-flush', bytes: 0.5 * MiB - rest },
    { cause: 'examples-and-labels', bytes: 0 },
    { cause: 'rest', bytes: rest },
  ];
  return { runtime: { examplesBytes: 0, peakBytes: 2 * MiB }, items };
}

describe('runtimeVerdict(measured, gap, pytorch)', () => {
  test('"agrees" needs measured within 10% of this runtime and the gap to PyTorch explained', () => {
    expect(runtimeVerdict(2.1 * MiB, gapWithRest(0.05 * MiB), MiB)).toBe('agrees');
  });
  test('within 10% but more than 10% of PyTorch’s peak not itemised is only "close"', () => {
    expect(runtimeVerdict(2 * MiB, gapWithRest(0.2 * MiB), MiB)).toBe('close');
    expect(runtimeVerdict(2 * MiB, gapWithRest(-0.2 * MiB), MiB)).toBe('close');
  });
  test('judged as printed: 1.10× (exactly 1.1004×) is within 10%', () => {
    expect(runtimeVerdict(1.1004 * 2 * MiB, gapWithRest(0), MiB)).toBe('agrees');
  });
  test('more than 10% from this runtime is "apart", however well the gap is explained', () => {
    expect(runtimeVerdict(2.3 * MiB, gapWithRest(0), MiB)).toBe('apart');
    expect(runtimeVerdict(1.7 * MiB, gapWithRest(0), MiB)).toBe('apart');
  });
});

describe('gapLines(items) and describeRuntimeSide', () => {
  test('one signed line per item that holds bytes, in the order the rules were switched off', () => {
    const lines = gapLines(gapWithRest(-0.25 * MiB).items);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\+0\.50 MiB: size classes/);
    expect(lines[1]).toMatch(/^\+0\.75 MiB: freed buffers reused only after a flush/);
    expect(lines[2]).toMatch(/^−0\.25 MiB: not itemised/);
  });
  test('says "agrees" only for an agreeing side', () => {
    expect(describeRuntimeSide('one batch', 2 * MiB, gapWithRest(0), MiB)).toContain('agrees with this runtime (1.00×)');
    expect(describeRuntimeSide('one batch', 2 * MiB, gapWithRest(0.5 * MiB), MiB)).not.toMatch(/\bagrees\b/);
  });
});

describe('describeUncheckedRuntimeSide (a side no recorded trace checks: mixed precision)', () => {
  test('never says "agrees", even where checked words would, and says the prediction is not yet checked', () => {
    const gap = gapWithRest(0);
    expect(describeRuntimeSide('16-bit', 2 * MiB, gap, MiB)).toMatch(/\bagrees\b/);
    const words = describeUncheckedRuntimeSide('16-bit', 2 * MiB, gap, MiB);
    expect(words).not.toMatch(/\bagrees?\b/);
    expect(words).toContain('predicted, not yet checked against a trace');
    expect(words).toContain('measured at 1.00× of it');
  });
});
