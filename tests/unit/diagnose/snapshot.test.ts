import { describe, expect, test } from 'vitest';
import { analyzeSnapshot, MAX_SNAPSHOT_BYTES, readSnapshot } from '../../../src/diagnose/snapshot.ts';
import { fixtureBytes, fixtureText } from './fixtures.ts';

/** Figures make_fixtures.py tracked while it simulated the allocator, independently of the trace. */
const expected = JSON.parse(fixtureText('snapshot-oom.expected.json')) as {
  peakActiveBytes: number;
  activeBytesAtEnd: number;
  reservedBytes: number;
  traceEvents: number;
  segments: number;
  oomEvents: { requestedBytes: number; deviceFreeBytes: number }[];
};

describe('readSnapshot on the example (CPython pickle of a dict shaped like torch.cuda.memory._snapshot())', () => {
  const read = readSnapshot(fixtureBytes('snapshot-oom.pickle'));
  if (!read.ok) throw new Error(read.message);
  const device = read.analysis.devices[0];

  test('peak active memory and the state at the end match what the simulation counted', () => {
    expect(read.analysis.peakActiveBytes).toBe(expected.peakActiveBytes);
    expect(device?.activeBytesAtEnd).toBe(expected.activeBytesAtEnd);
    expect(device?.reservedBytes).toBe(expected.reservedBytes);
    expect(device?.traceEvents).toBe(expected.traceEvents);
    expect(device?.segments).toHaveLength(expected.segments);
  });

  test('the OOM event: requested size and free memory', () => {
    expect(
      read.analysis.oomEvents.map((o) => ({ requestedBytes: o.requestedBytes, deviceFreeBytes: o.deviceFreeBytes })),
    ).toEqual(expected.oomEvents);
    expect(read.analysis.oomEvents[0]?.frames[1]).toEqual({
      filename: '/home/user/project/model.py',
      line: 150,
      name: 'lm_head',
    });
    // _dump_snapshot() after a caught OOM: the oom entry ends the trace, so what the trace counted live and reserved
    // then is what the simulation counted at the end.
    expect(read.analysis.oomEvents[0]).toMatchObject({
      activeBytes: expected.activeBytesAtEnd,
      reservedBytes: expected.reservedBytes,
    });
    // The OOM is the last traced entry: it sits at the timeline's last point.
    const last = device?.timeline[device.timeline.length - 1];
    expect(read.analysis.oomEvents[0]).toMatchObject({ event: last?.event, ms: last?.ms });
  });

  test('the largest live allocations at the peak carry their stack frames', () => {
    const top = device?.largestAtPeak ?? [];
    expect(top.length).toBeGreaterThan(0);
    expect(top[0]?.frames[0]?.filename).toBe('/home/user/project/model.py');
    expect([...top].sort((a, b) => b.sizeBytes - a.sizeBytes)).toEqual(top);
  });

  test('the timeline starts at zero, reaches the peak, and keeps at most 1500 points', () => {
    const timeline = device?.timeline ?? [];
    expect(timeline[0]?.activeBytes).toBe(0);
    expect(Math.max(...timeline.map((p) => p.activeBytes))).toBe(expected.peakActiveBytes);
    expect(timeline.length).toBeLessThanOrEqual(1501);
    expect(timeline.every((p) => p.reservedBytes >= 0 && p.ms !== null && p.ms >= 0)).toBe(true);
  });
});

describe('analyzeSnapshot: traces that start late', () => {
  const block = (address: number, size: number) =>
    new Map<unknown, unknown>([
      ['address', address],
      ['size', size],
      ['state', 'active_allocated'],
      ['frames', []],
    ]);
  const entry = (action: string, addr: number, size: number) =>
    new Map<unknown, unknown>([
      ['action', action],
      ['addr', addr],
      ['size', size],
      ['frames', []],
    ]);

  test('an allocation freed without its alloc in the ring buffer, and one still live, count from the start', () => {
    const segment = new Map<unknown, unknown>([
      ['device', 0],
      ['address', 0],
      ['total_size', 4096],
      ['segment_type', 'small'],
      [
        'blocks',
        [
          block(0, 1024),
          new Map<unknown, unknown>([
            ['address', 1024],
            ['size', 3072],
            ['state', 'inactive'],
          ]),
        ],
      ],
    ]);
    const snapshot = new Map<unknown, unknown>([
      ['segments', [segment]],
      ['device_traces', [[entry('free_completed', 5000, 512), entry('alloc', 6000, 2048), entry('free_completed', 6000, 2048)]]],
    ]);
    const analysis = analyzeSnapshot(snapshot as never);
    // Before the trace: 512 (freed first) + 1024 (live at the end) = 1536; the peak adds 2048 after the first free.
    expect(analysis.devices[0]?.timeline[0]?.activeBytes).toBe(1536);
    expect(analysis.peakActiveBytes).toBe(1024 + 2048);
    expect(analysis.devices[0]?.fragmentationShare).toBeCloseTo(3072 / 4096, 9);
  });

  test('a pickle that is not a snapshot is named as such', () => {
    expect(analyzeSnapshot(new Map([['a', 1]])).unread[0]?.message).toMatch(/not a memory snapshot/);
  });
});

describe('readSnapshot: refusals', () => {
  test('the crafted pickle that would run os.system is refused', () => {
    const read = readSnapshot(fixtureBytes('snapshot-runs-code.pickle'));
    expect(read).toMatchObject({ ok: false, refused: true });
    if (!read.ok) expect(read.message).toMatch(/STACK_GLOBAL/);
  });

  test(`a file above ${MAX_SNAPSHOT_BYTES / 2 ** 20} MiB is refused before parsing, with the cap in the message`, () => {
    const read = readSnapshot(new Uint8Array(MAX_SNAPSHOT_BYTES + 1));
    expect(read).toMatchObject({ ok: false, refused: false });
    if (!read.ok) expect(read.message).toMatch(/up to 256 MiB/);
  });
});
