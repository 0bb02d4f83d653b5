import type { RawFlags } from '../../memory/index';

/**
 * The model, GPU and workload a page starts from when the reader has set nothing: the landing page's "Will it fit?"
 * and lesson 1's calculator both read it, so the same model and GPU give the same figure on both (one sequence of
 * 2,048 tokens; the engine's own default would be the model's whole context). The training stack is the reader's
 * choice (stack-choice.ts), the engine's `DEFAULT_STACK` until they make one.
 */
export const SITE_DEFAULTS = {
  model: 'llama-3.1-8b',
  gpu: 'rtx-4090',
  'micro-batch': '1',
  seq: '2048',
} as const satisfies RawFlags;
