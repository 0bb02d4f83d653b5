import { describe, expect, test } from 'vitest';
import { GIB, MIB } from '../../../src/base/bytes.ts';
import { parseOomMessage } from '../../../src/diagnose/oom-message.ts';
import { analyzeOomText } from '../../../src/diagnose/oom-analysis.ts';
import { exampleText } from './fixtures.ts';

const gib = (v: number) => Math.round(v * GIB);

describe('parseOomMessage', () => {
  test('current wording with a traceback around it (the example)', () => {
    const { message, unread } = parseOomMessage(exampleText('oom-current.txt'));
    expect(unread).toEqual([]);
    expect(message).toMatchObject({
      wording: 'current',
      gpuIndex: 0,
      triedToAllocateBytes: gib(3.91),
      totalBytes: gib(23.54),
      freeBytes: gib(2.06),
      processInUseBytes: gib(21.47),
      allocatedBytes: gib(15.02),
      reservedUnallocatedBytes: gib(5.98),
      reservedBytes: gib(15.02) + gib(5.98),
      privatePoolsBytes: null,
      otherProcesses: [],
    });
    expect(message?.fragmentationShare).toBeCloseTo(5.98 / (15.02 + 5.98), 6);
  });

  test("lesson 1's message, wrapped over lines as it is printed there", () => {
    const text = `torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.
GPU 0 has a total capacity of 23.54 GiB of which 1.12 GiB is free.
Including non-PyTorch memory, this process has 22.40 GiB memory in use.
Of the allocated memory 19.87 GiB is allocated by PyTorch, and 2.05 GiB
is reserved by PyTorch but unallocated.`;
    expect(parseOomMessage(text).message).toMatchObject({
      triedToAllocateBytes: 2 * GIB,
      allocatedBytes: gib(19.87),
      reservedUnallocatedBytes: gib(2.05),
      freeBytes: gib(1.12),
    });
  });

  test('PyTorch 1.4 to 2.0 wording: reserved-but-unallocated is reserved minus allocated, and says so', () => {
    const { message } = parseOomMessage(exampleText('oom-legacy.txt'));
    expect(message?.derivedBy.reservedUnallocatedBytes).toMatch(/reserved in total by PyTorch − already allocated/);
    expect(message).toMatchObject({
      wording: 'reserved-in-total',
      triedToAllocateBytes: 192 * MIB,
      totalBytes: gib(14.76),
      freeBytes: Math.round(91.75 * MIB),
      allocatedBytes: gib(13.15),
      reservedBytes: gib(13.59),
      reservedUnallocatedBytes: gib(13.59) - gib(13.15),
      processInUseBytes: null,
    });
  });

  test('pre-1.4 "cached" is reserved but unallocated (pytorch/pytorch#13751), so reserved = allocated + cached', () => {
    const text =
      'RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 1; 10.76 GiB total capacity; 9.57 GiB already allocated; 11.12 MiB free; 5.00 GiB allowed; 9.73 GiB cached)';
    const { message } = parseOomMessage(text);
    expect(message).toMatchObject({
      wording: 'cached',
      gpuIndex: 1,
      reservedUnallocatedBytes: gib(9.73),
      reservedBytes: gib(9.57) + gib(9.73),
      allowedBytes: 5 * GIB,
    });
    // Reserved can no longer come out below allocated, which is what reading "cached" as the reserved total did.
    expect(message!.reservedBytes!).toBeGreaterThan(message!.allocatedBytes!);
  });

  test("private pools and other processes (current wording, from the allocator source's format)", () => {
    const text =
      'CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 512.00 MiB is free. Process 4242 has 10.00 GiB memory in use. Process 4343 has 2.50 GiB memory in use. Including non-PyTorch memory, this process has 66.00 GiB memory in use. Of the allocated memory 60.00 GiB is allocated by PyTorch, with 8.00 GiB allocated in private pools (e.g., CUDA Graphs), and 4.00 GiB is reserved by PyTorch but unallocated.';
    const { message } = parseOomMessage(text);
    expect(message?.otherProcesses).toEqual([
      { pid: 4242, bytes: 10 * GIB },
      { pid: 4343, bytes: gib(2.5) },
    ]);
    expect(message?.privatePoolsBytes).toBe(8 * GIB);
    expect(message?.nonPyTorchBytes).toBe(2 * GIB);
  });

  test('text without an OOM message says so', () => {
    expect(parseOomMessage('RuntimeError: expected scalar type Float').message).toBeNull();
  });

  test('figures it cannot read are null and named', () => {
    const { message, unread } = parseOomMessage(
      'CUDA out of memory. Tried to allocate 1,5 GiB. GPU 0 has a total capacity of 8.00 GiB of which 0 bytes is free.',
    );
    expect(message?.triedToAllocateBytes).toBeNull();
    expect(message?.freeBytes).toBe(0);
    expect(unread.map((n) => n.message)).toContain('could not read the "tried to allocate" figure ("Tried to allocate 1,5 GiB")');
  });
});

describe('rankOomRemedies', () => {
  test('a large idle cache ranks expandable_segments first, marked sufficient, and the case is fragmentation', () => {
    const { plan } = analyzeOomText(exampleText('oom-current.txt'));
    expect(plan?.case).toBe('fragmentation');
    expect(plan?.remedies[0]).toMatchObject({
      id: 'expandable-segments',
      sufficient: true,
      freesBytes: gib(5.98),
      href: '/lessons/diagnose-your-run/#fragmentation-and-expandable_segments',
    });
  });

  test('another process holding memory ranks first when this process is far below the total in use', () => {
    const { plan } = analyzeOomText(exampleText('oom-other-process.txt'));
    expect(plan?.case).toBe('another-process');
    expect(plan?.remedies[0]?.id).toBe('other-process');
    // 79.14 − 1.02 free − 36.90 this process, as PyTorch printed them.
    expect(plan?.remedies[0]?.freesBytes).toBe(gib(79.14) - gib(1.02) - gib(36.9));
  });

  test('live tensors are never called sufficient, and how much they free is not claimed', () => {
    const { plan } = analyzeOomText(exampleText('oom-current.txt'));
    const liveTensorRemedies = (plan?.remedies ?? []).filter(
      (r) => r.id === 'reduce-activations' || r.id === 'shard-model-states',
    );
    expect(liveTensorRemedies.length).toBeGreaterThan(0);
    for (const r of liveTensorRemedies) expect(r).toMatchObject({ sufficient: false, freesBytes: null });
  });

  test('sharding is conditional on having several GPUs, which a message cannot show', () => {
    const { plan } = analyzeOomText(exampleText('oom-legacy.txt'));
    expect(plan?.remedies.find((r) => r.id === 'shard-model-states')?.condition).toBe('several-gpus');
  });
});
