/**
 * The recorded traces (tests/fixtures/lab/traces/, scripts/record-lab-traces.ts) and what the
 * runtime model's tests read from them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExperimentTrace, TraceEvent } from '../../../../src/lab/runtime-model/recorded-trace.ts';

const TRACES = join(import.meta.dirname, '../../../fixtures/lab/traces');

/** Every recorded experiment. */
export const traces: readonly ExperimentTrace[] = readdirSync(TRACES)
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(join(TRACES, file), 'utf8')) as ExperimentTrace);

/** A storage buffer created in a trace. */
export interface TracedBuffer {
  readonly id: number;
  readonly bytes: number;
}

/**
 * The storage buffers onnxruntime created in one worker's events. The lab's own buffers (weights,
 * examples, zeroed gradients: worker/webgpu-store.ts) are written whole from the host right after
 * they are created; onnxruntime's are filled by the GPU or through a staging copy, never so.
 */
export function runtimeBuffers(events: readonly TraceEvent[]): TracedBuffer[] {
  const buffers: TracedBuffer[] = [];
  events.forEach(([kind, id, bytes], i) => {
    const [nextKind, nextId, nextBytes] = events[i + 1] ?? [];
    const writtenWhole = nextKind === 'w' && nextId === id && nextBytes === bytes;
    if (kind === 'c' && !writtenWhole) buffers.push({ id, bytes });
  });
  return buffers;
}

/**
 * Whether the buffer created at `events[index]` holds an initializer: onnxruntime uploads each one
 * through a staging copy and submits it at once, at session creation, so its creation is followed
 * directly by a submission; the tensor cache's buffers are created while a run records its work.
 */
export function isInitializerUpload(events: readonly TraceEvent[], index: number): boolean {
  return events[index]?.[0] === 'c' && events[index + 1]?.[0] === 's';
}

/** The storage buffers onnxruntime created for tensors in one worker's events: its buffers less its initializers. */
export function tensorCacheBuffers(events: readonly TraceEvent[]): TracedBuffer[] {
  const initializers = new Set(events.filter((_, i) => isInitializerUpload(events, i)).map(([, id]) => id));
  return runtimeBuffers(events).filter(({ id }) => !initializers.has(id));
}
