/// <reference lib="webworker" />
/**
 * Runs a tool's analysis off the page's thread (the data-only unpickler included), posting
 * progress. The page starts it when a tool appears, so analysing a file fetches nothing.
 */
import { ANALYSERS, type AnalysisMessage, type AnalysisRequest } from './analysers';

const post = (message: AnalysisMessage) => (self as DedicatedWorkerGlobalScope).postMessage(message);

post({ type: 'ready' });

self.onmessage = async (event: MessageEvent<AnalysisRequest>) => {
  const { kind, file } = event.data;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const result = ANALYSERS[kind](bytes, (bytesRead) => post({ type: 'progress', bytesRead, totalBytes: bytes.length }));
  post({ type: 'done', result });
};
