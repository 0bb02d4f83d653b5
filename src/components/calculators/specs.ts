import type { EstimateOptions, RawFlags } from '../../memory/index';
import { ENGINE_EN, type ScenarioWords } from '../../i18n/messages/engine/en';
import { SITE_DEFAULTS } from './site-defaults';

/** Ids of the site's calculators; each is a `data-calculator` value. */
export type CalculatorId =
  | 'breakdown'
  | 'mixed-precision'
  | 'gradient-accumulation'
  | 'gradient-checkpointing'
  | 'parallelism'
  | 'offload'
  | 'lora'
  | 'inference'
  | 'distillation'
  | 'stack'
  | 'rent-cost';

/**
 * The id of calculator `id` on its page, for links to it (`#calculator-breakdown`): the same in every language, where
 * a heading's id is not (a translated page's "## 计算器" is `#计算器`). A page shows each calculator once.
 */
export function calculatorAnchor(id: CalculatorId): string {
  return `calculator-${id}`;
}

/** One bar of a calculator's chart: a label and the options it estimates. */
export interface Scenario {
  readonly label: string;
  readonly options: EstimateOptions;
}

/** What a calculator shows and how it derives its comparison from the reader's settings. */
export interface CalculatorSpec {
  /** Flags the reader can change (model and GPU pickers are always shown). */
  readonly fields: readonly string[];
  /** Settings before the reader changes anything (flag vocabulary). */
  readonly defaults: RawFlags;
  /**
   * The scenarios to compare, derived from the reader's settings and labelled in `words` (the page's language); the
   * last one is always the settings themselves (the configuration the URL and `data-total-bytes` describe).
   */
  readonly scenarios: (options: EstimateOptions, words?: ScenarioWords) => readonly Scenario[];
}

/**
 * The lessons' running example: Llama 3.1 8B, one sequence of 2,048 tokens, on a 24 GB RTX 4090, counted as plain
 * PyTorch runs it (the lessons' `<Estimate>` figures pin the same stack). A calculator that carries it spreads it and
 * adds what its lesson changes; the multi-GPU ones move it to eight H100s.
 */
const RUNNING_EXAMPLE = { stack: 'pytorch', model: 'llama-3.1-8b', gpu: 'rtx-4090', 'micro-batch': '1', seq: '2048' } as const;

const MODEL_FIELDS = ['micro-batch', 'seq'] as const;

/** What shapes a training step's peak beyond the techniques: the loop, the optimizer's code, the attention, what is trained. */
const STEP_FIELDS = [
  'optimizer',
  'optimizer-impl',
  'grads',
  'attention',
  'kernels',
  'finetune',
  'lora-rank',
  'lora-targets',
] as const;

/** The scenario words a label is one of. */
type ScenarioLabel = { [K in keyof ScenarioWords]: ScenarioWords[K] extends string ? K : never }[keyof ScenarioWords];

/** Builds "technique off" vs "your settings" from a function that turns the technique off. */
const beforeAfter =
  (beforeLabel: ScenarioLabel, afterLabel: ScenarioLabel, turnOff: (o: EstimateOptions) => EstimateOptions) =>
  (options: EstimateOptions, words: ScenarioWords = ENGINE_EN.scenarios): readonly Scenario[] => [
    { label: words[beforeLabel], options: turnOff(options) },
    { label: words[afterLabel], options },
  ];

/** A calculator that shows the reader's settings alone. */
const yourSettings = (options: EstimateOptions, words: ScenarioWords = ENGINE_EN.scenarios): readonly Scenario[] => [
  { label: words.yourSettings, options },
];

/**
 * Every calculator. Those of lessons 2–8 start on the plain PyTorch stack (`stack: 'pytorch'`): their lessons teach
 * autocast's weight copies and PyTorch's foreach AdamW, and compute their figures with `--stack pytorch`; the reader's
 * answer to "How do you train?" (URL, then storage) replaces it.
 */
