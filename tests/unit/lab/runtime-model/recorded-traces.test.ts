/**
 * Rules of onnxruntime-web 1.30's WebGPU memory that the runtime model rests on, held against
 * what the runtime did in the recorded traces.
 */
import { expect, test } from 'vitest';
import { runtimeBuffers, traces } from './recorded-traces.ts';

test('onnxruntime-web destroys its buffers only all at once (its sessions released), so what it reserves only grows', () => {
  // A freed buffer goes to the cache, and the cache keeps up to 50 buffers a class (250 of the
  // smallest): the lab's runs never fill a class, so nothing is destroyed until the last session
  // goes. The peak of a side is then the lab's buffers plus every buffer the runtime created in it.
  let releases = 0;
  for (const trace of traces)
    for (const events of trace.workers) {
      const runtime = new Set(runtimeBuffers(events).map(({ id }) => id));
      const live = new Set<number>();
      // Whether a release has begun and not yet freed everything.
      let releasing = false;
      for (const [kind, id] of events) {
        if (kind === 'c' && runtime.has(id)) {
          expect(releasing, `${trace.experiment}: a buffer created while a release had freed only part`).toBe(false);
          live.add(id);
        } else if (kind === 'd' && live.has(id)) {
          if (!releasing) releases += 1;
          live.delete(id);
          releasing = live.size > 0;
        }
      }
      expect(live.size, `${trace.experiment}: the runtime's buffers all freed at the end`).toBe(0);
    }
  expect(releases).toBeGreaterThan(traces.length);
});
