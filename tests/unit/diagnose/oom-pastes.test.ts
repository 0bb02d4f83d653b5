/**
 * Real OOM messages pasted into public issue trackers (tests/fixtures/diagnose/README.md names each
 * source), read the way a careful engineer would: figures as printed, wording, findings and case.
 */
import { describe, expect, test } from 'vitest';
import { GIB, MIB } from '../../../src/base/bytes.ts';
import { analyzeOomText } from '../../../src/diagnose/oom-analysis.ts';
import { pasteText } from './fixtures.ts';

const gib = (v: number) => Math.round(v * GIB);
const mib = (v: number) => Math.round(v * MIB);
const read = (name: string) => {
  const analysis = analyzeOomText(pasteText(name));
  if (analysis.parse.message === null || analysis.plan === null) throw new Error(`${name}: no message read`);
  return { ...analysis, message: analysis.parse.message, plan: analysis.plan, findingIds: analysis.findings.map((f) => f.id) };
};

describe('class 1: PyTorch 2.1 printed "total capacty"', () => {
  test.each([
    ['01-total-capacty-1.txt', gib(2), gib(4)],
    ['01-total-capacty-2.txt', gib(55.57), gib(12)],
    ['01-total-capacty-3.txt', gib(3), gib(23.65)],
    ['01-total-capacty-4.txt', mib(32), gib(4)],
    ['01-total-capacty-5.txt', gib(1.7), gib(6)],
    ['01-total-capacty-6.txt', gib(27.12), gib(11.99)],
  ])('%s is read in full, with the 2.1 wording named', (name, tried, total) => {
    const { message, parse } = read(name);
    expect(message).toMatchObject({ wording: 'pytorch-2.1', platform: 'cuda', triedToAllocateBytes: tried, totalBytes: total });
    expect(message.freeBytes).not.toBeNull();
    expect(message.reservedBytes).not.toBeNull();
    expect(parse.unread).toEqual([]);
  });

  test('free memory above the request: the case says so and no remedy is called sufficient', () => {
    const { plan, findingIds } = read('01-total-capacty-1.txt');
    expect(findingIds).toContain('free-covers-request');
    expect(plan.case).toBe('free-but-refused');
    expect(plan.remedies.every((r) => !r.sufficient)).toBe(true);
  });

  test('a request larger than the card, and allocated above total (Windows)', () => {
    expect(read('01-total-capacty-2.txt').plan.case).toBe('request-too-large');
    expect(read('01-total-capacty-6.txt').findingIds).toEqual(['request-above-total', 'allocated-above-total']);
  });
});

describe('class 2: ROCm and Apple', () => {
  test.each(['02-hip-1.txt', '02-hip-2.txt', '02-hip-3.txt', '02-hip-4.txt'])('%s reads as HIP with ROCm remedies', (name) => {
    const { message, plan } = read(name);
    expect(message.platform).toBe('hip');
    expect(message.totalBytes).not.toBeNull();
    for (const r of plan.remedies) expect(r.id).not.toBe('mps-watermark');
  });

  test('HIP fragmentation is fixed with PYTORCH_HIP_ALLOC_CONF, never the CUDA variable', async () => {
    const { describeRemedy } = await import('../../../src/diagnose/explain.ts');
    const { message } = read('02-hip-3.txt');
    const remedy = {
      id: 'expandable-segments',
      freesBytes: 0,
      sufficient: false,
      condition: null,
      href: '/tools/triage/',
    } as const;
    expect(describeRemedy(remedy, message).title).toBe('Set PYTORCH_HIP_ALLOC_CONF=expandable_segments:True');
  });

  test.each([
    ['02-mps-1.txt', gib(5.56), gib(1.1), gib(6.8), mib(768)],
    ['02-mps-2.txt', gib(1.45), gib(7.42), gib(9.07), mib(563.62)],
    ['02-mps-3.txt', gib(7.43), gib(24.46), gib(32), mib(129.21)],
    ['02-mps-4.txt', gib(9.57), gib(17.35), gib(27.2), mib(292.5)],
    ['02-mps-5.txt', gib(15.72), mib(2.41), gib(18.13), gib(5.81)],
    ['02-mps-6.txt', gib(11.14), gib(6.65), gib(18.13), mib(375.4)],
    ['02-mps-7.txt', gib(18.02), mib(107.1), gib(18.13), mib(4.5)],
  ])(
    '%s: MPS figures in binary units (MPSAllocator.h divides by 1024), the watermark case, no CUDA-only remedy',
    (name, allocated, other, allowed, tried) => {
      const { message, plan } = read(name);
      expect(message).toMatchObject({
        platform: 'mps',
        wording: 'mps',
        allocatedBytes: allocated,
        nonPyTorchBytes: other,
        allowedBytes: allowed,
        triedToAllocateBytes: tried,
        mpsPool: 'private',
      });
      expect(plan.case).toBe('cap');
      expect(plan.remedies[0]?.id).toBe('mps-watermark');
      const ids = plan.remedies.map((r) => r.id);
      for (const cudaOnly of ['expandable-segments', 'memory-fraction-cap', 'shard-model-states'] as const)
        expect(ids).not.toContain(cudaOnly);
    },
  );
});