export const CALCULATORS: Readonly<Record<CalculatorId, CalculatorSpec>> = {
  breakdown: {
    fields: ['mode', ...MODEL_FIELDS, 'precision', ...STEP_FIELDS, 'weights', 'tokens'],
    // The site's defaults and no stack of its own: the reader's answer to "How do you train?" (the Trainer until they
    // give one), so lesson 1 and the landing page agree.
    defaults: { ...SITE_DEFAULTS },
    scenarios: yourSettings,
  },
  'mixed-precision': {
    fields: [...MODEL_FIELDS, 'precision', 'optimizer', 'recompute'],
    defaults: {
      stack: 'pytorch',
      model: 'gpt2-xl',
      gpu: 'rtx-4090',
      'micro-batch': '4',
      seq: '1024',
      precision: 'amp-bf16',
    },
    scenarios: beforeAfter('fp32', 'yourPrecision', (o) => ({ ...o, precision: 'fp32' })),
  },
  'gradient-accumulation': {
    fields: [...MODEL_FIELDS, 'grad-accum', 'precision', 'recompute', 'finetune'],
    // The course's running example: Llama 3.1 8B at 2,048 tokens on a 24 GB card, where a LoRA fine-tune with
    // checkpointing fits one sequence at a time, so a batch of 16 needs 16 micro-batches.
    defaults: {
      ...RUNNING_EXAMPLE,
      'grad-accum': '16',
      precision: 'bf16',
      recompute: 'full',
      finetune: 'lora',
    },
    scenarios: beforeAfter('wholeBatch', 'microBatches', (o) => ({
      ...o,
      microBatch: (o.microBatch ?? 1) * (o.gradAccum ?? 1),
      gradAccum: 1,
    })),
  },
  'gradient-checkpointing': {
    fields: [...MODEL_FIELDS, 'recompute', 'attention', 'precision', 'finetune', 'lora-rank', 'lora-targets'],
    // The lessons' running example: Llama 3.1 8B with LoRA on one 24 GB card, which fits only with recomputation.
    defaults: {
      ...RUNNING_EXAMPLE,
      recompute: 'full',
      precision: 'bf16',
      finetune: 'lora',
    },
    scenarios: beforeAfter('keepActivations', 'yourRecompute', (o) => ({ ...o, recompute: 'none' })),
  },
  parallelism: {
    fields: [...MODEL_FIELDS, 'dp', 'zero', 'tp', 'sp', 'pp', 'recompute', 'precision'],
    // The course's running example on one server of H100s, as the lesson's ZeRO table shows it.
    defaults: {
      ...RUNNING_EXAMPLE,
      gpu: 'h100-80gb',
      dp: '8',
      zero: '3',
      precision: 'mixed-bf16',
    },
    scenarios: beforeAfter('oneGpu', 'yourParallel', (o) => ({ ...o, dp: 1, zero: 0, tp: 1, pp: 1, sp: false })),
  },
  offload: {
    fields: [...MODEL_FIELDS, 'offload', 'offload-device', 'zero', 'dp', 'precision', 'recompute'],
    defaults: {
      ...RUNNING_EXAMPLE,
      offload: 'optimizer',
      zero: '2',
      precision: 'mixed-bf16',
      recompute: 'full',
    },
    scenarios: beforeAfter('nothingOffloaded', 'yourOffload', (o) => ({ ...o, offload: 'none' })),
  },
  lora: {
    fields: [
      ...MODEL_FIELDS,
      'finetune',
      'lora-rank',
      'lora-targets',
      'lora-dropout',
      'dora',
      'precision',
      'recompute',
      'activation-offload',
      'optimizer',
    ],
    // The course's running example, as PEFT and Trainer(bf16=True) run it: a bf16 base under autocast, checkpointing on
    // in both bars so the comparison isolates what the adapters change.
    defaults: {
      ...RUNNING_EXAMPLE,
      finetune: 'qlora',
      precision: 'amp-bf16',
      recompute: 'full',
    },
    // The adapters' own options mean nothing to a full fine-tune (the engine would ignore them with a warning).
    scenarios: beforeAfter('fullFinetune', 'yourAdapters', (o) => {
      const { loraRank: _rank, loraTargets: _targets, loraDropout: _dropout, dora: _dora, ...rest } = o;
      return { ...rest, finetune: 'full' };
    }),
  },
  inference: {
    fields: ['micro-batch', 'seq', 'tokens', 'weights'],
    // The lessons' running example: Llama 3.1 8B on a 24 GB card, 8 requests whose 2,048-token prompts grow to 8,192.
    defaults: {
      model: 'llama-3.1-8b',
      gpu: 'rtx-4090',
      mode: 'infer',
      'micro-batch': '8',
      seq: '2048',
      tokens: '8192',
      weights: 'awq',
    },
    scenarios: beforeAfter('bf16Weights', 'yourWeights', (o) => ({ ...o, weights: 'bf16' })),
  },
  distillation: {
    fields: [...MODEL_FIELDS, 'teacher', 'teacher-weights', 'precision', 'recompute'],
    defaults: {
      stack: 'pytorch',
      model: 'gpt2',
      gpu: 'rtx-4090',
      teacher: 'gpt2-xl',
      'teacher-weights': 'bf16',
      'micro-batch': '8',
      seq: '1024',
      precision: 'amp-bf16',
    },
    scenarios: beforeAfter('studentAlone', 'studentWithTeacher', (o) => {
      const { teacher: _teacher, teacherWeights: _weights, ...student } = o;
      return student;
    }),
  },
  stack: {
    fields: [...MODEL_FIELDS, 'precision', 'recompute', ...STEP_FIELDS, 'offload', 'zero', 'dp'],
    // The course's running example, a full fine-tune of Llama 3.1 8B on one 24 GB card: the bars walk the last
    // lesson's worked case, where only moving the optimizer to the host makes it fit.
    defaults: {
      ...RUNNING_EXAMPLE,
      precision: 'mixed-bf16',
      recompute: 'full',
      zero: '2',
      offload: 'optimizer',
    },
    // Each bar adds one of the reader's choices to the one before, starting from plain fp32 AdamW.
    scenarios: (o, words = ENGINE_EN.scenarios) => {
      const base: EstimateOptions = {
        ...o,
        precision: 'fp32',
        recompute: 'none',
        optimizer: 'adamw',
        offload: 'none',
        zero: 0,
        dp: 1,
      };
      const steps: Scenario[] = [{ label: words.plainStart, options: base }];
      const add = (label: string, change: EstimateOptions) => {
        const previous = steps[steps.length - 1]?.options ?? base;
        steps.push({ label, options: { ...previous, ...change } });
      };
      if (o.precision && o.precision !== 'fp32') add(words.addPrecision(o.precision), { precision: o.precision });
      if (o.recompute && o.recompute !== 'none') add(words.addRecompute(o.recompute), { recompute: o.recompute });
      if (o.optimizer && o.optimizer !== 'adamw') add(words.addOptimizer(o.optimizer), { optimizer: o.optimizer });
      // On one GPU a ZeRO stage shards nothing, so it is no bar of its own; it comes with the offload, which DeepSpeed
      // runs through its ZeRO optimizer.
      if ((o.dp ?? 1) > 1) add(words.addZero(o.zero ?? 0, o.dp ?? 1), { zero: o.zero ?? 0, dp: o.dp ?? 1 });
      if (o.offload && o.offload !== 'none') add(words.addOffload(o.offload), { offload: o.offload, zero: o.zero ?? 0 });
      // The last bar must be exactly the reader's settings.
      steps[steps.length - 1] = { label: steps[steps.length - 1]?.label ?? words.yourSettings, options: o };
      return steps;
    },
  },
  'rent-cost': {
    fields: [...MODEL_FIELDS, 'precision', 'recompute', 'dp', 'zero'],
    // The running example rented: the 8B fully fine-tuned on one server of eight H100s, sharded with ZeRO-3.
    defaults: {
      ...RUNNING_EXAMPLE,
      gpu: 'h100-80gb',
      precision: 'mixed-bf16',
      dp: '8',
      zero: '3',
    },
    scenarios: yourSettings,
  },
};
