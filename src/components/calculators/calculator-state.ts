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
  type RawFlags,
} from '../../memory/index';
import { CALCULATORS, type CalculatorId } from './specs';

/** Shape fields shown instead of the model picker for a custom model. */
export const CUSTOM_FIELDS = ['arch', 'hidden', 'layers', 'heads', 'kv-heads', 'ffn', 'vocab'] as const;

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

/** Pickers rendered on their own, not as flag fields. */
const PICKERS = new Set(['model', 'gpu']);

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

/** Flags that mean something only for a LoRA or QLoRA fine-tune. */
const LORA_ONLY = new Set(['lora-rank', 'lora-targets']);

/** Visible fields grouped the way the flag table groups them, in table order. */
export function groupedFields(id: CalculatorId, raw: RawFlags): { group: FlagGroup; flags: string[] }[] {
  const visible = new Set(visibleFields(id, raw));
  const groups: FlagGroup[] = ['model', 'workload', 'technique', 'hardware'];
  return groups
    .map((group) => ({ group, flags: FLAGS.filter((f) => f.group === group && visible.has(f.flag)).map((f) => f.flag) }))
    .filter((g) => g.flags.length > 0);
}

/** The flags the engine gets: the pickers, the custom shape when no preset is picked, and the visible fields. */
export function effectiveFlags(id: CalculatorId, raw: RawFlags): RawFlags {
  const keep = new Set<string>([...PICKERS, ...visibleFields(id, raw), ...(raw['model'] === undefined ? CUSTOM_FIELDS : [])]);
  return Object.fromEntries(Object.entries(raw).filter(([flag]) => keep.has(flag)));
}

/** The calculator's settings from a URL query: its defaults, overridden by the flags it owns. */
export function fromQuery(id: CalculatorId, search: string): RawFlags {
  const spec = CALCULATORS[id];
  const owned = new Set(['model', 'gpu', 'mode', ...CUSTOM_FIELDS, ...spec.fields, ...Object.keys(spec.defaults)]);
  const raw: RawFlags = { ...spec.defaults };
  for (const [name, value] of new URLSearchParams(search)) if (owned.has(name)) raw[name] = value;
  if (raw['arch'] !== undefined) delete raw['model'];
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

/** Parse the effective flags and run every scenario of the calculator through the engine. */
export function compute(id: CalculatorId, raw: RawFlags): Computed {
  const parsed = parseEstimateFlags(effectiveFlags(id, raw), { ignoreUnknown: true });
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const results: ScenarioResult[] = [];
  for (const scenario of CALCULATORS[id].scenarios(parsed.options)) {
    const outcome = estimateMemory(scenario.options);
    if (!outcome.ok) return { ok: false, errors: outcome.errors };
    results.push({ label: scenario.label, options: scenario.options, result: outcome.result });
  }
  return { ok: true, options: parsed.options, results };
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