describe('class 3: before PyTorch 1.4, "cached" was reserved but unallocated', () => {
  test.each([
    ['03-cached-1.txt', mib(643.57), mib(32.43)],
    ['03-cached-2.txt', gib(10.9), mib(30.96)],
    ['03-cached-3.txt', gib(6.64), mib(150.86)],
    ['03-cached-4.txt', gib(15.87), mib(787.74)],
    ['03-cached-5.txt', gib(3.46), 60 * 1024],
    ['03-cached-6.txt', gib(14.25), 607 * 1024],
  ])('%s: reserved = allocated + cached, never below allocated', (name, allocated, cached) => {
    const { message } = read(name);
    expect(message).toMatchObject({
      wording: 'cached',
      allocatedBytes: allocated,
      reservedUnallocatedBytes: cached,
      reservedBytes: allocated + cached,
    });
  });

  test('the cached pieces cover a small request: the fragmentation signal survives', () => {
    expect(read('03-cached-3.txt').plan.case).toBe('fragmentation');
  });
});

describe('class 4: figures that do not add up are reported', () => {
  test('allocated above total capacity (Windows shared memory), twice', () => {
    expect(read('04-figures-1.txt').findingIds).toContain('allocated-above-total');
    expect(read('04-figures-2.txt').findingIds).toEqual(['request-above-total', 'allocated-above-total']);
  });

  test('free above the request: no remedy is sufficient', () => {
    const { findingIds, plan } = read('04-figures-3.txt');
    expect(findingIds).toContain('free-covers-request');
    expect(plan.case).toBe('free-but-refused');
    expect(plan.remedies.filter((r) => r.sufficient)).toEqual([]);
  });

  test('half the card unreachable: 11.47 GiB cached but idle against a 10.84 GiB request is fragmentation', () => {
    const { plan } = read('04-figures-5.txt');
    expect(plan.case).toBe('fragmentation');
    expect(plan.remedies[0]).toMatchObject({ id: 'expandable-segments', freesBytes: gib(12.53) - gib(1.06), sufficient: true });
  });

  test('a message cut before its figures says so (an issue title); one that lost only its ")" does not', () => {
    const cut = read('04-figures-6.txt');
    expect(cut.findingIds).toEqual(['truncated']);
    expect(cut.message).toMatchObject({ wording: 'current', triedToAllocateBytes: mib(192), totalBytes: null });
    const paren = read('04-figures-4.txt');
    expect(paren.findingIds).toEqual([]);
    expect(paren.message.reservedBytes).toBe(gib(1.51));
  });
});

describe("class 5: which process is the job's", () => {
  test('in a container the job is the listed process that covers the reserved total', () => {
    const { message, findingIds, plan } = read('05-processes-1.txt');
    expect(message).toMatchObject({ jobPid: 20398, processInUseBytes: gib(14.52), otherProcesses: [] });
    expect(message.derivedBy.processInUseBytes).toMatch(/process 20398 taken to be this job/);
    expect(findingIds).toContain('job-process-inferred');
    expect(plan.case).not.toBe('another-process');
    expect(plan.remedies.map((r) => r.id)).not.toContain('other-process');
  });

  test("15 other ranks' contexts on GPU 0 are named, and together they would have covered the request", () => {
    const { message, plan } = read('05-processes-2.txt');
    expect(message.otherProcesses).toHaveLength(15);
    expect(plan.case).toBe('another-process');
    expect(plan.remedies[0]).toMatchObject({ id: 'other-ranks-contexts', freesBytes: 15 * gib(1.19), sufficient: true });
  });
});

describe('class 8: an OOM message and a memory_summary in one paste', () => {
  test.each([
    ['08-oom-summary-1.txt', mib(246), 'free-but-refused', 26377 * MIB],
    ['08-oom-summary-2.txt', mib(68), 'fragmentation', 15046 * MIB],
  ])('%s: the message leads, the summary of the same GPU is read beside it', (name, tried, caseOf, summaryAllocated) => {
    const { message, plan, summary, findingIds } = read(name);
    expect(message.triedToAllocateBytes).toBe(tried);
    expect(plan.case).toBe(caseOf);
    expect(summary?.deviceId).toBe(message.gpuIndex);
    expect(summary?.metrics.allocated?.all.current).toBe(summaryAllocated);
    expect(findingIds).not.toContain('summary-other-device');
  });

  test('a summary that cannot be read never costs the message its reading (fairseq#4352, wrapped mid-word)', () => {
    const { message, plan, summary, findingIds } = read('08-oom-summary-3.txt');
    expect(message).toMatchObject({ platform: 'cuda', gpuIndex: 1, triedToAllocateBytes: gib(3.02), reservedBytes: gib(21.03) });
    expect(plan.remedies.length).toBeGreaterThan(0);
    expect(summary?.metrics).toEqual({});
    // The summary printed is device 0's, the OOM was on GPU 1: said, not merged.
    expect(findingIds).toContain('summary-other-device');
  });

  test('a summary printed at another moment than the message is said to be', () => {
    const text = pasteText('08-oom-summary-2.txt').replace(
      '|   15046 MB |   15114 MB |   14505 GB',
      '|    9046 MB |   15114 MB |   14505 GB',
    );
    expect(analyzeOomText(text).findings.map((f) => f.id)).toContain('summary-allocated-differs');
  });
});
