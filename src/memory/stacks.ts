/**
 * The training stacks a reader may run. Each stack stands for what that tool really does by default (weight dtype at
 * load, master weights, optimizer and implementation, attention, checkpointing, loss), so an unflagged estimate for
 * `hf-trainer` describes an unflagged `Trainer` run on current versions.
 */
export type Stack =
  | 'hf-trainer'
  | 'trl'
  | 'pytorch'
  | 'deepspeed'
  | 'fsdp2'
  | 'megatron'
  | 'torchtitan'
  | 'torchtune'
  | 'llama-factory'
  | 'axolotl'
  | 'unsloth';

/** Every stack, in the order the site lists them. */
export const STACKS: readonly Stack[] = [
  'hf-trainer',
  'trl',
  'pytorch',
  'deepspeed',
  'fsdp2',
  'megatron',
  'torchtitan',
  'torchtune',
  'llama-factory',
  'axolotl',
  'unsloth',
];
