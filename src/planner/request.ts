/**
 * What the planner is asked: the model, the GPUs, the target batch and what may change. Parsed
 * from the same flag vocabulary as `estimate` (CLI `--gpus 8`, URL `?gpus=8`), checked field by field.
 */
import {
  estimateMemory,
  FLAGS,
  getGpuPreset,
  parseEstimateFlags,
  parseNumberFlag,
  type EstimateOptions,
  type FieldError,
  type FlagKind,
  type RawFlags,
} from '../memory/index.ts';
import { PRICE_TIERS, type GpuPrices, type PriceTable, type PriceTier } from './prices.ts';

/** Whether the weights are trained from scratch or adapted (only fine-tuning may use LoRA/QLoRA). */
export type Task = 'pretrain' | 'finetune';

/** Every task. */
export const TASKS: readonly Task[] = ['pretrain', 'finetune'];

/** What the plans are ranked by. */
export type RankBy = 'time' | 'step-cost' | 'epoch-cost';

/** Every ranking. */
export const RANKINGS: readonly RankBy[] = ['time', 'step-cost', 'epoch-cost'];

/** A checked planning request. */
export interface PlanRequest {
  /** The model and fixed settings, as `estimate` options (model or shape, seq, gpu, headroom, dropout). */
  readonly base: EstimateOptions;
  /** GPU preset id of the reader's GPUs. */
  readonly gpu: string;
  /** How many of them. */
  readonly gpus: number;
  /** Sequences per optimizer step over all GPUs: micro-batch × accumulation × data-parallel degree. */
  readonly globalBatch: number;
  /** Tokens per sequence (the engine's default when not given). */
  readonly seq: number;
  /** Pre-training or fine-tuning. */
  readonly task: Task;
  /** Host RAM the offloaded states may take on the machine (all GPU processes together), bytes; null: no limit. */
  readonly maxHostBytes: number | null;
  /** Ranking. */
  readonly rankBy: RankBy;
  /** Price tier costs are ranked by. */
  readonly priceTier: PriceTier;
  /** GPU-hour prices; the reader's GPU may have one too. */
  readonly prices: PriceTable;
  /** Tokens in one epoch, for the cost per epoch; null when not given. */
  readonly epochTokens: number | null;
  /** Whether to compare renting the priced GPUs (as many as the reader's). */
  readonly rent: boolean;
}

/** Outcome of parsing a request. */
export type ParsePlanResult = { ok: true; request: PlanRequest } | { ok: false; errors: FieldError[] };

/** Raw planner flags: like `RawFlags`, plus repeated `price` values. */
export type RawPlanFlags = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

