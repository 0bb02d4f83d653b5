import { describe, expect, test } from 'vitest';
import { MESSAGES } from '../../../src/i18n/messages/index';
import {
  DIFFUSION_PRESETS,
  estimateMemory,
  parseDiffusionFlags,
  parseEstimateFlags,
  readConfigJson,
  readDiffusersConfig,
  RULE_WORDS,
  WARNING_WORDS,
  wordNotice,
  wordRule,
  type BrokenRule,
  type EstimateOptions,
  type FieldError,
  type Notice,
  type RuleCode,
  type WarningCode,
} from '../../../src/memory/index';

const ZH = MESSAGES['zh-cn'];
const CHINESE = /\p{Script=Han}/u;

/** One notice per warning code, with parameters like the engine's (typed: a code missing here fails to compile). */
const SAMPLES: { readonly [C in WarningCode]: Notice & { code: C } } = {
  compileAssumption: { code: 'compileAssumption' },
  paramsOnly: { code: 'paramsOnly', params: { mode: 'infer' } },
  attentionOnMlp: { code: 'attentionOnMlp' },
  seqBeyondPositions: { code: 'seqBeyondPositions', params: { seq: 4096, positions: 1024 } },
  teacherVocab: { code: 'teacherVocab', params: { teacher: 50257, student: 32000 } },
  loraFlagsIgnored: { code: 'loraFlagsIgnored', params: { flags: ['--lora-rank', '--dora'] } },
  qloraRecompute: { code: 'qloraRecompute' },
  spWithoutTp: { code: 'spWithoutTp' },
  zeroWithoutDp: { code: 'zeroWithoutDp', params: { stage: 2 } },
  opRecomputeOnMlp: { code: 'opRecomputeOnMlp' },
  selectiveOnMlp: { code: 'selectiveOnMlp' },
  selectiveWithSdpa: { code: 'selectiveWithSdpa' },
  tieWithLabels: { code: 'tieWithLabels' },
  gradDtypeWithAdapters: { code: 'gradDtypeWithAdapters' },
  noBf16: { code: 'noBf16', params: { gpu: 'NVIDIA V100 SXM2 32GB' } },
  ignoredInInfer: { code: 'ignoredInInfer', params: { flags: ['--zero', '--optimizer'] } },
  tiedHeadStored: { code: 'tiedHeadStored' },
  kvCacheWithoutMla: { code: 'kvCacheWithoutMla' },
  inferFlagsInTraining: { code: 'inferFlagsInTraining' },
  pipelineStage: { code: 'pipelineStage', params: { stage: 'last' } },
  overMargin: {
    code: 'overMargin',
    params: { gpu: 'NVIDIA GeForce RTX 4090', capacityBytes: 24 * 2 ** 30, headroom: 10, shortfallBytes: 3 * 2 ** 29 },
  },
  textConfigOnly: { code: 'textConfigOnly', params: { modelType: 'gemma3' } },
  unknownModelType: {
    code: 'unknownModelType',
    params: { modelType: 'my_model', read: ['hidden_size', 'num_hidden_layers'], ignored: ['rope_theta'] },
  },
  quantizationNotCounted: { code: 'quantizationNotCounted', params: { method: '"gptq"', block: 128 } },
  nextnLayersSkipped: { code: 'nextnLayersSkipped' },
  noauxOnDeepseekV2: { code: 'noauxOnDeepseekV2' },
  layerTypesOther: { code: 'layerTypesOther' },
  layerTypesIrregular: { code: 'layerTypesIrregular', params: { window: 4096 } },
  conditioningEncodeUncounted: { code: 'conditioningEncodeUncounted' },
  diffusionDoesNotFit: {
    code: 'diffusionDoesNotFit',
    params: { gpu: 'NVIDIA GeForce RTX 4090', shortfallBytes: 3 * 2 ** 30, phase: 'decode', headroom: 10 },
  },
  doesNotFit: { code: 'doesNotFit', params: { gpu: 'NVIDIA GeForce RTX 4090', headroom: 10, shortfallBytes: 44_937_143_296 } },
};

