import { describe, expect, test } from 'vitest';
import { MESSAGES } from '../../../src/i18n/messages/index';
import {
  estimateMemory,
  RULE_WORDS,
  WARNING_WORDS,
  wordNotice,
  wordRule,
  type BrokenRule,
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
};

describe('the errors of rules between fields in the catalogues', () => {
  test('the samples cover every code the engine words', () => {
    expect(Object.keys(RULE_SAMPLES).sort()).toEqual(Object.keys(RULE_WORDS).sort());
  });

  test.each(Object.values(RULE_SAMPLES))('$code reads Chinese next to a zh field, the engine’s English otherwise', (rule) => {
    const english = wordRule(rule);
    const error = { field: 'tp', message: english, problem: { kind: 'rule', rule } } as const;
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
    expect(error?.problem).toEqual({ kind: 'rule', rule: RULE_SAMPLES.headsByTp });
    expect(error?.problem?.kind === 'rule' && wordRule(error.problem.rule)).toBe(error?.message);
  });
});
