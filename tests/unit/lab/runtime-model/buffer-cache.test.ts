/** The simulated onnxruntime-web storage-buffer cache (src/lab/runtime-model/buffer-cache.ts) follows buffer_manager.cc's rules. */
import { describe, expect, test } from 'vitest';
import { createBufferCache } from '../../../../src/lab/runtime-model/buffer-cache.ts';
import { keptOfSize } from '../../../../src/lab/runtime-model/size-classes.ts';

const KIB = 1024;

describe('the simulated storage-buffer cache', () => {
  test('a freed buffer is reused only after a refresh (a flush), so a run that frees and allocates holds both', () => {
    const cache = createBufferCache();
    const first = cache.acquire(64 * KIB);
    cache.release(first);
    cache.acquire(64 * KIB);
    expect(cache.liveBytes).toBe(128 * KIB);
    cache.refresh();
    const reused = cache.acquire(64 * KIB);
    expect(reused).toBe(first);
    expect(cache.liveBytes).toBe(128 * KIB);
    expect(cache.peakBytes).toBe(128 * KIB);
  });

  test('a freed buffer serves only its own size class', () => {
    const cache = createBufferCache();
    cache.release(cache.acquire(64 * KIB));
    cache.refresh();
    // 64 KiB + 1 byte is the next class, 128 KiB: the cached 64 KiB buffer cannot hold it.
    cache.acquire(64 * KIB + 1);
    expect(cache.liveBytes).toBe(64 * KIB + 128 * KIB);
    // 40 KiB rounds up to the 64 KiB class and takes the cached buffer.
    cache.acquire(40 * KIB);
    expect(cache.liveBytes).toBe(64 * KIB + 128 * KIB);
  });

  test('a refresh destroys freed buffers beyond their class limit (50 of 64 KiB)', () => {
    const cache = createBufferCache();
    const limit = keptOfSize(64 * KIB);
    expect(limit).toBe(50);
    const buffers = Array.from({ length: limit + 3 }, () => cache.acquire(64 * KIB));
    for (const buffer of buffers) cache.release(buffer);
    expect(cache.liveBytes).toBe((limit + 3) * 64 * KIB);
    cache.refresh();
    expect(cache.liveBytes).toBe(limit * 64 * KIB);
    expect(cache.peakBytes).toBe((limit + 3) * 64 * KIB);
  });
});
