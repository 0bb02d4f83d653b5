import { describe, expect, test } from 'vitest';
import { createMemoryTracker } from '../../../../src/lab/measure/memory-tracker';

function fakeClock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('createMemoryTracker()', () => {
  test('allocated() and freed() move live bytes; the peak remembers the highest point', () => {
    const tracker = createMemoryTracker({ now: fakeClock().now });
    const a = {};
    const b = {};
    tracker.allocated(a, 1024);
    tracker.allocated(b, 4096);
    tracker.freed(a);
    expect(tracker.snapshot()).toMatchObject({ liveBytes: 4096, peakBytes: 5120, buffersCreated: 2, buffersLive: 1 });
  });

  test('freeing a buffer twice, or one it never saw, changes nothing', () => {
    const tracker = createMemoryTracker({ now: fakeClock().now });
    const a = {};
    tracker.allocated(a, 100);
    tracker.freed(a);
    tracker.freed(a);
    tracker.freed({});
    expect(tracker.snapshot()).toMatchObject({ liveBytes: 0, peakBytes: 100 });
  });

  test('allocating the same buffer object twice counts it once', () => {
    const tracker = createMemoryTracker({ now: fakeClock().now });
    const a = {};
    tracker.allocated(a, 100);
    tracker.allocated(a, 100);
    expect(tracker.snapshot().liveBytes).toBe(100);
  });

  test('phases report start, peak and end bytes of their own span', () => {
    const tracker = createMemoryTracker({ now: fakeClock().now });
    const weights = {};
    const temp = {};
    tracker.beginPhase('weights');
    tracker.allocated(weights, 800);
    tracker.beginPhase('step');
    tracker.allocated(temp, 300);
    tracker.freed(temp);
    tracker.endPhase();
    expect(tracker.snapshot().phases).toEqual([
      { label: 'weights', startBytes: 0, peakBytes: 800, endBytes: 800 },
      { label: 'step', startBytes: 800, peakBytes: 1100, endBytes: 800 },
    ]);
  });

  test('an open phase shows in the snapshot with the current live bytes as its end', () => {
    const tracker = createMemoryTracker({ now: fakeClock().now });
    tracker.beginPhase('run');
    tracker.allocated({}, 64);
    expect(tracker.snapshot().phases).toEqual([{ label: 'run', startBytes: 0, peakBytes: 64, endBytes: 64 }]);
  });

  test('the timeline records live bytes against the clock', () => {
    const clock = fakeClock();
    const tracker = createMemoryTracker({ now: clock.now });
    const a = {};
    clock.advance(5);
    tracker.allocated(a, 10);
    clock.advance(5);
    tracker.freed(a);
    expect(tracker.snapshot().timeline).toEqual([
      { t: 0, bytes: 0 },
      { t: 5, bytes: 10 },
      { t: 10, bytes: 0 },
    ]);
  });

  test('the timeline stays bounded and keeps the newest point', () => {
    const tracker = createMemoryTracker({ now: fakeClock().now, maxTimelinePoints: 10 });
    for (let i = 1; i <= 100; i++) tracker.allocated({}, 1);
    const { timeline } = tracker.snapshot();
    expect(timeline.length).toBeLessThanOrEqual(10);
    expect(timeline.at(-1)).toEqual({ t: 0, bytes: 100 });
  });

  test('negative or NaN sizes are ignored rather than corrupting the count', () => {
    const tracker = createMemoryTracker({ now: fakeClock().now });
    tracker.allocated({}, -5);
    tracker.allocated({}, Number.NaN);
    expect(tracker.snapshot()).toMatchObject({ liveBytes: 0, peakBytes: 0, buffersCreated: 0 });
  });
});
