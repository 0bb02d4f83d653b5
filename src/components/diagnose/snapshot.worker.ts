/// <reference lib="webworker" />
/**
 * Reads a dropped snapshot off the page's thread: the data-only unpickler and the analysis run
 * here, so the page stays responsive on a 100 MB file and shows progress. The page starts it
 * when the viewer appears, so reading a file fetches nothing.
 */
import { readSnapshot, refuseOversizeSnapshot } from '../../diagnose/snapshot';
import type { SnapshotWorkerMessage } from './snapshot-protocol';

const post = (message: SnapshotWorkerMessage) => (self as DedicatedWorkerGlobalScope).postMessage(message);

post({ type: 'ready' });

self.onmessage = async (event: MessageEvent<File>) => {
  const file = event.data;
  const oversize = refuseOversizeSnapshot(file.size);
  if (oversize) {
    post({ type: 'done', result: oversize });
    return;
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  post({ type: 'done', result: readSnapshot(bytes, (bytesRead) => post({ type: 'progress', bytesRead, totalBytes: bytes.length })) });
};
