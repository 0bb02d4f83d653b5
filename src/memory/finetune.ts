/** What a training step updates: every weight, or low-rank adapters on a frozen base (LoRA, QLoRA). */

/**
 * `full`: every weight is trained. `lora`: adapters on a frozen 16-bit base (Hu et al. 2021, arXiv 2106.09685).
 * `qlora`: adapters on a frozen 4-bit NF4 base with double quantization (Dettmers et al. 2023, arXiv 2305.14314).
 */
export type Finetune = 'full' | 'lora' | 'qlora';

/** Every finetune mode. */
export const FINETUNES: readonly Finetune[] = ['full', 'lora', 'qlora'];
