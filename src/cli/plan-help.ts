/** `plan --help`, generated from the planner's and the engine's flag vocabularies. */
import { FLAGS, GPU_PRESETS, MODEL_PRESETS } from '../memory/index.ts';
import { EXAMPLE_PRICES_DATE, FIXED_ESTIMATE_FLAGS, PLAN_FLAG_SPECS } from '../planner/index.ts';

const flagLine = (name: string, placeholder: string, help: string) =>
  `${`  --${name}${placeholder === '' ? '' : ` ${placeholder}`}`.padEnd(46)} ${help}`;

/** Help text for the plan CLI. */
export function planHelp(): string {
  const fixed = FLAGS.filter((spec) => FIXED_ESTIMATE_FLAGS.includes(spec.flag));
  return [
    'Usage: npm run --silent plan -- --model ID --gpu ID --gpus N --global-batch N [flags]',
    '',
    'Will it fit? Tries every combination of precision, attention, recompute, micro-batch × accumulation,',
    'ZeRO stage, offload, tensor/pipeline/data-parallel layout and optimizer on your GPUs (and on GPUs you',
    'could rent), keeps those the memory engine says fit with the free margin, and ranks them by step time',
    'or cost. Sizes in GiB (2^30 bytes). The same flags work as a URL query on the planner page.',
    '',
    'The model and the fixed settings (the flags of `estimate`):',
    ...fixed.map((spec) => flagLine(spec.flag, spec.placeholder, spec.help)),
    '',
    'Planner flags:',
    ...PLAN_FLAG_SPECS.map((spec) => flagLine(spec.name, spec.placeholder, spec.help)),
    flagLine('top', 'N', 'plans listed in the table (default 10; --json lists all)'),
    flagLine('json', '', 'print exactly one JSON object (bytes as integers)'),
    flagLine('help', '', 'show this help (also -h)'),
    '',
    `Example prices (${EXAMPLE_PRICES_DATE}, US dollars per GPU-hour) are examples: replace them with --price.`,
    `Models: ${MODEL_PRESETS.map((p) => p.id).join(', ')}`,
    `GPUs:   ${GPU_PRESETS.map((g) => g.id).join(', ')}`,
    '',
    'Examples:',
    '  npm run --silent plan -- --model gpt2-xl --gpu rtx-4090 --global-batch 4 --seq 512 --task finetune',
    '  npm run --silent plan -- --model llama-2-7b --gpu a100-80gb --gpus 8 --global-batch 64 --seq 4096 --rank-by step-cost',
    '  npm run --silent plan -- --model llama-3-70b --gpu rtx-4090 --global-batch 8 --seq 4096 --no-rent --json',
    '',
    'Exit codes: 0 ok (also when nothing fits: the shortfall is printed), 2 bad flag or value (one line on stderr).',
    '',
  ].join('\n');
}
