import { formatGiB } from '../../base/bytes';
import { LESSONS, type LessonSlug } from '../../base/lessons';
import type { LineCategory, MomentId, Phase } from '../../memory/index';
import { DIAGNOSE_EN } from './diagnose/en';
import { LAB_EN } from './lab/en';
import { ENGINE_EN } from './engine/en';
import { MODEL_SOURCE_ERRORS_EN } from './model-source/en';
import { DIFFUSION_EN } from './diffusion/en';
import { PLANNER_EN } from './planner/en';
import { TRAINING_CONFIG_EN } from './training-config/en';

/**
 * The English catalogue: every user-visible string of the widgets converted so far, and the site's words for
 * Starlight's interface. Its shape is `Messages`; each other language's catalogue is typed by it, so a key missing
 * there (or one it adds) fails the typecheck, and tests/unit/i18n/messages.test.ts says which.
 */
export const EN = {
  /** Starlight's interface, under Starlight's keys (its `i18n` schema), read through src/content.config.ts. */
  ui: {
    'search.devWarning': 'Search is built with the site: it works after `npm run build`, under `npm run preview`.',
    'pagefind.zero_results': 'No results for [SEARCH_TERM]',
  },
  /** How a size prints in prose and labels: the unit stays GiB in every language, the number follows the locale. */
  format: {
    gib: (bytes: number, digits?: number): string => formatGiB(bytes, digits),
    /** A plain number with `digits` decimals (a price, hours). */
    number: (value: number, digits: number): string => value.toFixed(digits),
  },
  /** Plain words for each part of one GPU's memory, shared by every widget that names them. */
  memoryParts: {
    weights: 'weights',
    gradients: 'gradients',
    optimizer: 'optimizer states',
    activations: 'activations',
    kvCache: 'KV cache',
    overhead: 'CUDA context & workspace',
  } satisfies Record<LineCategory, string>,
  /** The moments of one step, as the timeline chart names them. */
  moments: {
    forward: 'forward',
    'forward-accumulating': 'later forward',
    'backward-start': 'loss backward',
    'backward-top': 'last layer backward',
    'backward-first-segment': 'first segment rebuilt',
    'backward-end': 'backward end',
    optimizer: 'optimizer step',
    prefill: 'prefill',
    decode: 'decode',
  } satisfies Record<MomentId, string>,
  /**
   * The phases of a step, where a lesson's figure names the one the peak falls in (Estimate.astro, `show="peakPhase"`).
   * The English words are the engine's own ids, which the English lessons were written around.
   */
  phases: {
    forward: 'forward',
    backward: 'backward',
    optimizer: 'optimizer',
    prefill: 'prefill',
    decode: 'decode',
  } satisfies Record<Phase, string>,
  /** Each lesson's title where a widget links it: the registry's (src/base/lessons.ts) in English. */
  lessonTitles: Object.fromEntries(LESSONS.map((lesson) => [lesson.slug, lesson.title])) as Record<LessonSlug, string>,
  /** A lesson's own components (src/components/lesson). */
  lesson: {
    /** The title of the box a lesson opens with (WhatToDo.astro). */
    whatToDo: 'What to do',
  },
  /** The model picker (src/components/model-source): a preset, a pasted config.json or a Hugging Face id. */
  modelSource: {
    /** The name of a model read from a config.json: its Hugging Face id, or for a file pasted or dropped, the file. */
    loadedName: (hubId: string | null): string => hubId ?? 'Your config.json',
    /** The select's entry for the model read from a config.json. */
    loadedOption: (hubId: string | null): string => (hubId === null ? 'Your config.json' : `${hubId} (config.json)`),
    /** A parameter count for people: "8.19 B", "124.4 M". */
    parameterCount: (count: number): string => (count >= 1e9 ? `${(count / 1e9).toFixed(2)} B` : `${(count / 1e6).toFixed(1)} M`),
    /** The line next to the model: its name, parameter counts and architecture family, as the engine computed them. */
    modelParams: (name: string, count: string, active: string | null, family: string | null): string =>
      `${name} · ${count} parameters${active === null ? '' : `, ${active} active per token`}${family === null ? '' : ` (${family})`}`,
    otherModel: 'Another model: paste its config.json, or load it from the Hugging Face Hub',
    paste: {
      label: 'config.json (paste it, or drop the file here)',
      placeholder: '{ "model_type": "qwen3", "hidden_size": 4096, … }',
      use: 'Use this config.json',
      file: 'Or choose the file',
      note: 'Read in this browser; nothing is uploaded.',
    },
    hub: {
      id: 'Hugging Face Hub id',
      placeholder: 'Qwen/Qwen3-8B',
      host: 'Fetch from',
      hosts: { huggingface: 'huggingface.co (the Hub)', 'hf-mirror': 'hf-mirror.com (a mirror, reachable from China)' },
      load: (host: string): string => `Load config.json from ${host}`,
      note: (host: string): string =>
        `Only this button sends a request: to ${host}, for the model's config.json and nothing else. The page asks no other host.`,
      fetching: (url: string, received: string): string => `Fetching ${url}… ${received} received`,
      loaded: (name: string): string => `Loaded ${name}.`,
    },
  },
  /** The memory calculators (src/components/calculators). */
  calculator: {
    groups: { model: 'Model', workload: 'Workload', technique: 'Technique', hardware: 'Hardware' },
    model: 'Model',
    custom: 'Custom…',
    /** The computed model's name: the preset, or a custom shape and the preset it is based on. */
    modelName: (preset: string | null, custom: boolean): string =>
      preset === null ? 'Custom shape' : custom ? `Custom shape from ${preset}` : preset,
    gpu: 'GPU',
    stackQuestion: 'How do you train?',
    stackAssumes: (label: string, version: string): string => `Assumes ${label} (${version}), which set`,
    stackSetNothing: 'nothing you left out',
    stackNotModelled: 'It also does what this estimate does not count yet:',
    /** A select's empty choice when the training stack decides the value. */
    stackDefaultOption: (value: string): string => `(stack's default: ${value})`,
    noGpu: '(no GPU: skip the fit check)',
    defaultOption: (value: string | undefined): string => (value === undefined ? '(default)' : `(default: ${value})`),
    defaultPlaceholder: (value: string | undefined): string => (value === undefined ? 'default' : `default: ${value}`),
    /** After a changed flag, the engine's default it replaced. */
    changedFrom: (value: string): string => `(default ${value})`,
    /** A number field's label with its unit. */
    withUnit: (label: string, unit: string): string => `${label} (${unit})`,
    ariaLabel: 'Memory calculator',
    fits: (gpu: string, spare: string): string => `Fits on the ${gpu}, with ${spare} to spare after the free margin`,
    overBy: (gpu: string, over: string): string => `Does not fit on the ${gpu}: ${over} over, counting the free margin`,
    insideMargin: (gpu: string, used: string): string =>
      `Fits on the ${gpu}, but not its free margin: ${used} of the margin used. It can run, with less room against fragmentation than advised`,
    pickGpu: 'Pick a GPU to check the fit',
    peakAt: (peak: string, moment: string): string => `Peak ${peak} per GPU, at ${moment}`,
    dominant: (category: string, share: number): string => `${category} ${share}% of it`,
    sumOfParts: (sum: string): string => `Sum of parts ${sum}:`,
    sumWhy: 'the peak is lower because gradients, activations and the optimizer’s temporaries are never all alive at once.',
    sumSame: 'here every part is alive at the peak, so the peak is the sum.',
    staleNote: 'Fix the highlighted field: the result below is for the last valid settings.',
    changedDefaults: 'Set here, unlike the engine’s defaults:',
    scenario: 'Scenario',
    peakColumn: 'Peak per GPU',
    hostColumn: 'Host RAM per GPU',
    fitsColumn: 'Fits?',
    yes: 'yes',
    shortBy: (short: string): string => `no, ${short} short`,
    saves: (percent: number): string => `Saves ${percent}% per GPU`,
    needsMore: (percent: number): string => `Needs ${percent}% more per GPU`,
    noChange: 'No change per GPU',
    stepTime: (seconds: string, assumptions: string): string =>
      `; estimated step time ${seconds}, in brackets the range where 8 in 10 published runs measured theirs (an estimate: ${assumptions})`,
    /** Ends the sentence `saves`/`needsMore`/`noChange` (and `stepTime`) start. */
    sentenceEnd: '.',
    headroom: (percent: number, bytes: string): string =>
      `The dashed line keeps ${percent}% of the GPU free (${bytes}) for fragmentation and temporary buffers: plan to stay below it.`,
    sources: 'Where each number comes from',
    terminal: 'In a terminal:',
    terminalWithConfig: 'In a terminal, with the model’s config.json saved as config.json:',
    copyCommand: 'Copy as command',
    copiedCommand: 'Copied',
    timelineTitle: 'One step, moment by moment',
    timelineCaption:
      'Memory alive on one GPU at each moment of the step, in the order they happen, by part. The solid line is the GPU’s memory, the dashed one the free margin.',
    timelineAxis: 'GiB alive per GPU',
    compareTitle: 'Before and after, at each one’s peak',
    compareAxis: 'GiB per GPU at the peak',
    peakMark: 'peak',
    /** What renting the configuration costs (RentCost.tsx), from prices the reader types in. */
    rent: {
      heading: 'Renting it',
      price: 'Price per GPU-hour (your currency)',
      hours: 'Hours of training',
      spotDiscount: 'Spot discount (%)',
      restartOverhead: 'Spot: extra time lost to preemptions (%)',
      gpus: (gpus: number, gpu: string): string => `${gpus} GPU${gpus === 1 ? '' : 's'} (${gpu})`,
      noGpu: 'pick a GPU above',
      doesNotFit: ', but this configuration does not fit them',
      onDemand: ': on demand ',
      spot: '; spot with checkpoint-and-resume ',
      spotHours: (hours: string): string => ` (${hours} h of GPU time each, preemptions included).`,
      /** A field's error, by field (rental-cost.ts): each field has one range. */
      invalid: {
        pricePerGpuHour: 'Enter a price of 0 or more.',
        hours: 'Enter a number of hours above 0.',
        spotDiscountPercent: 'Enter a discount from 0 to 99%.',
        restartOverheadPercent: 'Enter an overhead from 0 to 1000%.',
      },
    },
    /** Per-GPU memory against the number of data-parallel GPUs (ScalingChart.tsx). */
    scaling: {
      stage: (stage: number): string => (stage === 0 ? 'DDP (ZeRO-0)' : `ZeRO-${stage}`),
      xAxis: 'data-parallel GPUs',
      yAxis: 'per-GPU memory (GB)',
      description: 'Per-GPU memory against the number of data-parallel GPUs for each ZeRO stage',
      caption:
        'The same model and batch on 1 to 1024 GPUs: plain data parallelism (DDP) never divides the model states; ZeRO-1, 2 and 3 divide more of them as GPUs are added (ZeRO, arXiv 1910.02054, Figure 1). The dashed line is the selected GPU’s memory.',
    },
  },
  /** The four diagnose tools (src/components/diagnose). */
  diagnose: DIAGNOSE_EN,
  /** The landing page's first look (src/components/landing). */
  willItFit: {
    title: 'Will it fit?',
    model: 'Model',
    gpu: 'GPU',
    gpus: 'How many',
    gpuCount: (n: number): string => (n === 1 ? '1 GPU' : `${n} GPUs`),
    job: 'Job',
    jobs: { full: 'full fine-tune', lora: 'LoRA', qlora: 'QLoRA', infer: 'inference' },
    fits: 'Fits',
    doesNotFit: 'Does not fit',
    /** Between the verdict and its margin ("Fits: 3.1 GiB to spare"). */
    verdictSeparator: ': ',
    spare: (bytes: string): string => `${bytes} to spare`,
    over: (bytes: string): string => `${bytes} over`,
    /** `capacity`: one GPU's memory. */
    needs: (total: string, capacity: string, percent: number): string =>
      ` — needs ${total} per GPU of ${capacity}, keeping ${percent}% free against fragmentation.`,
    largest: 'Largest part: ',
    share: (bytes: string, percent: number): string => `, ${bytes} (${percent}% of the total); `,
    remedies: (gpus: number): string => (gpus === 1 ? 'on one GPU, read: ' : `on ${gpus} GPUs, read: `),
    /** Between two lesson links in the list of remedies. */
    listSeparator: ', ',
    /** A remedy's link: the lesson's title, and the technique of it to read when it teaches several. */
    remedy: (lesson: string, technique: string | undefined): string =>
      technique === undefined ? lesson : `${lesson} (${technique})`,
    techniques: {
      quantizedWeights: 'QLoRA, quantized weights',
      lora: 'LoRA',
      optimizerToCpu: 'optimizer states to CPU',
      zero3: 'ZeRO-3 / FSDP',
      zero2: 'ZeRO-2',
      zero: 'ZeRO',
    },
    refused: 'The memory engine cannot estimate this combination.',
    defaults: 'One sequence of 2,048 tokens per GPU, every other setting the stack’s default; the same in a terminal:',
    defaultsWithConfig:
      'One sequence of 2,048 tokens per GPU, every other setting the stack’s default; the same in a terminal, with the model’s config.json saved as config.json:',
    calculator: 'Change any setting in the full calculator',
  },
  lab: LAB_EN,
  diffusion: DIFFUSION_EN,
  engine: ENGINE_EN,
  modelSourceErrors: MODEL_SOURCE_ERRORS_EN,
  planner: PLANNER_EN,
  trainingConfig: TRAINING_CONFIG_EN,
};

/** The shape of every language's catalogue. */
export type Messages = typeof EN;
