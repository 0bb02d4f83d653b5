/**
 * onnxruntime-web 1.30's storage-buffer cache, simulated: what its native WebGPU provider holds on
 * the device as tensors come and go (`BucketCacheManager` and `BufferManager` in
 * `onnxruntime/core/providers/webgpu/buffer_manager.cc`, see size-classes.ts for the version).
 * - A tensor gets a buffer of its size class: a freed one of that class if the cache has one,
 *   else a new one (`BufferManager::Create`).
 * - A released buffer is not reusable at once: it waits in `pending_buffers_` until the next
 *   refresh (`OnRefresh`), which the provider runs when it flushes its work to the GPU: every 16
 *   kernel dispatches (`WebGpuContext::Run`, `max_num_pending_dispatches_` in webgpu_context.h),
 *   at a download, and at the end of a run. Only then does it join the cache, or get destroyed when its
 *   class already keeps as many as its limit.
 * So everything a run frees before its next flush stays allocated beside what it allocates next,
 * the way PyTorch's caching allocator would if it could not reuse a block until the stream
 * synchronised. Pure: no WebGPU, only byte counts.
 */
import { bufferBytes, keptOfSize } from './size-classes';

/** A buffer the simulated cache handed out, until released. */
export interface CachedBuffer {
  readonly bytes: number;
}

/** The simulated cache and the device bytes it holds. */
export interface BufferCache {
  /** A buffer for a tensor of `requestBytes`: reused from the cache, or newly created. */
  acquire(requestBytes: number): CachedBuffer;
  /** Gives a buffer back; it becomes reusable at the next `refresh`. */
  release(buffer: CachedBuffer): void;
  /** A flush: released buffers join the cache, or are destroyed beyond their class's limit. */
  refresh(): void;
  /** Device bytes held now: buffers in use, waiting for a refresh, and cached. */
  readonly liveBytes: number;
  /** The most `liveBytes` has been. */
  readonly peakBytes: number;
}

/**
 * Which of the runtime's rules the cache follows. Each can be switched off to measure what it
 * costs (runtime-gap.ts); onnxruntime-web follows both.
 */
export interface CacheRules {
  /** Buffers come in size classes and freed ones are kept for reuse; off: exact sizes, freed memory returned. */
  readonly sizeClasses: boolean;
  /** A freed buffer waits for the next refresh (flush); off: it is free at once. */
  readonly reuseAfterFlush: boolean;
}

/** The rules onnxruntime-web 1.30 follows (see the module comment). */
export const ONNXRUNTIME_CACHE_RULES: CacheRules = { sizeClasses: true, reuseAfterFlush: true };

/** Told when the cache creates or destroys a device buffer (a memory tracker counts them). */
export interface BufferObserver {
  created(buffer: CachedBuffer): void;
  destroyed(buffer: CachedBuffer): void;
}

/** An empty cache, as a fresh onnxruntime-web WebGPU backend starts with. */
export function createBufferCache(
  rules: CacheRules = ONNXRUNTIME_CACHE_RULES,
  observer: BufferObserver = { created: () => {}, destroyed: () => {} },
): BufferCache {
  const free = new Map<number, CachedBuffer[]>();
  let pending: CachedBuffer[] = [];
  let live = 0;
  let peak = 0;
  return {
    acquire(requestBytes) {
      const bytes = rules.sizeClasses ? bufferBytes(requestBytes) : requestBytes;
      const reused = free.get(bytes)?.pop();
      if (reused) return reused;
      const created = { bytes };
      live += bytes;
      peak = Math.max(peak, live);
      observer.created(created);
      return created;
    },
    release(buffer) {
      pending.push(buffer);
      if (!rules.reuseAfterFlush) this.refresh();
    },
    refresh() {
      for (const buffer of pending) {
        const kept = free.get(buffer.bytes) ?? [];
        free.set(buffer.bytes, kept);
        if (rules.sizeClasses && kept.length < keptOfSize(buffer.bytes)) kept.push(buffer);
        else {
          live -= buffer.bytes;
          observer.destroyed(buffer);
        }
      }
      pending = [];
    },
    get liveBytes() {
      return live;
    },
    get peakBytes() {
      return peak;
    },
  };
}
