/// <reference lib="webworker" />
/**
 * The request/response shape every single-request lab worker speaks: the page posts one
 * request; the worker answers with progress messages, then one result or one classified error.
 * Multi-device workers (cluster/) talk back and forth instead and have their own protocol.
 */
import { classifyFailure } from '../classify-failure';
import type { FailureKind } from '../protocol';
import { LabRunError } from '../lab-run-error';

/** Worker → page. `P` is an optional live sample carried with progress. */
export type ChannelMessage<R, P = never> =
  | { readonly type: 'progress'; readonly stage: string; readonly sample?: P }
  | { readonly type: 'result'; readonly result: R }
  | { readonly type: 'error'; readonly kind: FailureKind; readonly message: string };

/**
 * Page side: sends `request` to a fresh worker (constructed at the call site, so the bundler
 * sees its URL), reports progress, and ends the worker afterwards so the next request starts
 * from a clean slate: a new device, runtime and heap. The request is copied, not transferred.
 */
export function requestFromWorker<Q, R, P = never>(
  worker: Worker,
  request: Q,
  onProgress: (stage: string, sample?: P) => void,
): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<ChannelMessage<R, P>>) => {
      const message = event.data;
      if (message.type === 'progress') onProgress(message.stage, message.sample);
      else if (message.type === 'result') resolve(message.result);
      else reject(new LabRunError(message.kind, message.message));
    };
    worker.onerror = (event) => reject(new LabRunError('error', event.message || 'the experiment worker crashed'));
    worker.postMessage(request);
  }).finally(() => worker.terminate());
}

/**
 * Worker side: answers each request with `handle`'s result (transferring the buffers
 * `transfer` names), or with the error sorted into what the page explains to the reader.
 */
export function serveRequests<Q, R>(
  handle: (request: Q) => Promise<R>,
  transfer: (result: R) => Transferable[] = () => [],
): void {
  self.onmessage = (event: MessageEvent<Q>) => {
    handle(event.data).then(
      (result) => self.postMessage({ type: 'result', result } satisfies ChannelMessage<R>, transfer(result)),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        self.postMessage({ type: 'error', kind: classifyFailure(message), message } satisfies ChannelMessage<R>);
      },
    );
  };
}

/** Worker side: tells the page what the worker is doing. */
export function postProgress<P = never>(stage: string, sample?: P): void {
  self.postMessage({ type: 'progress', stage, ...(sample !== undefined ? { sample } : {}) } satisfies ChannelMessage<never, P>);
}
