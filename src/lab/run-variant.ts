import type { FailureKind, StepSample, VariantRequest, VariantResult, WorkerMessage } from './protocol';

/** A failed run, with the kind of failure the page explains. */
export class LabRunError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'LabRunError';
  }
}

/**
 * Runs the request's variants in a new worker and ends the worker afterwards, so the next
 * request starts from a fresh device and runtime. The binary is copied, not transferred:
 * later runs need it too.
 */
export function runVariants(
  request: VariantRequest,
  onStage: (stage: string, sample?: StepSample) => void,
): Promise<readonly VariantResult[]> {
  const worker = new Worker(new URL('./variant.worker.ts', import.meta.url), { type: 'module' });
  return new Promise<readonly VariantResult[]>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      if (message.type === 'progress') onStage(message.stage, message.sample);
      else if (message.type === 'result') resolve(message.results);
      else reject(new LabRunError(message.kind, message.message));
    };
    worker.onerror = (event) => reject(new LabRunError('error', event.message || 'the experiment worker crashed'));
    worker.postMessage(request);
  }).finally(() => worker.terminate());
}
