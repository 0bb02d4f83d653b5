import { describe, expect, test } from 'vitest';
import { GIB, MIB } from '../../../src/base/bytes.ts';
import { parseMemorySummary } from '../../../src/diagnose/memory-summary.ts';
import { exampleText, pasteText } from './fixtures.ts';

describe('parseMemorySummary (layout of torch.cuda.memory_summary in torch/cuda/memory.py)', () => {
  const summary = parseMemorySummary(exampleText('memory-summary.txt'));

  test('header: device, CUDA OOMs, cudaMalloc retries', () => {
    expect([summary.deviceId, summary.cudaOoms, summary.cudaMallocRetries]).toEqual([0, 1, 3]);
    expect(summary.unread).toEqual([]);
  });

  test('sizes are read as printed (floored to the unit by _format_size)', () => {
    expect(summary.metrics.allocated?.all).toEqual({
      current: 14215 * MIB,
      peak: 71340 * MIB,
      totalAllocated: 9412 * GIB,
      totalFreed: 9398 * GIB,
    });
    expect(summary.metrics.reserved?.all.current).toBe(76802 * MIB);
    expect(summary.metrics.allocated?.smallPool?.current).toBe(284 * MIB);
    expect(summary.metrics.nonReleasable?.largePool?.peak).toBe(5833 * MIB);
  });

  test('counts with K mean thousands (_format_count)', () => {
    expect(summary.metrics.allocations?.all).toEqual({
      current: 1208,
      peak: 2950,
      totalAllocated: 41_200_000,
      totalFreed: 41_198_000,
    });
    expect(summary.metrics.oversizeSegments?.all.current).toBe(0);
  });

  test('an abbreviated summary from an older PyTorch (no Requested memory, no pool rows) still reads', () => {
    const text = [
      '|===========================================================================|',
      '|                  PyTorch CUDA memory summary, device ID 1                 |',
      '|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |',
      '|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |',
      '| Allocated memory      |    512 B   |   1024 KiB |  10240 KiB |  10239 KiB |',
      '| GPU reserved memory   |   2048 KiB |   2048 KiB |   2048 KiB |      0 B   |',
      '|===========================================================================|',
    ].join('\n');
    const s = parseMemorySummary(text);
    expect(s.deviceId).toBe(1);
    expect(s.metrics.allocated?.all.current).toBe(512);
    expect(s.metrics.reserved?.all.current).toBe(2048 * 1024);
    expect(s.metrics.requested).toBeUndefined();
    expect(s.unread).toEqual([]);
  });

  test('a row with a value in another format is named, not guessed', () => {
    const s = parseMemorySummary(
      'PyTorch CUDA memory summary\n| Allocated memory      | 1.234,5 MiB |  1 MiB |  1 MiB |  1 MiB |',
    );
    expect(s.metrics.allocated).toBeUndefined();
    expect(s.unread.map((n) => n.message)).toEqual([
      'row "Allocated memory" has a value that is not a size',
      'the table is cut off here: the rows after it are unknown, not zero',
      'no readable "Allocated memory" row',
      'no readable "GPU reserved memory" row',
    ]);
  });
});

describe('class 8 of issue #29: memory_summary as people paste it (tests/fixtures/diagnose/README.md names each source)', () => {
  test.each([
    ['08-summary-1.txt', 1062 * MIB, 12420 * MIB, 17],
    ['08-summary-2.txt', 0, 0, 17],
    ['08-summary-3.txt', 1024, 2048 * 1024, 17],
    ['08-summary-4.txt', 3595 * MIB, 3614 * MIB, 16],
  ])('%s: the old B/KB/MB units are binary, and the cut is said where it falls', (name, allocated, reserved, cutLine) => {
    const s = parseMemorySummary(pasteText(name));
    expect(s.metrics.allocated?.all.current).toBe(allocated);
    expect(s.metrics.reserved?.all.current).toBe(reserved);
    expect(s.cutShort).toBe(true);
    expect(s.unread).toContainEqual({
      line: cutLine,
      message: 'the table is cut off here: the rows after it are unknown, not zero',
      reason: { code: 'tableCut' },
    });
  });

  test('GB totals (fairseq#2442) and a KB non-releasable row read in binary units', () => {
    expect(parseMemorySummary(pasteText('08-oom-summary-1.txt')).metrics.allocated?.all.totalAllocated).toBe(767743 * GIB);
    expect(parseMemorySummary(pasteText('08-summary-4.txt')).metrics.nonReleasable?.all.current).toBe(18475 * 1024);
  });

  test('a table pasted without its header still reads, and says the header facts are unknown', () => {
    const s = parseMemorySummary(pasteText('08-summary-4.txt'));
    expect([s.deviceId, s.cudaOoms, s.cudaMallocRetries]).toEqual([null, null, null]);
    expect(s.unread[0]?.message).toMatch(/no "PyTorch CUDA memory summary" header/);
  });

  test('a table cut before its reserved row keeps every row above the cut', () => {
    const s = parseMemorySummary(pasteText('08-summary-5.txt'));
    expect(s.metrics.allocated?.all.peak).toBe(14441 * MIB);
    expect(s.metrics.reserved).toBeUndefined();
    expect(s.unread.map((n) => n.message)).toContain('no readable "GPU reserved memory" row');
  });

  test.each([
    ['a notebook comment', '# '],
    ['a torchrun rank', '[rank0]: '],
    ['a log line', '2024-05-07 10:00:01,123 - INFO - '],
  ])('a prefix repeated on every line (%s) reads exactly as the bare table', (_name, prefix) => {
    const bare = pasteText('08-summary-1.txt');
    const prefixed = bare
      .split('\n')
      .map((line) => (line === '' ? line : prefix + line))
      .join('\n');
    expect(parseMemorySummary(prefixed)).toEqual(parseMemorySummary(bare));
  });

  test('a paste of one summary per rank reads the first and names the others', () => {
    const one = exampleText('memory-summary.txt');
    const s = parseMemorySummary(`${one}\n${one.replace('device ID 0', 'device ID 2')}`);
    expect(s).toMatchObject({ deviceId: 0, furtherDeviceIds: [2], cutShort: false });
    expect(s.metrics).toEqual(parseMemorySummary(one).metrics);
  });
});