/** Every run of four plain English words in `sentence` (flags, numbers and names with digits are not words here). */
function fourWordRuns(sentence: string): string[] {
  const words = sentence.split(/\s+/);
  const runs: string[] = [];
  for (let i = 0; i + 4 <= words.length; i++) {
    const run = words.slice(i, i + 4);
    if (run.every((word) => /^[A-Za-z']+$/.test(word))) runs.push(run.join(' '));
  }
  return runs;
}

describe('the estimate’s warnings in the catalogues', () => {
  test('the samples cover every code the engine words', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(WARNING_WORDS).sort());
  });

  test.each(Object.values(SAMPLES))('$code reads Chinese on a zh page and the engine’s English on an English one', (notice) => {
    const english = wordNotice(notice);
    expect(wordNotice(notice, MESSAGES.en.engine.warnings)).toBe(english);
    const chinese = wordNotice(notice, ZH.engine.warnings);
    expect(chinese).toMatch(CHINESE);
    const runs = fourWordRuns(english);
    expect(runs.filter((run) => chinese.includes(run))).toEqual([]);
    // No English sentence at all, whether or not it is this warning's: four plain words in a row.
    expect(fourWordRuns(chinese)).toEqual([]);
  });

  test('the parameters reach the Chinese sentence', () => {
    expect(wordNotice(SAMPLES.zeroWithoutDp, ZH.engine.warnings)).toContain('ZeRO-2');
    expect(wordNotice(SAMPLES.noBf16, ZH.engine.warnings)).toContain('NVIDIA V100 SXM2 32GB');
    // The shortfall as the English sentence formats it (GiB stays a unit in Chinese).
    const shortfall = /[\d.,]+ GiB/.exec(wordNotice(SAMPLES.doesNotFit))?.[0];
    expect(shortfall).toBeDefined();
    expect(wordNotice(SAMPLES.doesNotFit, ZH.engine.warnings)).toContain(shortfall);
    expect(wordNotice(SAMPLES.loraFlagsIgnored, ZH.engine.warnings)).toContain('--lora-rank、--dora');
  });
});

/** One broken rule per code, with parameters like the validator's (a code missing here fails to compile). */
const RULE_SAMPLES: { readonly [C in RuleCode]: BrokenRule & { code: C } } = {
  notANumber: { code: 'notANumber', params: { flag: 'micro-batch', value: 'many' } },
  notTrueOrFalse: { code: 'notTrueOrFalse', params: { value: 'yes please', quoted: true } },
  notAChoice: { code: 'notAChoice', params: { flag: 'zero', value: '4', allowed: ['0', '1', '2', '3'] } },
  notWhole: { code: 'notWhole', params: { flag: 'tp', value: 1.5 } },
  belowMinimum: { code: 'belowMinimum', params: { flag: 'lora-rank', value: 0, min: 1 } },
  notPositive: { code: 'notPositive', params: { flag: 'share', value: -1 } },
  tooLarge: { code: 'tooLarge', params: { flag: 'gpus', value: 101, max: 100 } },
  missing: { code: 'missing' },
  outOfRange: { code: 'outOfRange', params: { side: 'width', value: '8', min: 16, max: 8192 } },
  fileTooLarge: { code: 'fileTooLarge', params: { bytes: 2_000_000 } },
  notJson: { code: 'notJson', params: { reason: "Unexpected token '}' at position 9" } },
  notAnObject: { code: 'notAnObject' },
  tooManyGpus: { code: 'tooManyGpus', params: { gpus: 32768, max: 16384 } },
  tpOnMlp: { code: 'tpOnMlp' },
  headsByTp: { code: 'headsByTp', params: { heads: 32, tp: 3 } },
  kvHeadsAndTp: { code: 'kvHeadsAndTp', params: { kvHeads: 8, tp: 3 } },
  ppBeyondLayers: { code: 'ppBeyondLayers', params: { pp: 100, layers: 32 } },
  layersByChunks: { code: 'layersByChunks', params: { layers: 30, pp: 4, ppVirtual: 2 } },
  checkpointBeyondLayers: { code: 'checkpointBeyondLayers', params: { checkpointEvery: 99, layers: 32 } },
  virtualWithoutPp: { code: 'virtualWithoutPp', params: { ppVirtual: 2 } },
  accumByPp: { code: 'accumByPp', params: { gradAccum: 3, pp: 2 } },
  checkpointsWithoutFullRecompute: { code: 'checkpointsWithoutFullRecompute' },
  shardGroupWithoutZero3: { code: 'shardGroupWithoutZero3' },
  shardGroupByDp: { code: 'shardGroupByDp', params: { shardGroup: 3, dp: 8 } },
  keepGatheredWithoutZero3: { code: 'keepGatheredWithoutZero3' },
  paramOffloadWithoutZero3: { code: 'paramOffloadWithoutZero3' },
  offloadWithoutZero: { code: 'offloadWithoutZero' },
  configWithShape: { code: 'configWithShape' },
  paramsAlone: { code: 'paramsAlone' },
  noModel: { code: 'noModel', params: { models: ['gpt2', 'llama-2-7b'] } },
  unknownModel: { code: 'unknownModel', params: { model: 'gpt-5', models: ['gpt2', 'llama-2-7b'] } },
  hiddenRequired: { code: 'hiddenRequired', params: { arch: 'llama' } },
  layersRequired: { code: 'layersRequired', params: { arch: 'llama' } },
  headsRequired: { code: 'headsRequired', params: { hidden: 1000 } },
  hiddenByHeads: { code: 'hiddenByHeads', params: { hidden: 1024, heads: 12 } },
  kvHeadsDivideHeads: { code: 'kvHeadsDivideHeads', params: { kvHeads: 5, heads: 32 } },
  topKBeyondExperts: { code: 'topKBeyondExperts', params: { topK: 4, experts: 2 } },
  expertsOnMlp: { code: 'expertsOnMlp' },
  inputsOffMlp: { code: 'inputsOffMlp', params: { arch: 'gpt2' } },
  labelsOnMlp: { code: 'labelsOnMlp' },
  seqOnMlp: { code: 'seqOnMlp', params: { seq: 512 } },
  meanSeqBeyondSeq: { code: 'meanSeqBeyondSeq', params: { meanSeq: 4096, seq: 2048 } },
  paddingFreeWithEager: { code: 'paddingFreeWithEager' },
  optimizerInBackwardWithAccum: { code: 'optimizerInBackwardWithAccum' },
  fp8WithoutTensorCores: { code: 'fp8WithoutTensorCores', params: { recipe: 'te', gpu: 'NVIDIA A100 80GB' } },
  fp8TeOffNvidia: { code: 'fp8TeOffNvidia', params: { gpu: 'AMD Instinct MI300X' } },
  fp8InInfer: { code: 'fp8InInfer' },
  fp8WithAdapters: { code: 'fp8WithAdapters', params: { finetune: 'lora' } },
  fp8TeWithZero3: { code: 'fp8TeWithZero3' },
  fp8AllGatherNeeds: { code: 'fp8AllGatherNeeds' },
  unknownGpu: { code: 'unknownGpu', params: { gpu: 'h900', gpus: ['rtx-4090', 'h100-80gb'] } },
  unknownTeacher: { code: 'unknownTeacher', params: { teacher: 'gpt-5', models: ['gpt2', 'llama-2-7b'] } },
  teacherInInfer: { code: 'teacherInInfer' },
  headroomRange: { code: 'headroomRange', params: { value: '80' } },
  mfuRange: { code: 'mfuRange', params: { value: '0' } },
  storedUnknown: { code: 'storedUnknown' },
  quantizedWithoutShape: { code: 'quantizedWithoutShape', params: { format: 'GPTQ 4-bit' } },
  formatNotForArch: { code: 'formatNotForArch', params: { format: 'GPTQ 4-bit', arch: 'bert', archs: ['gpt2', 'llama'] } },
  formatWithoutExperts: { code: 'formatWithoutExperts', params: { format: 'MXFP4' } },
  gptqPacking: { code: 'gptqPacking', params: { format: 'GPTQ 4-bit', module: 'c_fc', inFeatures: 1600, outFeatures: 6400 } },
  awqPacking: {
    code: 'awqPacking',
    params: { format: 'GPTQ 4-bit', module: 'c_fc', inFeatures: 1600, outFeatures: 6400, group: 128 },
  },
  mxfp4Packing: {
    code: 'mxfp4Packing',
    params: { format: 'GPTQ 4-bit', module: 'c_fc', inFeatures: 1600, outFeatures: 6400, block: 32 },
  },
  adaptersWithoutShape: { code: 'adaptersWithoutShape', params: { finetune: 'qlora' } },
  loraDropoutRange: { code: 'loraDropoutRange', params: { value: '1.5' } },
  loraRankWhole: { code: 'loraRankWhole', params: { rank: 0 } },
  loraTargetsList: {
    code: 'loraTargetsList',
    params: { presets: ['all-linear', 'attention'], targets: ['q', 'k', 'v'], unknown: ['qkv'] },
  },
  modulesToSaveList: { code: 'modulesToSaveList', params: { modules: ['embed', 'head'], unknown: [] } },
  missingProjections: { code: 'missingProjections', params: { arch: 'gpt2', missing: ['gate'], have: ['q', 'k', 'v', 'o'] } },
  fusedProjections: { code: 'fusedProjections', params: { arch: 'gpt2', projections: ['q', 'k', 'v'], module: 'c_attn' } },
  loraOnMlp: { code: 'loraOnMlp' },
  doraWithTp: { code: 'doraWithTp' },
  unknownFlag: { code: 'unknownFlag', params: { flag: 'zer' } },
  flagTwice: { code: 'flagTwice', params: { flag: 'tp' } },
  flagWithoutValue: { code: 'flagWithoutValue', params: { flag: 'tp', placeholder: 'N' } },
  flagAndAlias: { code: 'flagAndAlias', params: { flag: 'dropout', alias: 'no-dropout' } },
  nothingToEstimate: { code: 'nothingToEstimate' },
  tooLargeToCount: { code: 'tooLargeToCount' },
  configKvHeads: { code: 'configKvHeads', params: { kvHeads: 5, headsKey: 'num_attention_heads', heads: 32 } },
  configHiddenByHeads: { code: 'configHiddenByHeads', params: { hidden: 1000, headsKey: 'num_attention_heads', heads: 32 } },
  configTopK: { code: 'configTopK', params: { topK: 9, experts: 8, expertsKey: 'num_local_experts' } },
  configLayerIndices: { code: 'configLayerIndices', params: { layers: 48 } },
  configLayerTypes: { code: 'configLayerTypes', params: { layers: 26, entries: 24 } },
  ditTooLarge: { code: 'ditTooLarge' },
  // The parser's reason is the JavaScript engine's, in its language: kept short here, as it is not the catalogue's.
  ditNotJson: { code: 'ditNotJson', params: { reason: "Unexpected token '}'" } },
  ditNotObject: { code: 'ditNotObject' },
  ditClassName: { code: 'ditClassName', params: { className: '"UNet2DConditionModel"', classes: ['WanTransformer3DModel'] } },
  ditCount: { code: 'ditCount', params: { value: '-1', max: 1_000_000 } },
  ditFlag: { code: 'ditFlag', params: { value: '"yes"' } },
  ditChoiceNotCounted: { code: 'ditChoiceNotCounted', params: { value: '"layer_norm"', values: ['rms_norm'] } },
  ditIndices: { code: 'ditIndices', params: { value: '[0,99]', layers: 24 } },
  ditPatch: { code: 'ditPatch', params: { value: '[1,2]' } },
  firstLastFrameNotCounted: { code: 'firstLastFrameNotCounted', params: { value: '514' } },
  imageDimPair: { code: 'imageDimPair', params: { value: '1280' } },
  unknownPipeline: { code: 'unknownPipeline', params: { id: 'sdxl' } },
  unknownGpuPreset: { code: 'unknownGpuPreset', params: { gpu: 'h900' } },
  resolutionFormat: { code: 'resolutionFormat', params: { value: '1280 by 720' } },
  sideNotMultiple: {
    code: 'sideNotMultiple',
    params: { side: 'width', value: 1000, multiple: 16, pipeline: 'WanPipeline', latentPixels: 8, patch: 2 },
  },
  imagesOneFrame: { code: 'imagesOneFrame', params: { pipeline: 'FluxPipeline', frames: 81 } },
  framesByTemporal: { code: 'framesByTemporal', params: { temporal: 4, frames: 80, pipeline: 'WanPipeline' } },
  diffusionHeadroom: { code: 'diffusionHeadroom', params: { value: 120 } },
};

describe('the engine’s field errors in the catalogues', () => {
  test('the samples cover every code the engine words', () => {
    expect(Object.keys(RULE_SAMPLES).sort()).toEqual(Object.keys(RULE_WORDS).sort());
  });

  test.each(Object.values(RULE_SAMPLES))('$code reads Chinese next to a zh field, the engine’s English otherwise', (rule) => {
    const english = wordRule(rule);
    const error = { field: 'tp', message: english, problem: rule } as const;
    expect(MESSAGES.en.engine.fieldError(error)).toBe(english);
    expect(wordRule(rule, MESSAGES.en.engine.rules)).toBe(english);
    const chinese = ZH.engine.fieldError(error);
    expect(chinese).toBe(wordRule(rule, ZH.engine.rules));
    expect(chinese).toMatch(CHINESE);
    expect(fourWordRuns(english).filter((run) => chinese.includes(run))).toEqual([]);
    expect(fourWordRuns(chinese)).toEqual([]);
  });

  test('the validator reports a broken rule as data that words back to its message', () => {
    const outcome = estimateMemory({ model: 'llama-2-7b', tp: 3 });
    expect(outcome.ok).toBe(false);
    const [error] = outcome.ok ? [] : outcome.errors;
    expect(error?.problem).toEqual(RULE_SAMPLES.headsByTp);
    expect(error && wordRule(error.problem)).toBe(error?.message);
  });
});

/** The errors of the engine's readers for bad input, as a page gets them. */
function errorsOf(outcome: { ok: true } | { ok: false; errors: readonly FieldError[] }): readonly FieldError[] {
  return outcome.ok ? [] : outcome.errors;
}

const LLAMA_CONFIG = {
  model_type: 'llama',
  hidden_size: 4096,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  intermediate_size: 11008,
  vocab_size: 32000,
};

/** Bad input through each of the engine's readers, and the code each must report. */
const BAD_INPUTS: readonly (readonly [RuleCode, () => readonly FieldError[]])[] = [
  ['unknownModel', () => errorsOf(estimateMemory({ model: 'gpt-5' }))],
  ['noModel', () => errorsOf(estimateMemory({}))],
  ['headroomRange', () => errorsOf(estimateMemory({ model: 'gpt2', headroom: 80 }))],
  ['mfuRange', () => errorsOf(estimateMemory({ model: 'gpt2', mfu: 0 }))],
  ['fp8InInfer', () => errorsOf(estimateMemory({ model: 'llama-2-7b', gpu: 'h100-80gb', fp8: 'te', mode: 'infer' }))],
  ['doraWithTp', () => errorsOf(estimateMemory({ model: 'llama-2-7b', finetune: 'lora', dora: true, tp: 2 }))],
  ['hiddenRequired', () => errorsOf(estimateMemory({ arch: 'llama' }))],
  ['unknownGpu', () => errorsOf(estimateMemory({ model: 'gpt2', gpu: 'h900' }))],
  ['quantizedWithoutShape', () => errorsOf(estimateMemory({ params: 7e9, mode: 'infer', weights: 'gptq' }))],
  ['fusedProjections', () => errorsOf(estimateMemory({ model: 'gpt2', finetune: 'lora', loraTargets: 'q' }))],
  ['unknownFlag', () => errorsOf(parseEstimateFlags({ zer: '3' }))],
  ['flagAndAlias', () => errorsOf(parseEstimateFlags({ dropout: true, 'no-dropout': true }))],
  ['configKvHeads', () => errorsOf(readConfigJson({ ...LLAMA_CONFIG, num_key_value_heads: 5 }))],
  ['ditClassName', () => errorsOf(readDiffusersConfig('{"_class_name":"UNet2DConditionModel"}'))],
  ['resolutionFormat', () => errorsOf(parseDiffusionFlags({ resolution: 'big' }, DIFFUSION_PRESETS[0]!.shape))],
];

describe('the engine’s readers give every error its data', () => {
  test.each(BAD_INPUTS)('%s: worded in Chinese from its data, its English message unchanged', (code, run) => {
    const errors = run();
    expect(errors.map((e) => e.problem.code)).toContain(code);
    for (const error of errors) {
      expect(error.problem).toBeDefined();
      expect(MESSAGES.en.engine.fieldError(error)).toBe(error.message);
      // A config reader puts the key before the rule's sentence; the page shows the key beside it.
      expect(error.message.endsWith(wordRule(error.problem))).toBe(true);
      const chinese = ZH.engine.fieldError(error);
      expect(chinese).toMatch(CHINESE);
      expect(fourWordRuns(chinese)).toEqual([]);
    }
  });

  test('an option the reader cannot read at all still says which rule it broke', () => {
    const options: EstimateOptions = { model: 'gpt2', headroom: Number.NaN };
    expect(errorsOf(estimateMemory(options))[0]?.problem).toEqual({ code: 'headroomRange', params: { value: 'NaN' } });
  });
});
