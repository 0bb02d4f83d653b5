/** A model read from a config.json (pasted, dropped, fetched from the Hub or carried by a link), ready for the engine. */
import { readConfigJson, type FieldError, type ModelConfig, type Notice } from '../../memory/index';

/** A model read from a config.json: what the engine computes (`config`), what the page says and what a link carries. */
export interface LoadedModel {
  /** The shape, passed to the engine as `EstimateOptions.modelConfig`. */
  readonly config: ModelConfig;
  /**
   * What the reader guessed or left out (unknown model_type, fields ignored, a multimodal file's text_config), as data
   * the page words in its language next to the model.
   */
  readonly notices: readonly Notice[];
  /** The config.json cut down to the keys the shape was read from: what a shared link carries. */
  readonly shapeJson: Readonly<Record<string, unknown>>;
  /** The Hugging Face id it came from, shown as its name; null for a file pasted or dropped. */
  readonly hubId: string | null;
}

/** A model read, or the field errors that say why not (at least one). */
export type ModelReading =
  { readonly ok: true; readonly model: LoadedModel } | { readonly ok: false; readonly errors: readonly FieldError[] };

/**
 * Read config.json text (or its parsed object) through the engine's reader. Its errors are kept whole, each with its
 * problem data, so a page words each in its language (field-errors.ts).
 */
export function readLoadedModel(input: unknown, hubId: string | null): ModelReading {
  const reading = readConfigJson(input);
  if (!reading.ok) return { ok: false, errors: reading.errors };
  return { ok: true, model: { config: reading.config, notices: reading.notices, shapeJson: reading.shapeJson, hubId } };
}
