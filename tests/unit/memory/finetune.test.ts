import { describe, expect, test } from 'vitest';
import { estimateCommand } from '../../../src/cli/estimate-command.ts';
import { runCommand } from '../../../src/cli/command.ts';
import type { EstimateOptions } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

/** tp, pp, dp of the grid below. */
const LAYOUTS: readonly (readonly [number, number, number])[] = [
  [1, 1, 1],
  [2, 1, 2],
  [1, 2, 2],
  [2, 2, 4],
];

describe('--finetune lora|qlora in the estimate', () => {
  test('PEFT print_trainable_parameters(), Llama-2-7B r=8 on q_proj,v_proj: "trainable params: 4,194,304"', () => {
    expect(estimateOrThrow({ model: 'llama-2-7b', finetune: 'lora', loraRank: 8, loraTargets: 'q,v' }).trainableParams).toBe(
      4_194_304,
    );
  });

  test('a full fine-tune trains every parameter', () => {
    const result = estimateOrThrow({ model: 'llama-2-7b' });
    expect(result.trainableParams).toBe(result.params);
  });

  test('LoRA keeps gradients and AdamW states for the adapters only, in fp32', () => {
    const result = estimateOrThrow({ model: 'llama-3-8b', finetune: 'lora', precision: 'amp-bf16', optimizerImpl: 'fused' });
    expect(result.perGpu.gradients).toBe(result.trainableParams * 4);
    expect(result.perGpu.optimizer).toBe(result.trainableParams * 8);
  });

  test('QLoRA on Llama 3 8B fits a 24 GB card at 2,048 tokens; a full bf16 fine-tune does not', () => {
    const qlora = estimateOrThrow({ model: 'llama-3-8b', finetune: 'qlora', precision: 'amp-bf16', seq: 2048, gpu: 'rtx-4090' });
    expect(qlora.fits).toBe(true);
    expect(qlora.resolved.recompute).toBe('full');
    expect(qlora.warnings.join(' ')).toMatch(/prepare_model_for_kbit_training/);
    expect(estimateOrThrow({ model: 'llama-3-8b', precision: 'amp-bf16', seq: 2048, gpu: 'rtx-4090' }).fits).toBe(false);
  });

  test('a frozen base skips the weight-gradient matmuls: LoRA compute is 4N per token against 6N (Hu et al. 2021 §4)', () => {
    const compute = (finetune: 'full' | 'lora') =>
      estimateOrThrow({ model: 'llama-3-8b', finetune, gpu: 'a100-80gb', attention: 'sdpa' }).stepTime?.lines.find(
        (l) => l.id === 'compute',
      )?.seconds ?? 0;
    expect(compute('lora') / compute('full')).toBeCloseTo(2 / 3, 10);
  });

  test('QLoRA pays for its NF4 base in time: each forward and backward dequantizes every block weight (bitsandbytes MatMul4Bit), 2.52 bytes moved per weight at the GPU’s bandwidth', () => {
    const dequantize = (options: EstimateOptions) =>
      estimateOrThrow({ model: 'llama-3-8b', gpu: 'a100-80gb', seq: 2048, ...options }).stepTime?.lines.find(
        (l) => l.id === 'dequantize',
      )?.seconds ?? 0;
    // Llama 3 8B's block Linear weights (q, k, v, o, gate, up, down; 32 layers, 1,024-wide k and v), NF4 with one absmax
    // byte per 64 weights read and bf16 written: about 8.6 ms per pass over the 2,039 GB/s of an A100 80GB.
    const blockWeights = 32 * (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336);
    const pass = (blockWeights * (0.5 + 1 / 64 + 2)) / 2039e9;
    expect(pass).toBeCloseTo(8.61e-3, 5);
    expect(dequantize({ finetune: 'qlora', recompute: 'none' })).toBeCloseTo(2 * pass, 12);
    // A fully recomputed forward dequantizes again; selective recompute redoes only attention's scores, which read no weight.
    expect(dequantize({ finetune: 'qlora', recompute: 'full' })).toBeCloseTo(3 * pass, 12);
    expect(dequantize({ finetune: 'qlora', recompute: 'selective' })).toBeCloseTo(2 * pass, 12);
    // Every micro-batch does it again, and a 16-bit LoRA base needs none of it.
    expect(dequantize({ finetune: 'qlora', recompute: 'none', gradAccum: 4 })).toBeCloseTo(8 * pass, 12);
    expect(dequantize({ finetune: 'lora', recompute: 'none' })).toBe(0);
  });

  test('every LoRA/QLoRA combination of parallelism, ZeRO, offload, precision and optimizer gives whole, safe byte counts', () => {
    for (const finetune of ['lora', 'qlora'] as const)
      for (const [tp, pp, dp] of LAYOUTS)
        for (const zero of [0, 1, 2, 3] as const)
          for (const optimizer of ['adamw', 'adamw-8bit', 'sgd-momentum'] as const)
            for (const precision of ['mixed-fp16', 'amp-bf16', 'fp32'] as const) {
              const offload = zero === 3 ? 'optimizer+params' : zero > 0 ? 'optimizer' : 'none';
              const result = estimateOrThrow({
                model: 'gpt2',
                finetune,
                tp,
                pp,
                dp,
                zero,
                optimizer,
                precision,
                offload,
                seq: 128,
              });
              for (const line of result.lines)
                expect(Number.isSafeInteger(line.bytes), `${line.id} ${JSON.stringify({ tp, pp, dp, zero, optimizer })}`).toBe(
                  true,
                );
            }
  });

  test('data-parallel LoRA reduces the adapters’ gradients, not the frozen base’s', () => {
    const traffic = (finetune: 'full' | 'lora') =>
      estimateOrThrow({ model: 'llama-3-8b', finetune, dp: 8, gpu: 'a100-80gb' }).stepTime?.lines.find(
        (l) => l.id === 'data-parallel',
      )?.seconds ?? 0;
    expect(traffic('lora')).toBeLessThan(traffic('full') / 50);
  });

  test('QLoRA holds the NF4 base below a 16-bit LoRA base', () => {
    const weights = (finetune: 'lora' | 'qlora') =>
      estimateOrThrow({ model: 'llama-2-7b', finetune }).lines.find((l) => l.id === 'weights')?.bytes ?? 0;
    expect(weights('qlora')).toBeLessThan(weights('lora') / 2);
  });

  test.each<[string, string[], RegExp]>([
    [
      'a target the architecture lacks',
      ['--model', 'gpt2', '--finetune', 'lora', '--lora-targets', 'gate'],
      /^estimate: --lora-targets: gpt2 has no gate projection/,
    ],
    [
      'a partial fused q,k,v on GPT-2',
      ['--model', 'gpt2', '--finetune', 'lora', '--lora-targets', 'q,v'],
      /^estimate: --lora-targets: gpt2 fuses q, k, v/,
    ],
    [
      'an unknown target word',
      ['--model', 'llama-2-7b', '--finetune', 'lora', '--lora-targets', 'qkv'],
      /^estimate: --lora-targets: expected all-linear, attention or a comma list/,
    ],
    [
      'LoRA on a bare parameter count',
      ['--params', '7b', '--finetune', 'qlora'],
      /^estimate: --finetune: --finetune qlora adapts a model's Linear layers/,
    ],
  ])('%s exits 2 with one line naming the field', (_title, argv, message) => {
    const { code, stderr } = runCommand(estimateCommand, argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
