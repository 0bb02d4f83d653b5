/** What a reader may change about an experiment's model, and the bounds that keep it safe. */
export interface LabSettings {
  /** Width h of the MLP: one of `LAB_WIDTHS`. */
  readonly hidden: number;
  /** Hidden layers L: one of `LAB_LAYERS`. */
  readonly layers: number;
  /** Examples per step. */
  readonly batch: number;
  /** Micro-batches per step (gradient accumulation only). */
  readonly microBatches: number;
}

/** Widths and depths the model factory generates (scripts/build-models.ts). */
export const LAB_WIDTHS = [128, 256, 512] as const;
export const LAB_LAYERS = [4, 8, 16] as const;
/** Micro-batch counts offered for gradient accumulation. */
export const LAB_MICRO_BATCHES = [2, 4, 8] as const;
/**
 * Batch bounds. The upper one keeps a step within seconds on a software WebGPU adapter
 * (SwiftShader ran a 512-wide, 8-layer MLP at batch 1024 in about 15 s) and well inside
 * WebGPU's default 128 MiB storage-binding limit (2048 × 512 × 4 B = 4 MiB per activation).
 */
export const LAB_BATCH_MIN = 8;
export const LAB_BATCH_MAX = 2048;

/** Default sizes: a step of a few seconds on SwiftShader, with activations well above noise. */
export const DEFAULT_LAB_SETTINGS: LabSettings = { hidden: 256, layers: 8, batch: 512, microBatches: 4 };

/** A problem with one field, shown next to it. */
export interface SettingError {
  readonly field: keyof LabSettings;
  readonly message: string;
}

/** Checks reader-entered settings; an empty list means they are safe to run. */
export function validateLabSettings(settings: LabSettings, { accumulate = false } = {}): SettingError[] {
  const errors: SettingError[] = [];
  const { hidden, layers, batch, microBatches } = settings;
  if (!(LAB_WIDTHS as readonly number[]).includes(hidden)) errors.push({ field: 'hidden', message: `Width must be one of ${LAB_WIDTHS.join(', ')}.` });
  if (!(LAB_LAYERS as readonly number[]).includes(layers)) errors.push({ field: 'layers', message: `Layers must be one of ${LAB_LAYERS.join(', ')}.` });
  if (!Number.isInteger(batch) || batch < LAB_BATCH_MIN || batch > LAB_BATCH_MAX) {
    errors.push({ field: 'batch', message: `Batch must be a whole number from ${LAB_BATCH_MIN} to ${LAB_BATCH_MAX}.` });
  }
  if (accumulate) {
    if (!(LAB_MICRO_BATCHES as readonly number[]).includes(microBatches)) {
      errors.push({ field: 'microBatches', message: `Micro-batches must be one of ${LAB_MICRO_BATCHES.join(', ')}.` });
    } else if (Number.isInteger(batch) && batch % microBatches !== 0) {
      errors.push({ field: 'microBatches', message: `A batch of ${batch} does not split into ${microBatches} equal micro-batches.` });
    }
  }
  return errors;
}
