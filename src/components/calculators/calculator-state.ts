/**
 * What a calculator shows and computes, without the DOM: which fields are visible for its settings, the flags
 * the engine gets (exactly the visible ones), and the scenarios' results. The island only renders this.
 */
import {
  estimateMemory,
  flagNamed,
  FLAGS,
  parseEstimateFlags,
  type EstimateOptions,
  type EstimateResult,
  type FieldError,
  type FlagGroup,
  type ModelConfig,
  type RawFlags,
  MODEL_PRESETS,
} from '../../memory/index';
import { modelFacts, type ModelFacts } from '../model-source/model-facts';
import type { ScenarioWords } from '../../i18n/messages/engine/en';
import { CALCULATORS, type CalculatorId } from './specs';

/** Shape fields of the Custom form, shown under the model picker for a custom shape. */
export const CUSTOM_FIELDS = [
  'arch',
  'hidden',
  'layers',
  'heads',
  'kv-heads',
  'ffn',
  'vocab',
  'tie-embeddings',
  'num-labels',
] as const;

/** Whether `name` is a field of the Custom form, whose unchecked box says "no" rather than "the base model's". */
export function isCustomField(name: string): boolean {
  return (CUSTOM_FIELDS as readonly string[]).includes(name);
}

/**
 * Whether the settings describe a custom shape: no preset, or a preset whose shape fields are set. The preset then
 * stays as the shape's base, so what its config.json gave beyond the fields (family, head width, biases, norms,
 * experts) is kept by the engine rather than silently replaced by the bare architecture's defaults.
 */
export function isCustomShape(raw: RawFlags): boolean {
  return raw['model'] === undefined || CUSTOM_FIELDS.some((name) => raw[name] !== undefined);
}

/**
 * The settings as the Custom form starts from them: the picked preset kept as the base, and its shape in the fields,
 * so the form first computes exactly the model it came from. Settings already custom are returned unchanged.
 */
export function startCustomShape(raw: RawFlags): RawFlags {
  if (isCustomShape(raw)) return raw;
  const config = MODEL_PRESETS.find((p) => p.id === raw['model'])?.config;
  if (config === undefined) return raw;
  return {
    ...raw,
    arch: config.arch,
    hidden: String(config.hidden),
    layers: String(config.layers),
    heads: String(config.heads),
    'kv-heads': String(config.kvHeads),
    ffn: String(config.ffn),
    vocab: String(config.vocab),
    // Written out, so the box shows the model's own answer; a preset has no classification head, so no labels.
    'tie-embeddings': String(config.tiedEmbeddings),
  };
}

/** The settings with a preset picked: its own shape, the Custom form's fields dropped. */
export function pickPreset(raw: RawFlags, model: string): RawFlags {
  const next: RawFlags = { ...raw, model };
  for (const name of CUSTOM_FIELDS) delete next[name];
  return next;
}

/** What a calculator computed the model as, shown next to the model field so no shape is silent. */
export interface ModelSummary extends ModelFacts {
  /** The preset's label, or for a custom shape the label of the preset it is based on (null: none). */
  readonly preset: string | null;
  /** Whether the shape is custom. */
  readonly custom: boolean;
}

/** The model of an engine result, named for the reader: preset or custom, its family and its parameter counts. */
export function modelSummary(raw: RawFlags, result: EstimateResult): ModelSummary {
  return {
    preset: MODEL_PRESETS.find((p) => p.id === raw['model'])?.label ?? null,
    custom: isCustomShape(raw),
    ...modelFacts(result),
  };
}

/** Flags that mean something only for a training step, or only for inference (the engine ignores them otherwise). */
const TRAIN_ONLY = new Set([
  'precision',
  'optimizer',
  'optimizer-impl',
  'grads',
  'grad-accum',
  'recompute',
  'checkpoint-every',
  'kernels',
  'dropout',
  'finetune',
  'lora-rank',
  'lora-targets',
  'zero',
  'offload',
  'offload-device',
  'teacher',
  'teacher-weights',
]);
const INFER_ONLY = new Set(['weights', 'tokens']);

/** Pickers rendered on their own, not as flag fields: the model, the GPU and "How do you train?". */
const PICKERS = new Set(['model', 'gpu', 'stack']);

/** Whether a flag applies in `mode`. */
function appliesIn(flag: string, mode: string): boolean {
  return mode === 'infer' ? !TRAIN_ONLY.has(flag) : !INFER_ONLY.has(flag);
}

/**
 * The calculator's own fields for these settings: its listed fields and every flag its defaults set (so no setting
 * the result depends on is hidden), less those the current mode ignores.
 */
