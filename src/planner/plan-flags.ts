/**
 * The planner's flags, described with the engine's flag definitions: the `estimate` flags it takes as given, and its
 * own (the GPUs, the batch, what ranks the plans). `npm run plan` and its `--help`, the planner page's fields and its
 * URL query all read them, and `parsePlanFlags` reads their values with the engine's option readers.
 */
import {
  booleanFlag,
  createFlagTable,
  enumFlag,
  ESTIMATE_FLAG_TABLE,
  flagArgs,
  numberFlag,
  stringFlag,
  type FieldFlag,
  type FlagTable,
} from '../memory/index.ts';
import { commandLine } from '../base/command-line.ts';
import { PRICE_TIERS, type PriceTier } from './prices.ts';

/** Whether the weights are trained from scratch or adapted (only fine-tuning may use LoRA/QLoRA). */
export type Task = 'pretrain' | 'finetune';

/** Every task. */
export const TASKS: readonly Task[] = ['pretrain', 'finetune'];

/** What the plans are ranked by. */
export type RankBy = 'time' | 'step-cost' | 'epoch-cost';

/** Every ranking. */
export const RANKINGS: readonly RankBy[] = ['time', 'step-cost', 'epoch-cost'];

/** What a request takes where its flag is not given. */
export const PLAN_DEFAULTS: {
  readonly gpus: number;
  readonly task: Task;
  readonly rankBy: RankBy;
  readonly priceTier: PriceTier;
} = {
  gpus: 1,
  task: 'pretrain',
  rankBy: 'time',
  priceTier: 'on-demand',
};

/** Most GPUs a request (or a suggestion to scale up) may name. */
export const MAX_GPUS = 1024;

/**
 * `estimate` flags the planner takes as given: the model, its sequence, the GPU, the margin, and the training stack,
 * whose defaults fill what the search does not choose (gradients between steps, layer kernels).
 */
export const FIXED_ESTIMATE_FLAGS: readonly string[] = [
  'stack',
  'model',
  'arch',
  'hidden',
  'layers',
  'heads',
  'kv-heads',
  'ffn',
  'vocab',
  'positions',
  'experts',
  'top-k',
  'seq',
  'dropout',
  'no-dropout',
  'gpu',
  'headroom',
];

/**
 * `--train-tokens N`, the token budget of the whole run: every plan then shows the run's wall-clock time and cost
 * (run-budget.ts). `estimate` takes the same flag.
 */
export const TRAIN_TOKENS_FLAG = {
  key: 'trainTokens',
  flag: 'train-tokens',
  label: 'Tokens to train',
  help: 'tokens the whole run trains, for its wall-clock time and cost',
} as const;

/** Option keys of the planner's own flags. */
export type PlanFlagKey =
  | 'gpus'
  | 'globalBatch'
  | 'task'
  | 'allowLossy'
  | 'maxHostGb'
  | 'rankBy'
  | 'priceTier'
  | 'epochTokens'
  | 'trainTokens'
  | 'price'
  | 'rent';

