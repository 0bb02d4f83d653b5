/**
 * The Hugging Face performance docs' measurements, against the engine: "Efficient Training on a Single GPU"
 * (huggingface/transformers docs/source/en/perf_train_gpu_one.mdx @98513df), nine Trainer runs of bert-large-uncased
 * for sequence classification on a V100 16GB, 512 sequences of 512 tokens, January 2022 (the nvidia-smi capture's
 * date), each printed as `GPU memory occupied: N MB` after `trainer.train()`.
 *
 * What was measured: `nvmlDeviceGetMemoryInfo(handle).used // 1024**2`, so N is MiB (the doc writes MB) of the whole
 * device: the CUDA context (the doc measures it first: 1343 MiB after one tiny tensor) plus what PyTorch's caching
 * allocator holds after training, which is at least the step's allocated peak and more by its reserve. So each test
 * compares the engine's allocated peak (its total without its own CUDA-context line) plus the doc's 1343 MiB with N.
 *
 * The run, as the doc's code and its date fix it: transformers 4.16's Trainer, whose default optimizer then was its own
 * AdamW (`adamw_hf`, first in the doc's `--optim` list: a loop over parameters, fp32 moments); fp32 weights, or
 * `fp16=True` as torch.amp autocast over them; eager attention with BERT's dropout (0.1) active in training. The doc's
 * model is `AutoModelForSequenceClassification` with two labels (`--num-labels 2`: a 2-way classifier, no vocabulary
 * logits). That Trainer clears gradients with `model.zero_grad()` (trainer.py's training loop), and before PyTorch 2.0
 * `Module.zero_grad` defaulted to `set_to_none=False`, so the gradients stay allocated, zeroed, between steps
 * (`--grads keep`).
 * bert-large-uncased is BERT base's architecture at hidden 1024, 24 layers, 16 heads, FFN 4096 (its config.json).
 * Every option is passed explicitly, the stack included.
 */
import { describe, expect, test } from 'vitest';
import type { EstimateOptions } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

const MIB = 2 ** 20;

/** The doc's own measurement of the CUDA context on its V100: `torch.ones((1, 1)).to("cuda")` → 1343 MiB. */
const DOC_CONTEXT_MIB = 1343;

/**
 * The engine counts what is allocated and nvidia-smi shows what is reserved, plus the context the doc measured once: the
 * engine may exceed nvidia-smi only by the rounding of that context figure and of the classifier's head, 2 %.
 */
const UPPER = 1.02;

const bertLarge: EstimateOptions = {
  model: 'bert-base-uncased',
  hidden: 1024,
  layers: 24,
  heads: 16,
  ffn: 4096,
  seq: 512,
  gpu: 'v100-16gb',
  stack: 'pytorch',
  finetune: 'full',
  attention: 'eager',
  kernels: 'eager',
  loss: 'eager',
  dropout: true,
  optimizerImpl: 'for-loop',
  zero: 0,
  dp: 1,
  numLabels: 2,
  grads: 'keep',
};

/** One of the doc's runs: its `TrainingArguments` as engine options, and the MiB it printed. */
interface Run {
  readonly row: string;
  readonly options: EstimateOptions;
  readonly measuredMiB: number;
}

const plain = { microBatch: 4, gradAccum: 1, recompute: 'none', precision: 'fp32' } as const;
const combined = { microBatch: 1, gradAccum: 4, recompute: 'full', precision: 'amp-fp16' } as const;