/** `estimate` flags the planner takes as given: the model, its sequence, the GPU, the margin. */
export const FIXED_ESTIMATE_FLAGS: readonly string[] = [
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

/** One planner flag (the planner's own flags; the engine's come from its flag table). */
export interface PlanFlagSpec {
  /** Flag / query name. */
  name: string;
  /** Value kind. */
  kind: FlagKind;
  /** Allowed values of an enumeration. */
  values?: readonly string[];
  /** Placeholder in --help. */
  placeholder: string;
  /** One-line help. */
  help: string;
}

const num = (name: string, help: string, placeholder = 'N'): PlanFlagSpec => ({ name, kind: 'number', placeholder, help });
const oneOf = (name: string, values: readonly string[], help: string): PlanFlagSpec => ({
  name,
  kind: 'enum',
  values,
  placeholder: values.join('|'),
  help,
});

/** What a request takes where its flag is not given. */
export const PLAN_DEFAULTS: { readonly task: Task; readonly rankBy: RankBy; readonly priceTier: PriceTier } = {
  task: 'pretrain',
  rankBy: 'time',
  priceTier: 'on-demand',
};

/** Flags of the planner itself, in help order. */
export const PLAN_FLAG_SPECS: readonly PlanFlagSpec[] = [
  num('gpus', 'how many GPUs of --gpu you have (default 1)'),
  num('global-batch', 'sequences per optimizer step over all GPUs (required)'),
  oneOf('task', TASKS, 'pretrain or finetune (default pretrain); only finetune may use LoRA/QLoRA'),
  num('max-host-gb', 'host RAM offload may use on the machine, GB (10^9 bytes; default: no limit)', 'GB'),
  oneOf('rank-by', RANKINGS, 'rank plans by step time, cost per step or cost per epoch (default time)'),
  oneOf('price-tier', PRICE_TIERS, 'the price costs are ranked by (default on-demand)'),
  num('epoch-tokens', 'tokens in one epoch, for the cost per epoch'),
  {
    name: 'price',
    kind: 'string',
    placeholder: 'GPU=OD/RES/SPOT',
    help: 'price per GPU-hour of a GPU preset, repeatable; replaces the example price (GPU=none: no price, not offered for rent)',
  },
  { name: 'no-rent', kind: 'boolean', placeholder: '', help: 'do not compare renting other GPUs' },
];

/** Most GPUs a request (or a suggestion to scale up) may name. */
export const MAX_GPUS = 1024;
const MAX_GLOBAL_BATCH = 1_000_000;

/**
 * Parse `GPU=OD/RES/SPOT`, or `GPU=none` (the GPU has no price: it is not offered for rent, and an own GPU costs
 * nothing to compare); an error message when malformed.
 */
export function parsePrice(text: string): { gpu: string; prices: GpuPrices | null } | string {
  const none = /^\s*([a-z0-9-]+)\s*=\s*none\s*$/i.exec(text);
  if (none !== null) return { gpu: none[1] ?? '', prices: null };
  const match = /^\s*([a-z0-9-]+)\s*=\s*([^/]+)\/([^/]+)\/([^/]+)\s*$/i.exec(text);
  if (match === null) return `expected GPU=ON-DEMAND/RESERVED/SPOT or GPU=none, e.g. h100-80gb=3/2.1/1.5, got '${text}'`;
  const [, gpu = '', ...rest] = match;
  const values = rest.map((v) => parseNumberFlag(v));
  if (values.some((v) => v === undefined || v < 0)) return `prices must be numbers of 0 or more, got '${text}'`;
  const [onDemand = 0, reserved = 0, spot = 0] = values as number[];
  return { gpu, prices: { 'on-demand': onDemand, reserved, spot } };
}

/** Format a price table entry as the `price` flag writes it (null: `GPU=none`). */
export function formatPrice(gpu: string, prices: GpuPrices | null): string {
  return prices === null ? `${gpu}=none` : `${gpu}=${prices['on-demand']}/${prices.reserved}/${prices.spot}`;
}

/**
 * Parse and check planner flags. The model, GPU and margin are checked by the engine itself (one
 * estimate of the model alone), so every error names the field the reader typed into.
 * @example parsePlanFlags({ model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', seq: '512' }, EXAMPLE_PRICES)
 */
export function parsePlanFlags(raw: RawPlanFlags, defaultPrices: PriceTable): ParsePlanResult {
  const errors: FieldError[] = [];
  const fixed: RawFlags = {};
  const own = new Map(PLAN_FLAG_SPECS.map((spec) => [spec.name, spec]));
  const engineNames = new Set(FLAGS.map((spec) => spec.flag));
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || own.has(name)) continue;
    if (FIXED_ESTIMATE_FLAGS.includes(name)) {
      if (typeof value === 'string' || typeof value === 'boolean') fixed[name] = value;
      else errors.push({ field: name, message: `give --${name} once` });
    } else if (engineNames.has(name)) {
      errors.push({ field: name, message: `--${name} is one of the choices the planner makes; leave it out` });
    } else {
      errors.push({ field: name, message: `unknown flag --${name}` });
    }
  }
  const parsed = parseEstimateFlags(fixed);
  if (!parsed.ok) errors.push(...parsed.errors);

  const single = (name: string): string | undefined => {
    const value = raw[name];
    if (value === undefined || typeof value === 'boolean') return value === true ? '' : undefined;
    if (typeof value === 'string') return value;
    errors.push({ field: name, message: `give --${name} once` });
    return undefined;
  };
  const whole = (name: string, fallback: number | undefined, max: number): number | undefined => {
    const text = single(name);
    if (text === undefined) return fallback;
    const value = parseNumberFlag(text);
    if (value === undefined) errors.push({ field: name, message: `expected a number, got '${text}'` });
    else if (!Number.isInteger(value) || value < 1)
      errors.push({ field: name, message: `${name} must be a whole number of at least 1, got ${text}` });
    else if (value > max) errors.push({ field: name, message: `${name} must be at most ${max}, got ${text}` });
    else return value;
    return undefined;
  };
  const positive = (name: string): number | null => {
    const text = single(name);
    if (text === undefined) return null;
    const value = parseNumberFlag(text);
    if (value === undefined || !(value > 0))
      errors.push({ field: name, message: `${name} must be a number above 0, got '${text}'` });
    return value !== undefined && value > 0 ? value : null;
  };
  const keyword = <T extends string>(name: string, values: readonly T[], fallback: T): T => {
    const text = single(name);
    if (text === undefined) return fallback;
    if ((values as readonly string[]).includes(text)) return text as T;
    errors.push({ field: name, message: `invalid ${name}: '${text}' (expected ${values.join(', ')})` });
    return fallback;
  };

  const gpus = whole('gpus', 1, MAX_GPUS);
  const globalBatch = whole('global-batch', undefined, MAX_GLOBAL_BATCH);
  if (raw['global-batch'] === undefined)
    errors.push({ field: 'global-batch', message: 'give --global-batch N, the sequences per optimizer step over all GPUs' });
  const task = keyword('task', TASKS, PLAN_DEFAULTS.task);
  const maxHostGb = positive('max-host-gb');
  const rankBy = keyword('rank-by', RANKINGS, PLAN_DEFAULTS.rankBy);
  const priceTier = keyword('price-tier', PRICE_TIERS, PLAN_DEFAULTS.priceTier);
  const epochTokens = positive('epoch-tokens');
  if (rankBy === 'epoch-cost' && epochTokens === null && raw['epoch-tokens'] === undefined) {
    errors.push({ field: 'epoch-tokens', message: 'ranking by cost per epoch needs --epoch-tokens N' });
  }
  const noRent = raw['no-rent'];
  const rent = !(noRent === true || noRent === 'true' || noRent === '');

  const prices: Record<string, GpuPrices> = { ...defaultPrices };
  const priceValues = raw['price'];
  for (const text of typeof priceValues === 'string' ? [priceValues] : Array.isArray(priceValues) ? priceValues : []) {
    const price = parsePrice(text);
    if (typeof price === 'string') errors.push({ field: 'price', message: price });
    else if (price.prices === null) delete prices[price.gpu];
    else prices[price.gpu] = price.prices;
  }

  if (!parsed.ok) return { ok: false, errors };
  if (parsed.options.gpu === undefined) errors.push({ field: 'gpu', message: 'give --gpu ID, the GPU you have' });
  // One estimate of the model alone checks the model, the sequence, the GPU and the margin.
  const probe = estimateMemory({ ...parsed.options });
  if (!probe.ok) errors.push(...probe.errors);
  if (probe.ok && probe.result.model === null)
    errors.push({ field: 'model', message: 'the planner needs a model shape: give --model or --arch with its shape' });
  for (const gpu of Object.keys(prices)) {
    if (getGpuPreset(gpu) === undefined) errors.push({ field: 'price', message: `unknown gpu '${gpu}' in --price` });
  }
  if (errors.length > 0 || !probe.ok || gpus === undefined || globalBatch === undefined || parsed.options.gpu === undefined) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    request: {
      base: parsed.options,
      gpu: parsed.options.gpu,
      gpus,
      globalBatch,
      seq: probe.result.resolved.seq,
      task,
      maxHostBytes: maxHostGb === null ? null : Math.floor(maxHostGb * 1e9),
      rankBy,
      priceTier,
      prices,
      epochTokens,
      rent,
    },
  };
}
