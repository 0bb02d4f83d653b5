/** `estimate --help`, generated from the shared flag vocabulary. */
import { FLAG_ALIASES, FLAGS, GPU_PRESETS, MODEL_PRESETS } from '../memory/index.ts';

/** Help text for the estimate CLI. */
export function estimateHelp(): string {
  const flagLines = FLAGS.map((spec) => {
    const head = `  --${spec.flag}${spec.placeholder === '' ? '' : ` ${spec.placeholder}`}`;
    return `${head.padEnd(46)} ${spec.help}${spec.default === undefined ? '' : ` (default ${spec.default})`}`;
  });
  const aliasLines = FLAG_ALIASES.map((alias) => `${`  --${alias.flag}`.padEnd(46)} ${alias.help}`);
  return [
    'Usage: npm run --silent estimate -- [flags]',
    '',
    'Estimate GPU memory for training or inference: a breakdown in GiB (2^30 bytes) and GB (10^9 bytes),',
    'per-GPU totals, whether it fits a GPU with a free margin, warnings and a step-time estimate.',
    'The same flags work as a URL query on the site (?model=llama-2-7b&zero=3&dp=8).',
    '',
    'Flags:',
    ...flagLines,
    ...aliasLines,
    `${'  --json'.padEnd(46)} print exactly one JSON object (bytes as integers)`,
    `${'  --sources'.padEnd(46)} print the source of every line in the table`,
    `${'  -h, --help'.padEnd(46)} show this help`,
    '',
    `Models: ${MODEL_PRESETS.map((p) => p.id).join(', ')}`,
    `GPUs:   ${GPU_PRESETS.map((g) => g.id).join(', ')}`,
    '',
    'Examples:',
    '  npm run --silent estimate -- --model llama-2-7b --gpu a100-80gb --zero 3 --dp 8',
    '  npm run --silent estimate -- --model gpt2 --micro-batch 8 --recompute full --gpu rtx-4090',
    '  npm run --silent estimate -- --arch llama --hidden 2048 --layers 16 --heads 16 --kv-heads 4 --json',
    '  npm run --silent estimate -- --params 7.5b --precision mixed-fp16 --dp 64 --zero 2',
    '  npm run --silent estimate -- --model mistral-7b --mode infer --weights awq --tokens 32768 --gpu l4',
    '',
    'Exit codes: 0 ok, 2 bad flag or value (one line on stderr naming it).',
    '',
  ].join('\n');
}
