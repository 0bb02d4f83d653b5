/// <reference lib="webworker" />
/**
 * How the page and a lab worker talk. Single and distillation workers speak one request and one
 * answer: the page posts a request; the worker answers with progress messages, then one result
 * or one classified error. A cluster device talks back and forth instead (its own protocol) over
 * the same two worker-side primitives, `onPageMessage` and `postToPage`: the only code of the lab
 * that touches the worker's `self`.
 */
import { classifyFailure, type FailureKind } from '../results/classify-failure';
import { LabRunError } from '../page/lab-run-error';
import type { RunStage } from '../measure/run-stage';

/** Worker → page. `P` is an optional live sample carried with progress. */
export type ChannelMessage<R, P = never> =
  | { readonly type: 'progress'; readonly stage: RunStage; readonly sample?: P }
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
  onProgress: (stage: RunStage, sample?: P) => void,
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

/** Worker side: hands every message the page posts to `handle`. */
export function onPageMessage<M>(handle: (message: M) => void): void {
  self.onmessage = (event: MessageEvent<M>) => handle(event.data);
}

/** Worker side: posts `message` to the page, transferring the buffers `transfer` names. */
export function postToPage<M>(message: M, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

/**
 * Worker side: answers each request with `handle`'s result (transferring the buffers
 * `transfer` names), or with the error sorted into what the page explains to the reader.
 */
export function serveRequests<Q, R>(
  handle: (request: Q) => Promise<R>,
  transfer: (result: R) => Transferable[] = () => [],
): void {
  onPageMessage((request: Q) => {
    handle(request).then(
      (result) => postToPage({ type: 'result', result } satisfies ChannelMessage<R>, transfer(result)),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        postToPage({ type: 'error', kind: classifyFailure(message), message } satisfies ChannelMessage<R>);
      },
    );
  });
}

/** Worker side: tells the page what the worker is doing. */
export function postProgress<P = never>(stage: RunStage, sample?: P): void {
  postToPage({ type: 'progress', stage, ...(sample !== undefined ? { sample } : {}) } satisfies ChannelMessage<never, P>);
}
