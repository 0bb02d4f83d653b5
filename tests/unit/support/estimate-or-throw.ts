/** The engine's answer for a configuration a test holds to be valid. */
import { estimateMemory, type EstimateOptions, type EstimateResult } from '../../../src/memory/index.ts';

/**
 * `estimateMemory(options)`'s result. A refusal throws with the options and the engine's errors, so that a test of a
 * valid configuration fails saying which one the engine refused and why, instead of reading `result` off an error.
 */
export function estimateOrThrow(options: EstimateOptions): EstimateResult {
  const outcome = estimateMemory(options);
  if (!outcome.ok) throw new Error(JSON.stringify({ options, errors: outcome.errors }));
  return outcome.result;
}
