import { useEffect, useRef, useState } from 'preact/hooks';
import type { AnalysisKind, AnalysisMessage, AnalysisResult } from './analysers';

/**
 * Where a tool is: waiting, reading (bytes so far), showing a result, or stopped by a worker failure, with the
 * browser's own words for it (null when it gave none), which no catalogue can translate.
 */
export type AnalysisState<R> =
  | { status: 'idle' }
  | { status: 'working'; bytesRead: number; totalBytes: number }
  | { status: 'done'; result: R }
  | { status: 'failed'; browserReason: string | null };

/**
 * Runs `kind`'s analysis of a file in a worker started when the tool mounts. `refuseEarly` may
 * answer without reading (a file too large). Returns the state, the file handler and whether the
 * worker is ready (`data-worker` for tests and benchmarks).
 */
export function useAnalysis<K extends AnalysisKind>(
  kind: K,
  refuseEarly?: (file: File) => AnalysisResult<K> | null,
): [AnalysisState<AnalysisResult<K>>, (file: File) => void, boolean] {
  const [state, setState] = useState<AnalysisState<AnalysisResult<K>>>({ status: 'idle' });
  const [ready, setReady] = useState(false);
  const worker = useRef<Worker | null>(null);
  const start = () => {
    worker.current?.terminate();
    setReady(false);
    const w = new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    w.onmessage = (event: MessageEvent<AnalysisMessage>) => {
      const message = event.data;
      if (message.type === 'ready') setReady(true);
      else if (message.type === 'progress')
        setState({ status: 'working', bytesRead: message.bytesRead, totalBytes: message.totalBytes });
      else setState({ status: 'done', result: message.result as AnalysisResult<K> });
    };
    // A worker dies only on something like running out of memory: say so and start a fresh one.
    w.onerror = (event) => {
      setState({ status: 'failed', browserReason: event.message || null });
      start();
    };
  };
  useEffect(() => {
    start();
    return () => worker.current?.terminate();
  }, []);
  const onFile = (file: File) => {
    const early = refuseEarly?.(file) ?? null;
    if (early !== null) {
      setState({ status: 'done', result: early });
      return;
    }
    setState({ status: 'working', bytesRead: 0, totalBytes: file.size });
    worker.current?.postMessage({ kind, file });
  };
  return [state, onFile, ready];
}
