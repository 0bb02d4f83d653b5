import {
  FLAGS,
  STACK_SPECS,
  STACKS,
  RULE_WORDS,
  WARNING_WORDS,
  type ShownFieldError,
  type LineDevice,
  type MemoryLine,
  type Stack,
  type RuleWords,
  type WarningWords,
} from '../../../memory/index';

/** A flag as a form field shows it: its label, its hint, its unit and its default in words, where it has them. */
export interface FlagWords {
  readonly label: string;
  readonly help: string;
  readonly unit?: string;
  readonly default?: string;
}

/**
 * The memory engine's words where the calculators show them (src/components/calculators, the landing widget). The
 * engine keeps its English where the CLI prints it (the flag table, each breakdown line's label, the errors' messages);
 * this catalogue reads them from there, so English has one source, and gives the page the same things by id, which is
 * how another language's catalogue words them.
 */
export const ENGINE_EN = {
  /** Each estimate flag by its name: the flag table's own words. */
  flags: Object.fromEntries(
    FLAGS.map((flag) => [
      flag.flag,
      {
        label: flag.label,
        help: flag.help,
        ...(flag.unit === undefined ? {} : { unit: flag.unit }),
        ...(flag.default === undefined ? {} : { default: flag.default }),
      },
    ]),
  ) as Readonly<Record<string, FlagWords>>,
  /** Each training stack's name in the "How do you train?" choice. */
  stacks: Object.fromEntries(STACKS.map((stack) => [stack, STACK_SPECS[stack].label])) as Readonly<Record<Stack, string>>,
  /** A breakdown line: in English the engine's own label, which carries the numbers that produced it. */
  lineLabel: (line: MemoryLine): string => line.label,
  /** Before the size of a line that does not live on the GPU. */
  device: { gpu: '', cpu: 'cpu: ', nvme: 'nvme: ' } satisfies Record<LineDevice, string>,
  /** A field's error: the engine's English message (or the page's words, for one worded above the engine). */
  fieldError: (error: ShownFieldError): string => error.message,
  /** Each estimate warning by its code (`wordNotice` words a notice with them): the engine's own English. */
  warnings: WARNING_WORDS as WarningWords,
  /** Each field error's rule by its code (a field error's `problem` carries it): the engine's own English. */
  rules: RULE_WORDS as RuleWords,
  /** What the step-time estimate assumes: the engine's sentences. */
  stepTimeAssumptions: (assumptions: readonly string[]): string => assumptions.join('; '),
  /** The bars a calculator compares (src/components/calculators/specs.ts). */
  scenarios: {
    yourSettings: 'your settings',
    fp32: 'fp32',
    yourPrecision: 'your precision',
    wholeBatch: 'whole batch at once',
    microBatches: 'micro-batches',
    keepActivations: 'keep all activations',
    yourRecompute: 'your recompute',
    oneGpu: 'one GPU',
    yourParallel: 'your parallel layout',
    nothingOffloaded: 'nothing offloaded',
    yourOffload: 'your offload',
    fullFinetune: 'full fine-tune',
    yourAdapters: 'your adapters',
    bf16Weights: 'bf16 weights',
    yourWeights: 'your weights',
    studentAlone: 'student alone',
    studentWithTeacher: 'student + frozen teacher',
    /** The stack calculator's first bar, and the choices each next bar adds. */
    plainStart: 'fp32, AdamW',
    addPrecision: (precision: string): string => `+ ${precision}`,
    addRecompute: (recompute: string): string => `+ ${recompute} recompute`,
    addOptimizer: (optimizer: string): string => `+ ${optimizer}`,
    addZero: (stage: number, gpus: number): string => `+ ZeRO-${stage} on ${gpus} GPUs`,
    addOffload: (what: string): string => `+ offload ${what}`,
  },
};

/** The words of the scenarios, which specs.ts builds its bars' labels from. */
export type ScenarioWords = (typeof ENGINE_EN)['scenarios'];
