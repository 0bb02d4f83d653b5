/**
 * Benchmark: median time of one full planner search (target < 50 ms, the budget for the
 * page). The largest case is the most GPUs and the largest model of the presets a reader is likely
 * to plan for; each case is timed on the reader's GPUs alone and with the GPUs offered for rent.
 */
import { EXAMPLE_PRICES, parsePlanFlags, planTraining, type RawPlanFlags } from '../../src/planner/index.ts';

const CASES: [string, RawPlanFlags][] = [
  [
    'lesson 8: gpt2-xl, 1 × rtx-4090, batch 4 × 512',
    { model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', seq: '512', task: 'finetune' },
  ],
  [
    'llama-2-7b, 8 × a100-80gb, batch 64 × 4096',
    { model: 'llama-2-7b', gpu: 'a100-80gb', gpus: '8', 'global-batch': '64', seq: '4096' },
  ],
  [
    'largest: llama-3-70b, 64 × h100-80gb, batch 512 × 4096',
    { model: 'llama-3-70b', gpu: 'h100-80gb', gpus: '64', 'global-batch': '512', seq: '4096' },
  ],
];

const TARGET_MS = 50;

function medianMs(raw: RawPlanFlags, rounds: number): { ms: number; plans: number; evaluations: number } {
  const parsed = parsePlanFlags(raw, EXAMPLE_PRICES);
  if (!parsed.ok) throw new Error(`bench case is invalid: ${JSON.stringify(parsed.errors)}`);
  const first = planTraining(parsed.request); // warm up the JIT
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    planTraining(parsed.request);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return {
    ms: samples[Math.floor(samples.length / 2)] ?? Number.NaN,
    plans: first.plans.length,
    evaluations: first.searches.reduce((sum, s) => sum + s.evaluations, 0),
  };
}

/** Print a table of median times per search. */
export default async function bench(): Promise<void> {
  console.log(`planner: planTraining, median per search (target < ${TARGET_MS} ms on the reader's GPUs)`);
  for (const [name, raw] of CASES) {
    for (const rent of [false, true]) {
      const { ms, plans, evaluations } = medianMs({ ...raw, ...(rent ? {} : { 'no-rent': true }) }, 7);
      const label = `${name}${rent ? ' + rent' : ''}`;
      console.log(
        `  ${label.padEnd(66)} ${ms.toFixed(1).padStart(8)} ms  ${String(evaluations).padStart(6)} estimates  ${String(plans).padStart(6)} plans  ${ms < TARGET_MS ? 'ok' : 'SLOW'}`,
      );
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await bench();