const RUNS: readonly Run[] = [
  { row: 'Vanilla Training, batch 4', options: { ...plain, optimizer: 'adamw' }, measuredMiB: 14949 },
  {
    row: 'Gradient Accumulation, batch 1 × 4',
    options: { ...plain, microBatch: 1, gradAccum: 4, optimizer: 'adamw' },
    measuredMiB: 8681,
  },
  {
    row: 'Gradient Checkpointing, batch 1 × 4',
    options: { ...plain, microBatch: 1, gradAccum: 4, recompute: 'full', optimizer: 'adamw' },
    measuredMiB: 6775,
  },
  { row: 'FP16 Training, batch 4', options: { ...plain, precision: 'amp-fp16', optimizer: 'adamw' }, measuredMiB: 13939 },
  { row: 'FP16 + accumulation + checkpointing', options: { ...combined, optimizer: 'adamw' }, measuredMiB: 7275 },
  { row: 'Adafactor, batch 4', options: { ...plain, optimizer: 'adafactor' }, measuredMiB: 12295 },
  { row: 'Adafactor + FP16 + accumulation + checkpointing', options: { ...combined, optimizer: 'adafactor' }, measuredMiB: 4847 },
  { row: '8-bit Adam (bnb.optim.Adam8bit), batch 4', options: { ...plain, optimizer: 'adamw-8bit' }, measuredMiB: 13085 },
  {
    row: '8-bit Adam + FP16 + accumulation + checkpointing',
    options: { ...combined, optimizer: 'adamw-8bit' },
    measuredMiB: 5363,
  },
];

/** The engine's allocated peak plus the doc's measured context, in MiB: what nvidia-smi would show with no reserve. */
function engineMiB(run: Run): number {
  const result = estimateOrThrow({ ...bertLarge, ...run.options });
  const context = result.lines.find((line) => line.id === 'cuda-context');
  const allocated = result.perGpu.total - (context === undefined ? 0 : Math.max(...context.live));
  return allocated / MIB + DOC_CONTEXT_MIB;
}

const ratioOf = (run: Run) => engineMiB(run) / run.measuredMiB;

describe('HF docs perf_train_gpu_one.mdx @98513df, bert-large-uncased on a V100 16GB (nvidia-smi used)', () => {
  test('"Load Model": 2631 MB with the weights on the GPU, 1288 MiB over the context; the engine’s fp32 weights 1278 MiB (±1 %: the classifier’s 2,050 parameters and the allocator’s rounding)', () => {
    const result = estimateOrThrow({ ...bertLarge, ...plain, optimizer: 'adamw' });
    const weights = result.lines.find((line) => line.id === 'weights');
    const ratio = Math.max(...(weights?.live ?? [0])) / MIB / (2631 - DOC_CONTEXT_MIB);
    expect(ratio).toBeGreaterThan(0.99);
    expect(ratio).toBeLessThan(1.01);
  });

  // At micro-batch 1 the activations are small and the allocator's reserve above the allocated peak is too: the
  // engine lands 1–6.4 % under nvidia-smi (engine 0.936, 0.988, 0.974, 0.936, 0.966), so the band is 7 % under.
  test.each(RUNS.filter((run) => run.options.microBatch === 1))('$row: $measuredMiB MB (band 0.93–1.02 of nvidia-smi)', (run) => {
    const ratio = ratioOf(run);
    expect(ratio).toBeGreaterThan(0.93);
    expect(ratio).toBeLessThan(UPPER);
  });

  // At micro-batch 4 the engine lands 12–17 % under (engine 0.879, 0.832, 0.861, 0.858), 1.6–2.3 GiB, several times the
  // gap at micro-batch 1. It grows with the activations (64 MiB attention-score tensors made and freed 24 times a pass),
  // as the caching allocator's reserve above the allocated peak does, but nvidia-smi cannot tell the two apart: these
  // rows are a lower bound of 0.8, with the gap stated, not explained.
  test.each(RUNS.filter((run) => run.options.microBatch === 4))(
    '$row: $measuredMiB MB (lower bound 0.8 of nvidia-smi; upper 1.02)',
    (run) => {
      const ratio = ratioOf(run);
      expect(ratio).toBeGreaterThan(0.8);
      expect(ratio).toBeLessThan(UPPER);
    },
  );

  test('the engine ranks the nine runs in the order the doc measured them', () => {
    const byMeasured = [...RUNS].sort((a, b) => b.measuredMiB - a.measuredMiB).map((run) => run.row);
    const byEngine = [...RUNS].sort((a, b) => engineMiB(b) - engineMiB(a)).map((run) => run.row);
    expect(byEngine).toEqual(byMeasured);
  });
});
