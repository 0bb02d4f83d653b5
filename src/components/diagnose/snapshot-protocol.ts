import type { SnapshotRead } from '../../diagnose/snapshot';

/** What the snapshot worker posts back: `ready` once started, progress while unpickling, then the result. */
export type SnapshotWorkerMessage = { type: 'ready' } | { type: 'progress'; bytesRead: number; totalBytes: number } | { type: 'done'; result: SnapshotRead };
