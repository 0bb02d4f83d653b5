import { PLANNER_WORDS } from '../../../planner/messages';

/** What a field's label is made of: a flag's definition (its English words). */
interface FieldWords {
  readonly flag: string;
  readonly label: string;
  readonly unit?: string | undefined;
}

/**
 * The planner island's words (src/components/planner): every sentence the planner page shows besides the planner's own
 * labels of its choices and reasons (src/planner/messages.ts).
 */
export const PLANNER_EN = {
  /** The search's words (src/planner/messages.ts): the plans' choices and why combinations were left out. */
  search: PLANNER_WORDS,
  ariaLabel: 'Training memory planner',
  fields: {
    model: 'Model',
    gpu: 'Your GPU',
    rent: 'Compare renting the GPUs with a price below',
    allowLossy: 'Pre-training: also try pure 16-bit weights and 8-bit AdamW, which change the training numerics',
  },
  /**
   * A field's label: the flag definition's words (plan-flags.ts and the engine's flags, which the CLI's help prints),
   * its unit, its flag (`Global batch, sequences per step (global-batch)`).
   */
  fieldLabel: (field: FieldWords) => `${field.label}${field.unit === undefined ? '' : `, ${field.unit}`} (${field.flag})`,
  optional: 'optional',
  tasks: { pretrain: 'pre-training', finetune: 'fine-tuning (full, LoRA or QLoRA)' },
  rankings: { time: 'step time', 'step-cost': 'cost per step', 'epoch-cost': 'cost per epoch' },
  tiers: PLANNER_WORDS.run.tiers,
  prices: {
    heading: 'GPU prices per hour',
    /** Before the prices' source, which is cited as published (in English on every page). */
    note: (date: string) =>
      `Example prices in US dollars as of ${date}, not quotes: type your provider’s. A GPU with empty prices is not offered for rent. Source: `,
    gpu: 'GPU',
    partRow: 'give all three prices, or none (then this GPU is not offered for rent)',
    unread: 'Not used from the link: ',
    unknownGpu: (gpu: string, text: string) => `unknown gpu '${gpu}' in price '${text}'`,
    unreadable: (text: string) => `could not read price '${text}'`,
  },
  searching: 'Searching…',
  terminal: 'The same search in a terminal:',
  terminalWithConfig: 'The same search in a terminal, with the model’s config.json saved as config.json:',
  copyCommand: 'Copy as command',
  copiedCommand: 'Copied',
  searchFailed: 'The search failed: ',
  /** After searchFailed, when the browser gave no reason for the worker's end. */
  workerCrashed: 'the planner worker crashed',
  summary: (own: number, rented: number, combinations: number, estimates: number, ms: number) =>
    `${own} plan${own === 1 ? '' : 's'} fit your GPUs${rented > 0 ? `, ${rented} more on rented GPUs` : ''}. Searched ${combinations.toLocaleString('en')} combinations with ${estimates.toLocaleString('en')} engine estimates in ${ms.toFixed(0)} ms (measured in this browser).`,
  estimateNote:
    'Step times and costs are estimates from the memory engine’s step-time model, shown with its measured error band (8 in 10 published runs fall inside it); every plan fits with the free margin by the engine’s count.',
  table: {
    rank: '#',
    details: 'Details',
    hardware: 'GPUs',
    techniques: 'Techniques',
    perGpu: 'Per GPU',
    step: 'Step',
    cost: 'Cost',
    run: 'Whole run',
    link: 'Link',
  },
  rent: 'rent',
  noPrice: 'no price',
  perStep: '/step',
  perEpoch: '/epoch',
  show: 'show',
  hide: 'hide',
  share: 'share',
  showMore: (n: number) => `Show ${n} more`,
  /** The button that lists a group's other members. */
  groupMembers: (n: number, open: boolean) =>
    `${open ? 'Hide' : 'Show'} ${n} more plan${n === 1 ? '' : 's'} within the step-time band`,
  /** What a group's members differ in. */
  groupDifferences: (differences: readonly string[]) =>
    differences.length === 0 ? '' : `They differ in ${differences.join('; ')}.`,
  /** Dimension ids as a group's differences name them. */
  dimensionNames: {
    hardware: 'GPUs',
    layout: 'layout',
    finetune: 'what is trained',
    offload: 'offload',
    zero: 'ZeRO',
    precision: 'precision',
    recompute: 'recompute',
    attention: 'attention',
    optimizer: 'optimizer',
    'micro-batch': 'micro-batch',
  } as Readonly<Record<string, string>>,
  groupsNote: (ratio: string) =>
    `Plans whose step times lie within ×${ratio} of each other (the step-time model’s error band) are one row, led by the simplest: fewer techniques, a shallower pipeline, less offload.`,
  byDefault: (what: string) => `(default: ${what})`,
  notAChoice: (value: string) => `${value} (not a choice)`,
  /** The headings of the two lists of plans: the reader's GPUs first, the rented GPUs below. */
  sections: {
    own: (hardware: string) => `On your GPUs: ${hardware}`,
    rented: 'On rented GPUs (as many as yours), for comparison',
  },
  shared: {
    heading: 'The plan in this link',
    missing: 'The plan in this link does not fit with these settings (or is not among the plans any more).',
  },
  nothingFits: 'Nothing fits on your GPUs.',
  shortfall: (gap: string, what: string) => `The smallest gap is ${gap} of ${what}, with this combination:`,
  gpuMemory: 'GPU memory',
  hostMemory: 'host RAM',
  gpuAndHostMemory: 'GPU memory and host RAM over the limit',
  wouldFit: 'It would fit on:',
  wouldFitNone: 'No GPU preset or number of GPUs tried would make it fit.',
  rejected: 'Why the other combinations do not fit',
  notTried: 'Combinations not tried, and why',
  closest: (gap: string) => `closest: ${gap} short`,
  /** The breakdown's rows besides the memory parts (`memoryParts`). */
  breakdown: {
    total: 'total per GPU',
    host: 'host RAM on the machine',
  },
  timeHeading: 'Step time (estimate)',
  /** A plan's whole run of the token budget (`train-tokens`). */
  runHeading: 'Whole run of the tokens to train (estimate, with the step’s band)',
  /** Where the step time's band comes from. */
  bandNote: (source: string) => `band: ${source}`,
  timelineLoading: 'Drawing the step timeline…',
  timelineFailed: 'The step timeline could not be loaded; reload the page to try again.',
  lessonsHeading: 'Lessons it uses',
  noLessons: 'none: the plain configuration fits',
  estimateCommand: 'Reproduce it in a terminal:',
  changesNumerics: 'changes the training numerics',
  numericsNote:
    'This plan changes the training numerics: pure 16-bit weights round every update to 16 bits (no fp32 master copy), and 8-bit AdamW keeps its moments quantized block-wise. Pre-training runs keep fp32 master weights and 32-bit AdamW; check the loss against such a run before relying on it.',
  finetuneNote: 'This plan trains every weight (full fine-tuning).',
  adapterNote:
    'This plan changes what is trained: the base weights stay frozen (in 4-bit NF4 with QLoRA) and only the rank-16 LoRA adapters on every Linear layer learn, which can reach a different quality than full fine-tuning.',
  /** A count of combinations, with its thousands grouped. */
  count: (n: number) => n.toLocaleString('en'),
  /** Between the planner's list items (GPUs a plan would fit on, a plan's lessons). */
  listSeparator: ', ',
  /** After a heading that a line's text follows ("Step time (estimate): …"). */
  colon: ': ',
};