export function visibleFields(id: CalculatorId, raw: RawFlags): string[] {
  const spec = CALCULATORS[id];
  const mode = String(raw['mode'] ?? spec.defaults['mode'] ?? 'train');
  const listed = [...spec.fields, ...Object.keys(spec.defaults)].filter(
    (flag) => !PICKERS.has(flag) && flagNamed(flag) !== undefined,
  );
  const lora = ['lora', 'qlora'].includes(String(raw['finetune'] ?? spec.defaults['finetune'] ?? 'full'));
  return [...new Set(listed)].filter((flag) => appliesIn(flag, mode) && (lora || !LORA_ONLY.has(flag)));
}

/** Flags that mean something only for a LoRA or QLoRA fine-tune (validate.ts ignores them for a full one). */
const LORA_ONLY = new Set(['lora-rank', 'lora-targets', 'lora-dropout', 'dora']);

/** Visible fields grouped the way the flag table groups them, in table order. */
export function groupedFields(id: CalculatorId, raw: RawFlags): { group: FlagGroup; flags: string[] }[] {
  const visible = new Set(visibleFields(id, raw));
  const groups: FlagGroup[] = ['model', 'workload', 'technique', 'hardware'];
  return groups
    .map((group) => ({ group, flags: FLAGS.filter((f) => f.group === group && visible.has(f.flag)).map((f) => f.flag) }))
    .filter((g) => g.flags.length > 0);
}

/**
 * The flags the engine gets: the pickers (model, GPU, stack), the custom shape when there is one, and the visible fields. With a model read
 * from a config.json (`fromConfig`) the preset and the custom shape are left out: the file gives the whole model.
 */
export function effectiveFlags(id: CalculatorId, raw: RawFlags, fromConfig = false): RawFlags {
  const model = fromConfig ? [] : ['model', ...(isCustomShape(raw) ? CUSTOM_FIELDS : [])];
  const keep = new Set<string>(['gpu', 'stack', ...model, ...visibleFields(id, raw)]);
  return Object.fromEntries(Object.entries(raw).filter(([flag]) => keep.has(flag)));
}

/**
 * The calculator's settings from a URL query: its defaults, overridden by the flags it owns. An `arch` without a
 * `model` is a shape from scratch, so the default preset is dropped rather than lending it its family.
 */
export function fromQuery(id: CalculatorId, search: string): RawFlags {
  const spec = CALCULATORS[id];
  const owned = new Set(['model', 'gpu', 'mode', 'stack', ...CUSTOM_FIELDS, ...spec.fields, ...Object.keys(spec.defaults)]);
  const query = new URLSearchParams(search);
  const raw: RawFlags = { ...spec.defaults };
  for (const [name, value] of query) if (owned.has(name)) raw[name] = value;
  if (query.has('arch') && !query.has('model')) delete raw['model'];
  return raw;
}

/** A scenario with its engine result. */
export interface ScenarioResult {
  readonly label: string;
  readonly options: EstimateOptions;
  readonly result: EstimateResult;
}

/** The scenarios computed for some settings, or the field errors that stop them. */
export type Computed =
  | { readonly ok: true; readonly options: EstimateOptions; readonly results: readonly ScenarioResult[] }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

/**
 * Parse the effective flags and run every scenario of the calculator through the engine, on `modelConfig` when given,
 * the scenarios labelled in `words` (English unless given).
 */
export function compute(id: CalculatorId, raw: RawFlags, modelConfig?: ModelConfig, words?: ScenarioWords): Computed {
  const parsed = parseEstimateFlags(effectiveFlags(id, raw, modelConfig !== undefined), { ignoreUnknown: true });
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const options = modelConfig === undefined ? parsed.options : { ...parsed.options, modelConfig };
  const results: ScenarioResult[] = [];
  for (const scenario of CALCULATORS[id].scenarios(options, words)) {
    const outcome = estimateMemory(scenario.options);
    if (!outcome.ok) return { ok: false, errors: outcome.errors };
    results.push({ label: scenario.label, options: scenario.options, result: outcome.result });
  }
  return { ok: true, options, results };
}

/** A flag the settings give a value other than the engine's plain default. */
export interface ChangedDefault {
  readonly flag: string;
  readonly value: string;
  /** The engine's default, in words. */
  readonly default: string;
}

/** The settings that differ from what `estimate` would assume without them (the pickers aside). */
export function changedFromDefaults(flags: Record<string, string>): ChangedDefault[] {
  return Object.entries(flags).flatMap(([flag, value]) => {
    const spec = flagNamed(flag);
    if (spec === undefined || PICKERS.has(flag) || spec.default === undefined || spec.default === value) return [];
    return [{ flag, value, default: spec.default }];
  });
}
