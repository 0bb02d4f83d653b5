import { describe, expect, test } from 'vitest';
import { MIB } from '../../../src/base/bytes.ts';
import { downsampleKeepingPeaks } from '../../../src/diagnose/downsample.ts';
import { classifyGpuPattern } from '../../../src/diagnose/gpu-pattern.ts';
import { parseNvidiaSmi, readTimestamp } from '../../../src/diagnose/nvidia-smi.ts';
import { exampleText } from './fixtures.ts';

const verdicts = (text: string) => parseNvidiaSmi(text).gpus.map((g) => classifyGpuPattern(g.samples, g.totalBytes)?.verdict);

describe('parseNvidiaSmi: CSV (nvidia-smi --query-gpu=... --format=csv)', () => {
  test('two GPUs interleaved, with units: each sample lands on its GPU', () => {
    const log = parseNvidiaSmi(exampleText('nvidia-smi-leak.csv'));
    expect(log.form).toBe('csv');
    expect(log.timed).toBe(true);
    expect(log.gpus.map((g) => [g.index, g.name, g.totalBytes, g.samples.length])).toEqual([
      [0, 'NVIDIA A100-SXM4-80GB', 81920 * MIB, 600],
      [1, 'NVIDIA A100-SXM4-80GB', 81920 * MIB, 600],
    ]);
    expect(log.gpus[0]?.samples[1]).toEqual({ t: 1137, usedBytes: 4004 * MIB });
    expect(log.unread).toEqual([]);
  });

  test('a subset of columns in another order, nounits: the header names the unit', () => {
    const text = 'memory.used [MiB], index\n1024, 1\n2048, 0\n';
    const log = parseNvidiaSmi(text);
    expect(log.timed).toBe(false);
    expect(log.gpus.map((g) => [g.index, g.totalBytes, g.samples])).toEqual([
      [0, null, [{ t: 0, usedBytes: 2048 * MIB }]],
      [1, null, [{ t: 0, usedBytes: 1024 * MIB }]],
    ]);
  });

  test('lines that are not samples are listed with their line numbers, the rest is read', () => {
    const text =
      'timestamp, index, memory.used [MiB]\n2025/03/14 10:00:00.000, 0, 100 MiB\n2025/03/14 10:00:01.000, 0, 1.234,5 MiB\n[N/A]\n2025/13/14 10:00:02.000, 0, 5 MiB\n';
    const log = parseNvidiaSmi(text);
    expect(log.gpus[0]?.samples).toEqual([{ t: 0, usedBytes: 100 * MIB }]);
    expect(log.unread.map((n) => n.line)).toEqual([3, 4, 5]);
    expect(log.unread[0]?.message).toMatch(/4 fields where the header has 3 \(a decimal comma/);
  });

  test('text without a header or table says what it needs', () => {
    const log = parseNvidiaSmi('0, 1234 MiB\n');
    expect(log.gpus).toEqual([]);
    expect(log.unread[0]?.message).toMatch(/no CSV header naming memory.used/);
  });

  test('readTimestamp reads nvidia-smi\'s "YYYY/MM/DD HH:MM:SS.mmm" and rejects impossible dates', () => {
    expect((readTimestamp('2025/03/14 10:00:01.500') ?? 0) - (readTimestamp('2025/03/14 10:00:00.000') ?? 0)).toBe(1500);
    expect(readTimestamp('2025/02/30 25:00:00')).toBeNull();
  });
});

describe('parseNvidiaSmi: plain tables (nvidia-smi -l 1)', () => {
  test('one sample per table; process rows are not taken for the GPU total', () => {
    const log = parseNvidiaSmi(exampleText('nvidia-smi-near-limit.txt'));
    expect(log.form).toBe('table');
    expect(log.timed).toBe(true);
    const gpu = log.gpus[0];
    expect(log.gpus).toHaveLength(1);
    expect(gpu?.name).toBe('NVIDIA L4');
    expect(gpu?.totalBytes).toBe(23034 * MIB);
    expect(gpu?.samples).toHaveLength(40);
    expect(gpu?.samples[1]).toEqual({ t: 1000, usedBytes: 7300 * MIB });
  });
});

describe('classifyGpuPattern: the four verdicts', () => {
  test('the example logs: leak (both GPUs), spike, near the limit', () => {
    expect(verdicts(exampleText('nvidia-smi-leak.csv'))).toEqual(['leak', 'leak']);
    expect(verdicts(exampleText('nvidia-smi-spike-nounits.csv'))).toEqual(['spike']);
    expect(verdicts(exampleText('nvidia-smi-near-limit.txt'))).toEqual(['near-limit']);
  });

  const series = (values: number[]) => values.map((v, t) => ({ t, usedBytes: v * MIB }));
  const capacity = 24_000 * MIB;

  test('flat: warm-up, then a steady level far from the limit', () => {
    const values = [0, 5000, 12_000, ...Array.from({ length: 200 }, (_, i) => 12_000 + (i % 3) * 10)];
    expect(classifyGpuPattern(series(values), capacity)?.verdict).toBe('flat');
  });

  test('a single sawtooth that returns to its level is not a leak', () => {
    const values = Array.from({ length: 400 }, (_, i) => 12_000 + (i % 20 < 10 ? 2000 : 0));
    expect(classifyGpuPattern(series(values), capacity)?.verdict).toBe('flat');
  });

  test('one jump that stays is a step, not a staircase: not called a leak', () => {
    const values = Array.from({ length: 400 }, (_, i) => (i < 200 ? 8000 : 16_000));
    expect(classifyGpuPattern(series(values), capacity)?.verdict).not.toBe('leak');
  });

  test('peakUsedBytes is the largest sample; evidence counts only active samples', () => {
    const values = [0, 0, 3000, 9000, 9100, 9000, 0];
    const pattern = classifyGpuPattern(series(values), capacity);
    expect(pattern?.evidence.peakUsedBytes).toBe(9100 * MIB);
    expect(pattern?.evidence.peakAt).toBe(4);
    expect(pattern?.evidence.activeSamples).toBe(4);
  });

  test('no samples: no verdict', () => {
    expect(classifyGpuPattern([], capacity)).toBeNull();
  });
});

describe('downsampleKeepingPeaks', () => {
  test('a one-sample spike in 100,000 points survives thinning to 1,000', () => {
    const points = Array.from({ length: 100_000 }, (_, t) => ({ t, v: t === 54_321 ? 99 : 1 }));
    const thin = downsampleKeepingPeaks(points, 1000, (p) => p.v);
    expect(thin.length).toBeLessThanOrEqual(1000);
    expect(thin).toContainEqual({ t: 54_321, v: 99 });
    expect(thin.map((p) => p.t)).toEqual([...thin.map((p) => p.t)].sort((a, b) => a - b));
  });
});
