/**
 * What the planner is asked: the model, the GPUs, the target batch and what may change. Parsed from the same flag
 * vocabulary as `estimate` (CLI `--gpus 8`, URL `?gpus=8`): its flags are defined in `plan-flags.ts` with the engine's
 * flag definitions, parsed and read with the engine's parser and option readers, and checked field by field.
 */
import {
  createOptionReader,
  ESTIMATE_FLAG_TABLE,
  estimateMemory,
  getGpuPreset,
  parseEstimateFlags,
  parseFlags,
  parseNumberFlag,
  type EstimateOptions,
  type ShownFieldError,
  type ModelConfig,
  type RawFlagValue,
  type RawFlagValues,
} from '../memory/index.ts';
import {
  FIXED_ESTIMATE_FLAGS,
  PLAN_DEFAULTS,
  PLAN_FLAG_TABLE,
  RANKINGS,
  TASKS,
  type PlanFlagKey,
  type RankBy,
  type Task,
} from './plan-flags.ts';
import { PLANNER_WORDS, type PlannerWords } from './messages.ts';
import { PRICE_TIERS, type GpuPrices, type PriceTable, type PriceTier } from './prices.ts';

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
  /**
   * Whether pretraining may use numerics that change the training (pure 16-bit weights, 8-bit AdamW): `--allow-lossy`.
   * Fine-tuning always may (searchesLossyNumerics).
   */
  readonly allowLossy: boolean;
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
  /** Tokens the whole run trains, for its wall-clock time and cost (run-budget.ts); null when not given. */
  readonly trainTokens: number | null;
  /** Whether to compare renting the priced GPUs (as many as the reader's): `--rent`; the reader's GPUs alone by default. */
  readonly rent: boolean;
}

/** Outcome of parsing a request. */
export type ParsePlanResult = { ok: true; request: PlanRequest } | { ok: false; errors: ShownFieldError[] };

/**
 * Parse `GPU=OD/RES/SPOT`, or `GPU=none` (the GPU has no price: it is not offered for rent, and an own GPU costs
 * nothing to compare); an error message in `words` when malformed.
 */
export function parsePrice(
  text: string,
  words: PlannerWords['request'] = PLANNER_WORDS.request,
): { gpu: string; prices: GpuPrices | null } | string {
  const none = /^\s*([a-z0-9-]+)\s*=\s*none\s*$/i.exec(text);
  if (none !== null) return { gpu: none[1] ?? '', prices: null };
  const match = /^\s*([a-z0-9-]+)\s*=\s*([^/]+)\/([^/]+)\/([^/]+)\s*$/i.exec(text);
  if (match === null) return words.priceFormat(text);
  const [, gpu = '', ...rest] = match;
  const values = rest.map((v) => parseNumberFlag(v));
  if (values.some((v) => v === undefined || v < 0)) return words.priceNotNumbers(text);
  const [onDemand = 0, reserved = 0, spot = 0] = values as number[];
  return { gpu, prices: { 'on-demand': onDemand, reserved, spot } };
}

/** Format a price table entry as the `price` flag writes it (null: `GPU=none`). */
export function formatPrice(gpu: string, prices: GpuPrices | null): string {
  return prices === null ? `${gpu}=none` : `${gpu}=${prices['on-demand']}/${prices.reserved}/${prices.spot}`;
}

/**
 * Parse and check planner flags. The model, GPU and margin are checked by the engine itself (one
 * estimate of the model alone), so every error names the field the reader typed into. `modelConfig` is a shape read
 * from a config.json, in place of `--model`. The planner's own errors are worded in `words`; the engine's carry their
 * `problem`, which a page words in its language.
 * @example parsePlanFlags({ model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', seq: '512' }, EXAMPLE_PRICES)
 */
export function parsePlanFlags(
  raw: RawFlagValues,
  defaultPrices: PriceTable,
  modelConfig?: ModelConfig,
  words: PlannerWords['request'] = PLANNER_WORDS.request,
): ParsePlanResult {
  const given: Record<string, RawFlagValue> = {};
  const own: Record<string, RawFlagValue> = {};
  const choices: ShownFieldError[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (FIXED_ESTIMATE_FLAGS.includes(name)) given[name] = value;
    else if (ESTIMATE_FLAG_TABLE.named(name) !== undefined || ESTIMATE_FLAG_TABLE.alias(name) !== undefined)
      choices.push({ field: name, message: words.plannerChooses(name) });
    else own[name] = value;
  }
  const parsed = parseEstimateFlags(given);
  const flags = parseFlags(own, PLAN_FLAG_TABLE);
  const read = createOptionReader(flags.options, PLAN_FLAG_TABLE);
  // The planner's own errors are worded in `words` (the page's language), so they carry no problem data; each joins
  // the reader's errors so far, keeping the order in which the flags are read.
  const readErrors: ShownFieldError[] = [];
  const refuse = (key: PlanFlagKey, message: string) => {
    readErrors.push(...read.errors.splice(0), { field: PLAN_FLAG_TABLE.of(key).flag, message });
  };
  const gpus = read.count('gpus') ?? PLAN_DEFAULTS.gpus;
  const globalBatch = read.count('globalBatch');
  if (raw['global-batch'] === undefined) refuse('globalBatch', words.needsGlobalBatch);
  const task = read.keyword('task', TASKS);
  const maxHostGb = read.amount('maxHostGb');
  const rankBy = read.keyword('rankBy', RANKINGS);
  const priceTier = read.keyword('priceTier', PRICE_TIERS);
  const epochTokens = read.count('epochTokens');
  if (rankBy === 'epoch-cost' && raw['epoch-tokens'] === undefined) refuse('epochTokens', words.epochCostNeedsTokens);
  const trainTokens = read.count('trainTokens');
  const rent = read.flag('rent', false);
  const allowLossy = read.flag('allowLossy', false);

  const prices: Record<string, GpuPrices> = { ...defaultPrices };
  const priceTexts = flags.options.price;
  for (const text of Array.isArray(priceTexts) ? (priceTexts as readonly string[]) : []) {
    const price = parsePrice(text, words);
    if (typeof price === 'string') refuse('price', price);
    else if (price.prices === null) delete prices[price.gpu];
    else prices[price.gpu] = price.prices;
  }

  const errors = [...choices, ...(parsed.ok ? [] : parsed.errors), ...flags.errors, ...readErrors, ...read.errors];
  if (!parsed.ok) return { ok: false, errors };
  const base = modelConfig === undefined ? parsed.options : { ...parsed.options, modelConfig };
  if (parsed.options.gpu === undefined) errors.push({ field: 'gpu', message: words.needsGpu });
  // One estimate of the model alone checks the model, the sequence, the GPU and the margin.
  const probe = estimateMemory({ ...base });
  if (!probe.ok) errors.push(...probe.errors);
  if (probe.ok && probe.result.model === null) errors.push({ field: 'model', message: words.needsShape });
  for (const gpu of Object.keys(prices)) {
    if (getGpuPreset(gpu) === undefined) errors.push({ field: 'price', message: words.unknownPriceGpu(gpu) });
  }
  if (errors.length > 0 || !probe.ok || globalBatch === undefined || parsed.options.gpu === undefined) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    request: {
      base,
      gpu: parsed.options.gpu,
      gpus,
      globalBatch,
      seq: probe.result.resolved.seq,
      task,
      allowLossy,
      maxHostBytes: maxHostGb === undefined ? null : Math.floor(maxHostGb * 1e9),
      rankBy,
      priceTier,
      prices,
      epochTokens: epochTokens ?? null,
      trainTokens: trainTokens ?? null,
      rent,
    },
  };
}
