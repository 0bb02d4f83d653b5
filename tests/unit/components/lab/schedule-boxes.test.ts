import { describe, expect, test } from 'vitest';
import type { ComputeSpan } from '../../../../src/lab/measure/cluster-job';
import { boxesWithRoomForName, LABEL_PIXELS, scheduleBoxes } from '../../../../src/components/lab/schedule-boxes';

/** Two devices, 1F1B over two micro-batches: short forwards, long backwards (milliseconds). */
const SPANS: ComputeSpan[] = [
  { rank: 0, kind: 'forward', micro: 0, start: 1000, end: 1010 },
  { rank: 0, kind: 'forward', micro: 1, start: 1010, end: 1020 },
  { rank: 1, kind: 'forward', micro: 0, start: 1010, end: 1020 },
  { rank: 1, kind: 'backward', micro: 0, start: 1020, end: 1220 },
  { rank: 0, kind: 'backward', micro: 0, start: 1220, end: 1420 },
];

describe('the pipeline schedule’s boxes', () => {
  test('are timed in seconds from the first span, on a row per device, named F or B and the micro-batch', () => {
    const boxes = scheduleBoxes(SPANS);
    expect(boxes.map((b) => [b.device, b.label, b.x1, b.x2])).toEqual([
      ['GPU 0', 'F0', 0, 0.01],
      ['GPU 0', 'F1', 0.01, 0.02],
      ['GPU 1', 'F0', 0.01, 0.02],
      ['GPU 1', 'B0', 0.02, 0.22],
      ['GPU 0', 'B0', 0.22, 0.42],
    ]);
  });

  test('only boxes at least LABEL_PIXELS wide carry their name: none of the 10 ms steps on a phone, all on a wide screen', () => {
    const boxes = scheduleBoxes(SPANS);
    // 0.42 s over 314 px (a 390 px phone less the margins): a 10 ms step is 7.5 px, a 200 ms one 150 px.
    expect(boxesWithRoomForName(boxes, 314).map((b) => b.label)).toEqual(['B0', 'B0']);
    // At 0.42 s over 1,100 px a 10 ms step is 26 px.
    expect((0.01 / 0.42) * 1100).toBeGreaterThanOrEqual(LABEL_PIXELS);
    expect(boxesWithRoomForName(boxes, 1100)).toHaveLength(boxes.length);
  });

  test('no spans, no names', () => {
    expect(boxesWithRoomForName([], 300)).toEqual([]);
  });
});
