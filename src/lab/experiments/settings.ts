/**
 * What a reader may change about an experiment's model (every kind: single, cluster,
 * distillation), the bounds that keep it safe, and what stays fixed for both sides.
 */

/** Seed of the weights and the data: the same on both sides of an experiment, so they see identical inputs. */
export const LAB_SEED = 42;

/** What a reader may change about an experiment's model, and the bounds that keep it safe. */
export interface LabSettings {
  /** Width h of the MLP: one of `LAB_WIDTHS`. */
  readonly hidden: number;
  /** Hidden layers L: one of `LAB_LAYERS`. */
  readonly layers: number;
  /** Examples per step. */
  readonly batch: number;
  /** Micro-batches per step (gradient accumulation, pipeline schedules). */
  readonly microBatches: number;
  /** Virtual GPUs (cluster experiments): one of `LAB_DEVICES`. */
  readonly devices: number;
}

/** A setting a reader can change; each experiment shows the ones that apply to it. */
export type LabField = keyof LabSettings;

/** Widths and depths the model factory generates (scripts/build-models.ts). */
export const LAB_WIDTHS = [128, 256, 512] as const;
/** Depths (hidden layers) the model factory generates; each splits evenly into every `LAB_DEVICES` count. */
export const LAB_LAYERS = [4, 8, 16] as const;
/** Micro-batch counts offered for gradient accumulation and pipeline schedules. */
export const LAB_MICRO_BATCHES = [2, 4, 8] as const;
/**
 * Virtual GPU counts. Each is a WebGPU device in a worker of its own; more than four would
 * mostly measure how a software adapter shares a few CPU cores. Every offered depth splits
 * evenly into each count, so pipeline stages have equal layers.
 */
export const LAB_DEVICES = [2, 4] as const;
/**
 * Batch bounds. The upper one keeps a step within seconds on a software WebGPU adapter
 * (why: see docs/PERFORMANCE.md § Lab) and well inside
 * WebGPU's default 128 MiB storage-binding limit (2048 × 512 × 4 B = 4 MiB per activation).
 */
export const LAB_BATCH_MIN = 8;
/** The largest batch a reader may enter (see `LAB_BATCH_MIN` for why). */
export const LAB_BATCH_MAX = 2048;

/**
 * Default sizes: activations well above a WebAssembly heap's growth step (about a fifth of a
 * 16–20 MiB heap), and a step in milliseconds on a GPU.
 */
export const DEFAULT_LAB_SETTINGS: LabSettings = { hidden: 256, layers: 8, batch: 512, microBatches: 4, devices: 2 };

/**
 * Where an experiment starts on a software WebGPU adapter (SwiftShader), unless it says
 * otherwise. Every kernel runs on the CPU there, so a training step costs about as much as its
 * multiply-adds (B·h²·L), seconds at the defaults (docs/PERFORMANCE.md § Lab). Width 128 at
 * batch 128 does a sixteenth of the work, and its activations still outweigh its weights 4 to 1.
 */
export const SOFTWARE_ADAPTER_SETTINGS: Partial<LabSettings> = { hidden: 128, batch: 128 };

/** The fields every experiment shows: the model's size and its batch. */
export const SIZE_FIELDS: readonly LabField[] = ['hidden', 'layers', 'batch'];

/** What splits an experiment's batch into equal parts: micro-batches, or one shard per device. */
export type BatchSplit = 'microBatches' | 'devices';

/** A problem with one field, shown next to it. */
export interface SettingError {
  readonly field: LabField;
  readonly message: string;
}

const CHOICES: Partial<Record<LabField, readonly number[]>> = {
  hidden: LAB_WIDTHS,
  layers: LAB_LAYERS,
  microBatches: LAB_MICRO_BATCHES,
  devices: LAB_DEVICES,
};

const CHOICE_NOUNS: Record<LabField, string> = {
  hidden: 'Width',
  layers: 'Layers',
  batch: 'Batch',
  microBatches: 'Micro-batches',
  devices: 'Devices',
};

/**
 * What a field's error says, in English; a translated page passes its own words of this type, so the lab never
 * depends on the site's languages.
 */
export const SETTING_ERROR_WORDS = {
  /** A field offered as a choice list holds something else. */
  notAChoice: (field: LabField, options: readonly number[]): string =>
    `${CHOICE_NOUNS[field]} must be one of ${options.join(', ')}.`,
  batchRange: (min: number, max: number): string => `Batch must be a whole number from ${min} to ${max}.`,
  doesNotSplit: (batch: number, split: BatchSplit, parts: number): string =>
    `A batch of ${batch} does not split into ${split === 'microBatches' ? `${parts} equal micro-batches` : `${parts} equal shards, one per device`}.`,
};

/** The words of the settings' errors, in any language. */
export type SettingErrorWords = typeof SETTING_ERROR_WORDS;

/**
 * Checks reader-entered settings for the fields an experiment shows (and the ways it splits
 * its batch); an empty list means they are safe to run.
 */
export function validateLabSettings(
  settings: LabSettings,
  fields: readonly LabField[] = SIZE_FIELDS,
  splits: readonly BatchSplit[] = [],
  words: SettingErrorWords = SETTING_ERROR_WORDS,
): SettingError[] {
  const errors: SettingError[] = [];
  for (const field of fields) {
    const options = CHOICES[field];
    if (options && !options.includes(settings[field])) errors.push({ field, message: words.notAChoice(field, options) });
  }
  const { batch } = settings;
  if (fields.includes('batch') && (!Number.isInteger(batch) || batch < LAB_BATCH_MIN || batch > LAB_BATCH_MAX)) {
    errors.push({ field: 'batch', message: words.batchRange(LAB_BATCH_MIN, LAB_BATCH_MAX) });
    return errors;
  }
  for (const split of splits) {
    const parts = settings[split];
    if (errors.some((e) => e.field === split)) continue;
    if (batch % parts !== 0) errors.push({ field: split, message: words.doesNotSplit(batch, split, parts) });
  }
  return errors;
}
