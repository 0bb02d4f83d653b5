import { describe, expect, test } from 'vitest';
import { GIB, MIB } from '../../../src/base/bytes.ts';
import { parseMemorySummary } from '../../../src/diagnose/memory-summary.ts';
import { exampleText } from './fixtures.ts';

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
      'no readable "Allocated memory" row',
      'no readable "GPU reserved memory" row',
    ]);
  });
});
