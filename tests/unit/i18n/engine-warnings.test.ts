import { describe, expect, test } from 'vitest';
import { MESSAGES } from '../../../src/i18n/messages/index';
import { WARNING_WORDS, wordNotice, type Notice, type WarningCode } from '../../../src/memory/index';

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
