import type { VariantResult } from '../../measure/variant';
import { requestFromWorker } from '../../worker/channel';
import type { StepSample, VariantRequest } from './protocol';

/**
 * Runs the request's variants in a new worker and ends the worker afterwards, so the next
 * request starts from a fresh device and runtime.
 */
export function runVariants(
  request: VariantRequest,
  onStage: (stage: string, sample?: StepSample) => void,
): Promise<readonly VariantResult[]> {
  return requestFromWorker(
    new Worker(new URL('../../worker/variant.worker.ts', import.meta.url), { type: 'module' }),
    request,
    onStage,
  );
}
