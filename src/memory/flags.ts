/**
 * The flag vocabulary shared by the CLI (`--zero 3`) and the site's URL query (`?zero=3`):
 * parse a record of raw values into `EstimateOptions`, and format options back (round-trips).
 * Syntax only (numbers, enumerations, booleans); ranges and combinations are checked by `validate.ts`.
 */
import { RECOMPUTES } from './activations.ts';
import { WEIGHT_DTYPES } from './inference.ts';
import { ARCHS } from './model.ts';
import { OFFLOAD_DEVICES, OFFLOADS } from './offload.ts';
import { OPTIMIZERS } from './optimizer.ts';
import { FLAG_NAMES, MODES, type EstimateOptions, type FieldError } from './options.ts';
import { PRECISIONS } from './precision.ts';

/** Kind of value a flag takes. */
export type FlagKind = 'number' | 'enum' | 'boolean' | 'string';

/** One flag of the vocabulary. */
export interface FlagSpec {
  /** Flag / query name (kebab-case), e.g. `micro-batch`. */
  name: string;
  /** Value kind. */
  kind: FlagKind;
  /** Allowed values for `enum` flags. */
  values?: readonly string[];
  /** Placeholder shown in help, e.g. `N`. */
  placeholder: string;
  /** One-line help text with the default. */
  help: string;
}

const num = (name: string, help: string, placeholder = 'N'): FlagSpec => ({ name, kind: 'number', placeholder, help });
const oneOf = (name: string, values: readonly (string | number)[], help: string): FlagSpec => ({
  name, kind: 'enum', values: values.map(String), placeholder: values.join('|'), help,
});
const bool = (name: string, help: string): FlagSpec => ({ name, kind: 'boolean', placeholder: '', help });
const str = (name: string, help: string, placeholder: string): FlagSpec => ({ name, kind: 'string', placeholder, help });

/** Every flag, in help order. Numbers accept suffixes k, m, b, t (×10^3…10^12), e.g. `--params 7.5b`. */
export const FLAG_SPECS: readonly FlagSpec[] = [
  str('model', 'model preset (see --help list); shape flags below override it', 'ID'),
  oneOf('arch', ARCHS, 'custom architecture family'),
  num('hidden', 'hidden size h'),
  num('layers', 'layers L (mlp: hidden Linear+ReLU blocks)'),
  num('heads', 'attention heads (default h/64)'),
  num('kv-heads', 'key/value heads for GQA (default = heads)'),
  num('ffn', 'MLP width (default 4h; llama 8h/3 rounded to 256)'),
  num('vocab', 'vocabulary size (mlp: classes)'),
  num('positions', 'learned position rows (gpt2 1024, bert 512)'),
  num('inputs', 'mlp: input features of an input layer before the hidden blocks (default: none)'),
  num('experts', 'mixture-of-experts: experts per layer (default 1)'),
  num('top-k', 'mixture-of-experts: experts per token (default 2 with experts)'),
  num('params', 'parameter count alone (model states only; activations 0)'),
  oneOf('mode', MODES, 'what to estimate (default train)'),
  oneOf('precision', PRECISIONS, 'training precision (default mixed-bf16)'),
  oneOf('weights', WEIGHT_DTYPES, 'inference weight dtype (default bf16)'),
  oneOf('optimizer', OPTIMIZERS, 'optimizer (default adamw)'),
  num('micro-batch', 'sequences per GPU per forward; infer: batch (default 1)'),
  num('seq', 'sequence length in tokens (default: model context)'),
  num('grad-accum', 'gradient-accumulation steps (default 1)'),
  oneOf('recompute', RECOMPUTES, 'activation recompute (default none)'),
  num('checkpoint-every', 'full recompute: layers per checkpoint segment (default 1; mlp round(sqrt L))'),
  bool('flash-attention', 'FlashAttention: no s×s attention activations'),
  bool('dropout', 'force dropout on'),
  bool('no-dropout', 'turn dropout off (llama and mlp have none by default)'),
  num('dp', 'data-parallel GPUs (default 1)'),
  oneOf('zero', [0, 1, 2, 3], 'ZeRO stage; FSDP full-shard = 3 (default 0)'),
  num('tp', 'tensor-parallel degree (default 1)'),
  bool('sp', 'sequence parallelism (with --tp)'),
  num('pp', 'pipeline-parallel stages, 1F1B (default 1)'),
  oneOf('offload', OFFLOADS, 'offload to host (default none)'),
  oneOf('offload-device', OFFLOAD_DEVICES, 'offload target (default cpu)'),
  str('gpu', 'GPU preset to check the fit against', 'ID'),
  num('tokens', 'infer: tokens in the KV cache per sequence (default seq)'),
  str('teacher', 'distillation: frozen teacher model preset', 'ID'),
  oneOf('teacher-weights', WEIGHT_DTYPES, 'distillation: teacher weight dtype (default bf16)'),
  num('headroom', 'free margin to keep, percent of GPU memory (default 10)', 'PCT'),
];

/** Raw flag values, as node:util parseArgs or URLSearchParams give them. */
export type RawFlags = Record<string, string | boolean | undefined>;

