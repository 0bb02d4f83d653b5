/** Benchmark: median time of one full `estimateMemory` breakdown with its step timeline (target < 0.1 ms). */
import { estimateMemory, type EstimateOptions } from '../../src/memory/index.ts';

const CASES: [string, EstimateOptions][] = [
  ['llama-2-7b, ZeRO-3 dp 8, full recompute, h100', { model: 'llama-2-7b', zero: 3, dp: 8, recompute: 'full', gpu: 'h100-80gb' }],
  [
    'llama-3-70b, tp 8 + sp, pp 4, grad-accum 16',
    { model: 'llama-3-70b', tp: 8, sp: true, pp: 4, gradAccum: 16, gpu: 'h100-80gb' },
  ],
  [
    'gpt2 + gpt2-xl teacher, amp-fp16, offload',
    { model: 'gpt2', teacher: 'gpt2-xl', precision: 'amp-fp16', zero: 2, dp: 2, offload: 'optimizer', gpu: 'rtx-4090' },
  ],
  [
    'llama-3-8b QLoRA, amp-bf16, rtx-4090',
    { model: 'llama-3-8b', finetune: 'qlora', precision: 'amp-bf16', seq: 2048, gpu: 'rtx-4090' },
  ],
  ['mistral-7b inference, nf4, 32k tokens', { model: 'mistral-7b', mode: 'infer', weights: 'nf4', tokens: 32768, gpu: 'l4' }],
  ['demo-mlp, fp32, full recompute', { model: 'demo-mlp', precision: 'fp32', recompute: 'full' }],
];

const TARGET_MS = 0.1;

function medianMs(options: EstimateOptions, rounds = 31, perRound = 200): number {
  for (let i = 0; i < 500; i++) estimateMemory(options); // warm up the JIT
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < perRound; i++) estimateMemory(options);
    samples.push((performance.now() - start) / perRound);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}

/** Print a table of median times per full breakdown. */
export default async function bench(): Promise<void> {
  const rows = CASES.map(([name, options]) => {
    const outcome = estimateMemory(options);
    if (!outcome.ok) throw new Error(`bench case ${name} is invalid: ${JSON.stringify(outcome.errors)}`);
    return { name, ms: medianMs(options) };
  });
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`memory: estimateMemory, median per full breakdown (target < ${TARGET_MS} ms)`);
  for (const { name, ms } of rows) {
    console.log(`  ${name.padEnd(width)}  ${ms.toFixed(4).padStart(8)} ms  ${ms < TARGET_MS ? 'ok' : 'SLOW'}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await bench();
