import { describe, expect, test } from 'vitest';
import { MIB } from '../../../src/base/bytes.ts';
import { downsampleKeepingPeaks } from '../../../src/diagnose/downsample.ts';
import { classifyGpuPattern } from '../../../src/diagnose/gpu-pattern.ts';
import { looksLikeNvidiaSmi, parseNvidiaSmi, readTimestamp } from '../../../src/diagnose/nvidia-smi.ts';
import { exampleText, pasteText } from './fixtures.ts';

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

describe('class 7 of issue #29: nvidia-smi as people paste it (tests/fixtures/diagnose/README.md names each source)', () => {
  const read = (name: string) => parseNvidiaSmi(pasteText(name));

  test.each([
    ['07-table-1.txt', [507, 459]],
    ['07-table-2.txt', [8559, 7384, 7384]],
    ['07-table-wddm-1.txt', [0]],
    ['07-table-old-processes-1.txt', [0]],
  ])('%s: one table is one reading per GPU, shown as a level with no trend verdict', (name, usedMiB) => {
    const log = read(name);
    expect(log.gpus.map((g) => g.samples.map((s) => s.usedBytes))).toEqual(usedMiB.map((v) => [v * MIB]));
    for (const g of log.gpus) expect(classifyGpuPattern(g.samples, g.totalBytes)?.verdict).toBe('no-timeline');
  });

  test('a cut table names the GPU whose memory row is missing', () => {
    expect(read('07-table-2.txt').unread).toEqual([
      {
        line: 16,
        message: 'GPU 3: no memory row follows (truncated?)',
        reason: { code: 'noMemoryRow', params: { gpu: 3, atEnd: true } },
      },
    ]);
  });

  test('Windows (WDDM): the name stops before the driver model, the bus id is its own field; no banner date needed', () => {
    expect(read('07-table-wddm-1.txt').gpus[0]).toMatchObject({
      name: 'NVIDIA GeForce RTX 3050 ...',
      busId: '00000000:01:00.0',
      totalBytes: 4096 * MIB,
    });
  });

  test('a table pasted without its banner is still nvidia-smi', () => {
    const withoutBanner = pasteText('07-table-1.txt').split('\n').slice(4).join('\n');
    expect(looksLikeNvidiaSmi(withoutBanner)).toBe(true);
    expect(parseNvidiaSmi(withoutBanner).gpus.map((g) => g.index)).toEqual([0, 1]);
  });

  test('the Processes table says who holds the memory, per GPU', () => {
    const log = read('07-processes-1.txt');
    expect(looksLikeNvidiaSmi(pasteText('07-processes-1.txt'))).toBe(true);
    expect(log.processes.map((p) => [p.gpuIndex, p.pid, p.type, p.usedBytes])).toEqual([
      [0, 10734, 'C', 160 * MIB],
      [0, 58661, 'G', 3 * MIB],
      [1, 10734, 'C', 160 * MIB],
      [2, 18243, 'G', 64 * MIB],
      [2, 22720, 'G', 34 * MIB],
    ]);
    expect(log.processes[3]?.name).toBe('/usr/bin/X');
  });

  test('MIG devices: each instance read with its own memory', () => {
    const { migDevices } = read('07-mig-1.txt');
    expect(migDevices.map((d) => [d.gpuIndex, d.gpuInstance, d.migIndex, d.usedBytes, d.totalBytes])).toEqual([
      [1, 3, 0, 14366 * MIB, 19968 * MIB],
      [1, 5, 1, 9880 * MIB, 19968 * MIB],
      [1, 6, 2, 13 * MIB, 19968 * MIB],
      [2, 3, 0, 15210 * MIB, 19968 * MIB],
    ]);
  });

  test('nvidia-smi -q: the FB Memory Usage section, never BAR1', () => {
    const log = read('07-query-1.txt');
    expect(log.form).toBe('query');
    expect(log.gpus).toMatchObject([{ busId: '0000:01:00.0', totalBytes: 1995 * MIB, samples: [{ usedBytes: 1934 * MIB }] }]);
  });

  test('nvidia-smi dmon: the fb column read per GPU; without fb, refused naming what it is', () => {
    const log = read('07-dmon-1.txt');
    expect(log.form).toBe('dmon');
    expect(log.gpus.map((g) => g.samples[0]?.usedBytes)).toEqual([11651, 11653, 11653, 11660].map((v) => v * MIB));
    // The documented default dmon columns (nvidia-smi(1), "Device Monitoring"), which hold no memory figure.
    const noFb = parseNvidiaSmi(
      '# gpu   pwr  gtemp  mtemp    sm   mem   enc   dec  mclk  pclk\n# Idx     W      C      C     %     %     %     %   MHz   MHz\n    0    60     45      -    12     3     0     0  5001  1380\n',
    );
    expect(noFb.gpus).toEqual([]);
    expect(noFb.unread[0]?.message).toMatch(/^this is nvidia-smi dmon output: its "mem" column/);
  });

  test('CSV without an index column never merges two GPUs: names in repeating order tell them apart', () => {
    const log = read('07-csv-no-index-1.txt');
    expect(log.toldApartBy).toBe('name-order');
    expect(log.gpus.map((g) => [g.index, g.name, g.samples.length])).toEqual([
      [0, 'GeForce GTX 1080 Ti', 1],
      [1, 'GeForce GTX 1060 6GB', 1],
    ]);
  });

  test('CSV with pci.bus_id and no index: the bus id tells GPUs apart', () => {
    const log = read('07-csv-bus-id-1.txt');
    expect(log.toldApartBy).toBe('pci.bus_id');
    expect(log.gpus[0]).toMatchObject({ busId: '00000000:09:00.0', samples: [{ usedBytes: 682 * MIB }] });
  });

  test('CSV whose rows nothing tells apart is read as one GPU, and says it cannot tell', () => {
    const csv = 'memory.used [MiB], memory.total [MiB]\n100 MiB, 1000 MiB\n900 MiB, 1000 MiB\n';
    const log = parseNvidiaSmi(csv);
    expect(log.toldApartBy).toBe('single');
    expect(log.unread[0]?.message).toMatch(/cannot be told apart/);
  });
});