/** Result of parsing flags. */
export type ParseFlagsResult = { ok: true; options: EstimateOptions } | { ok: false; errors: FieldError[] };

const SUFFIXES: Readonly<Record<string, number>> = { k: 1e3, m: 1e6, b: 1e9, g: 1e9, t: 1e12 };

/** Parse a number with an optional k/m/b/t suffix and `_` separators; undefined when malformed. */
export function parseNumberFlag(text: string): number | undefined {
  const match = /^([+-]?(?:\d[\d_]*)?(?:\.\d+)?(?:e[+-]?\d+)?)([kmbgt])?$/i.exec(text.trim());
  if (match === null || match[1] === undefined || match[1] === '' || /^[+-]?$/.test(match[1])) return undefined;
  const base = Number(match[1].replaceAll('_', ''));
  const scale = match[2] === undefined ? 1 : (SUFFIXES[match[2].toLowerCase()] ?? 1);
  const scaled = base * scale;
  // Snap float noise from the suffix (0.1k = 100.00000000000001) but keep real fractions like 1.5.
  const value = scale !== 1 && Math.abs(scaled - Math.round(scaled)) < 1e-6 ? Math.round(scaled) : scaled;
  return Number.isFinite(value) ? value : undefined;
}

function parseBoolean(value: string | boolean): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'true' || text === '1' || text === 'yes') return true;
  if (text === 'false' || text === '0' || text === 'no') return false;
  return undefined;
}

const OPTION_KEY_BY_FLAG: ReadonlyMap<string, keyof EstimateOptions> = new Map(
  (Object.entries(FLAG_NAMES) as [keyof EstimateOptions, string][]).map(([key, flag]) => [flag, key]),
);

/** Options for `parseEstimateFlags`. */
export interface ParseFlagsOptions {
  /** Ignore keys that are not flags (for URL queries with other parameters); default false. */
  ignoreUnknown?: boolean;
}

/**
 * Parse raw flag values (CLI or URL query) into `EstimateOptions`.
 * @example parseEstimateFlags({ model: 'llama-2-7b', zero: '3', dp: '8' })
 */
export function parseEstimateFlags(input: RawFlags, { ignoreUnknown = false }: ParseFlagsOptions = {}): ParseFlagsResult {
  const errors: FieldError[] = [];
  const options: Record<string, unknown> = {};
  const specs = new Map(FLAG_SPECS.map((spec) => [spec.name, spec]));
  for (const [name, raw] of Object.entries(input)) {
    if (raw === undefined) continue;
    const spec = specs.get(name);
    if (spec === undefined) {
      if (!ignoreUnknown) errors.push({ field: name, message: `unknown flag --${name}` });
      continue;
    }
    if (spec.kind === 'boolean') {
      const value = parseBoolean(raw);
      if (value === undefined) errors.push({ field: name, message: `expected true or false, got '${String(raw)}'` });
      else if (name === 'no-dropout') options['dropout'] = !value;
      else options[OPTION_KEY_BY_FLAG.get(name) ?? name] = value;
      continue;
    }
    if (typeof raw !== 'string' || raw.trim() === '') {
      errors.push({ field: name, message: `--${name} needs a value${spec.placeholder ? ` (${spec.placeholder})` : ''}` });
      continue;
    }
    const key = OPTION_KEY_BY_FLAG.get(name) ?? name;
    if (spec.kind === 'number') {
      const value = parseNumberFlag(raw);
      if (value === undefined) errors.push({ field: name, message: `expected a number, got '${raw}'` });
      else options[key] = value;
    } else if (spec.kind === 'enum') {
      const values = spec.values ?? [];
      if (!values.includes(raw)) errors.push({ field: name, message: `invalid ${name}: '${raw}' (expected ${values.join(', ')})` });
      else options[key] = name === 'zero' ? Number(raw) : raw;
    } else {
      options[key] = raw.trim();
    }
  }
  if (input['dropout'] !== undefined && input['no-dropout'] !== undefined && errors.length === 0) {
    errors.push({ field: 'no-dropout', message: 'give either --dropout or --no-dropout, not both' });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, options: options as EstimateOptions };
}

/**
 * Format options as flag values (the inverse of `parseEstimateFlags`), in help order.
 * Booleans become 'true' (`dropout: false` becomes `no-dropout: 'true'`).
 * @example new URLSearchParams(formatEstimateFlags({ model: 'llama-2-7b', zero: 3 })).toString() // "model=llama-2-7b&zero=3"
 */
export function formatEstimateFlags(options: EstimateOptions): Record<string, string> {
  const out: Record<string, string> = {};
  const record = options as Record<string, unknown>;
  for (const spec of FLAG_SPECS) {
    if (spec.name === 'no-dropout') continue;
    const key = OPTION_KEY_BY_FLAG.get(spec.name) ?? spec.name;
    const value = record[key];
    if (value === undefined) continue;
    if (spec.name === 'dropout') out[value === false ? 'no-dropout' : 'dropout'] = 'true';
    else out[spec.name] = String(value);
  }
  return out;
}
