/**
 * Training configurations in and out: readers of the files readers already have (Trainer/TRL, DeepSpeed,
 * accelerate, LLaMA-Factory, axolotl, torchtune, torchtitan, Unsloth), their combination into one set of engine options with the
 * mapping line by line, and writers of the same files from an estimate's options.
 */
export {
  setupErrorLine,
  type EnglishEffect,
  type FileKey,
  type FileOutcome,
  type FileReading,
  type MappingEffect,
  type MappingLine,
  type SetupError,
  type SetupOptionKey,
  type SetupOptions,
  type TrainingTool,
} from './mapping.ts';
export { effectText } from './effect-text.ts';
export { MAX_TRAINING_CONFIG_BYTES } from './parse-text.ts';
export { readTrainingConfig } from './read-training-config.ts';
export {
  MERGE_ORDER_TEXT,
  combineReadings,
  conflictLine,
  type SetupConflict,
  type SetupContext,
  type SetupMapping,
} from './combine.ts';
export type { Unexpressed, WrittenConfig } from './writers/written-config.ts';
export { writeTrainingArgumentsJson, writeTrainingArgumentsPython } from './writers/training-arguments-writer.ts';
export { writeDeepSpeedJson } from './writers/deepspeed-json-writer.ts';
export { writeAccelerateYaml } from './writers/accelerate-yaml-writer.ts';
export { LLAMA_FACTORY_DEEPSPEED_PATH, writeLlamaFactoryYaml } from './writers/llama-factory-yaml-writer.ts';
export { writeAxolotlYaml } from './writers/axolotl-yaml-writer.ts';
export { writeTorchtuneOverrides } from './writers/torchtune-overrides-writer.ts';
export { isWriteFormat, WRITE_FORMATS, type WriteFormat, type WriteFormatSpec } from './writers/write-formats.ts';
export { writeReproducing, type ReproducingConfig } from './writers/write-reproducing.ts';
export { SETUP_WORDS, type SetupWords } from './words.ts';
export { SETUP_REASONS, reasonText, type SetupReason, type SetupReasonCode, type SetupReasons } from './reasons.ts';
export { SETUP_ERROR_WORDS, wordSetupProblem, type SetupErrorWords, type SetupProblem } from './error-words.ts';