/** Flags of the planner itself, in help order. */
export const PLAN_FLAGS: readonly FieldFlag<PlanFlagKey>[] = [
  numberFlag({
    key: 'gpus',
    flag: 'gpus',
    default: String(PLAN_DEFAULTS.gpus),
    label: 'How many',
    help: 'how many GPUs of --gpu you have',
    max: MAX_GPUS,
  }),
  numberFlag({
    key: 'globalBatch',
    flag: 'global-batch',
    label: 'Global batch',
    unit: 'sequences per step',
    help: 'sequences per optimizer step over all GPUs (required)',
    max: 1_000_000,
  }),
  enumFlag(
    {
      key: 'task',
      flag: 'task',
      default: PLAN_DEFAULTS.task,
      label: 'Task',
      help: 'pretrain or finetune; only finetune may use LoRA/QLoRA',
    },
    TASKS,
  ),
  booleanFlag({
    key: 'allowLossy',
    flag: 'allow-lossy',
    label: 'Allow lossy numerics',
    help: 'pretraining: also search pure 16-bit weights and 8-bit AdamW, which change the training numerics (fine-tuning always may)',
  }),
  numberFlag(
    {
      key: 'maxHostGb',
      flag: 'max-host-gb',
      label: 'Host RAM for offload',
      unit: 'GB',
      help: 'host RAM offload may use on the machine, GB (10^9 bytes; default: no limit)',
    },
    'GB',
  ),
  enumFlag(
    {
      key: 'rankBy',
      flag: 'rank-by',
      default: PLAN_DEFAULTS.rankBy,
      label: 'Rank by',
      help: 'rank plans by step time, cost per step or cost per epoch',
    },
    RANKINGS,
  ),
  enumFlag(
    {
      key: 'priceTier',
      flag: 'price-tier',
      default: PLAN_DEFAULTS.priceTier,
      label: 'Price tier',
      help: 'the price costs are ranked by',
    },
    PRICE_TIERS,
  ),
  numberFlag({
    key: 'epochTokens',
    flag: 'epoch-tokens',
    label: 'Tokens per epoch',
    help: 'tokens in one epoch, for the cost per epoch',
  }),
  numberFlag(TRAIN_TOKENS_FLAG),
  stringFlag(
    {
      key: 'price',
      flag: 'price',
      repeatable: true,
      label: 'GPU prices per hour',
      help: 'price per GPU-hour of a GPU preset, repeatable; replaces the example price (GPU=none: no price, not offered for rent)',
    },
    'GPU=OD/RES/SPOT',
  ),
  booleanFlag({
    key: 'rent',
    flag: 'rent',
    label: 'Compare renting',
    help: 'also plan on the other GPUs with a price, rented as many as yours (default: your GPUs alone)',
  }),
];

/**
 * `no-rent`, the flag of the time renting was compared by default: links and scripts written then still parse, and
 * `no-rent=true` still means no renting. It is read, never written (the page's query and `--help` leave it out).
 */
const OLD_RENT_ALIAS = { flag: 'no-rent', key: 'rent', value: false, help: 'same as --rent false (old links)' } as const;

/** The planner's own flags as a table, for parsing and reading them. */
export const PLAN_FLAG_TABLE: FlagTable<FieldFlag<PlanFlagKey>> = createFlagTable(PLAN_FLAGS, [OLD_RENT_ALIAS]);

/** Every flag the planner takes, by name: the `estimate` flags it takes as given, then its own. */
export const PLANNER_FLAG_NAMES: readonly string[] = [...FIXED_ESTIMATE_FLAGS, ...PLAN_FLAGS.map((f) => f.flag)];

/** The definition of a flag the planner takes (an `estimate` flag it takes as given, or its own), or undefined. */
export function plannerFlagNamed(name: string): FieldFlag<string> | undefined {
  return PLAN_FLAG_TABLE.named(name) ?? (FIXED_ESTIMATE_FLAGS.includes(name) ? ESTIMATE_FLAG_TABLE.named(name) : undefined);
}

/**
 * The terminal command that estimates `flags` (a plan's, or the closest miss's): every place that shows one writes it
 * here, so the page and `plan` print the same line.
 * @example estimateCommandLine({ model: 'gpt2', gpu: 'rtx-4090' }) // "npx gpu-memory-lab estimate --model gpt2 --gpu rtx-4090"
 */
export function estimateCommandLine(flags: Readonly<Record<string, string>>): string {
  return commandLine('estimate', flagArgs(flags));
}

/**
 * The terminal command that runs the planner on `flags` (a record, or a URL query's pairs, where `price` repeats), as
 * the planner page shows it for its settings.
 * @example planCommandLine({ model: 'gpt2', gpu: 'rtx-4090', rent: 'true' }) // "npx gpu-memory-lab plan --model gpt2 --gpu rtx-4090 --rent"
 */
export function planCommandLine(flags: Readonly<Record<string, string>> | Iterable<readonly [string, string]>): string {
  return commandLine('plan', flagArgs(flags));
}
