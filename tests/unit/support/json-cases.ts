/**
 * Command lines whose `--json` output the tests hold to their JSON Schema and to the same bytes everywhere (in-process,
 * the library, the installed package): each kind of answer once at least (training, inference, model states alone,
 * offload to NVMe, a pipeline stage, LoRA; plans that fit and a request nothing fits; every diagnose example; a video and two image diffusions, with and without a GPU, with group offload and the changes that would fit; and real
 * pastes whose shapes the examples lack: nvidia-smi's Processes and MIG tables, WDDM, dmon; an OOM message with a
 * memory_summary, a summary without its header, a traceback, the reader's GPU count; training configs read beside the
 * flags).
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandName } from '../../../src/base/command-line.ts';
import { EXAMPLES_DIR, FIXTURES_DIR, PASTES_DIR } from '../diagnose/fixtures.ts';

const DIFFUSERS_CONFIGS = fileURLToPath(new URL('../../../src/memory/model-configs/diffusers/', import.meta.url));
/** The real training configs (tests/fixtures/training-configs/SOURCES.md). */
const TRAINING_CONFIGS_DIR = resolve(import.meta.dirname, '../../fixtures/training-configs');

/** One command line, without `--json`. */
export interface JsonCase {
  readonly command: CommandName;
  readonly argv: readonly string[];
}

/** Every case, by command. */
export const JSON_CASES: readonly JsonCase[] = [
  { command: 'estimate', argv: ['--model', 'llama-3-8b', '--gpu', 'rtx-4090', '--seq', '2048', '--precision', 'amp-bf16'] },
  { command: 'estimate', argv: ['--params', '7b'] },
  {
    command: 'estimate',
    argv: ['--model', 'gpt2', '--gpu', 'a100-80gb', '--dp', '2', '--stack', 'pytorch', '--train-tokens', '1e9'],
  },
  {
    command: 'estimate',
    argv: ['--model', 'mistral-7b', '--mode', 'infer', '--weights', 'awq', '--tokens', '32768', '--gpu', 'l4'],
  },
  {
    command: 'estimate',
    argv: [
      '--model',
      'llama-2-7b',
      '--zero',
      '3',
      '--dp',
      '8',
      '--offload',
      'optimizer+params',
      '--offload-device',
      'nvme',
      '--gpu',
      'a100-80gb',
    ],
  },
  {
    command: 'estimate',
    argv: ['--model', 'llama-2-7b', '--pp', '2', '--tp', '2', '--micro-batch', '4', '--grad-accum', '4', '--gpu', 'h100-80gb'],
  },
  { command: 'estimate', argv: ['--model', 'llama-3-8b', '--finetune', 'qlora', '--gpu', 'rtx-4090', '--seq', '2048'] },
  {
    command: 'estimate',
    argv: [
      '--model',
      'llama-3-8b',
      '--dp',
      '8',
      '--training-config',
      resolve(TRAINING_CONFIGS_DIR, 'llama-factory/llama3_full_sft.yaml'),
      '--training-config',
      resolve(TRAINING_CONFIGS_DIR, 'llama-factory/ds_z3_config.json'),
    ],
  },
  {
    command: 'plan',
    argv: [
      '--model',
      'llama-3-8b',
      '--gpu',
      'h100-80gb',
      '--training-config',
      resolve(TRAINING_CONFIGS_DIR, 'axolotl/qlora.yml'),
    ],
  },
  {
    command: 'estimate',
    argv: ['--model', 'llama-3-8b', '--finetune', 'qlora', '--zero', '3', '--dp', '2', '--write-config', 'accelerate-yaml'],
  },
  {
    command: 'plan',
    argv: [
      '--model',
      'gpt2',
      '--gpu',
      'rtx-4090',
      '--global-batch',
      '4',
      '--seq',
      '512',
      '--rank-by',
      'epoch-cost',
      '--epoch-tokens',
      '1e9',
      '--train-tokens',
      '3e9',
      '--rent',
    ],
  },
  { command: 'plan', argv: ['--model', 'llama-3-70b', '--gpu', 'rtx-4090', '--global-batch', '8', '--seq', '4096'] },
  // Every example the pages offer; the snapshot's ships as data the page pickles, so its CPython pickle stands in.
  ...readdirSync(EXAMPLES_DIR)
    .filter((file) => file !== 'snapshot-oom.json')
    .sort()
    .map((file) => ({ command: 'diagnose' as const, argv: [resolve(EXAMPLES_DIR, file)] })),
  { command: 'diagnose', argv: [resolve(FIXTURES_DIR, 'snapshot-oom.pickle')] },
  ...[
    '07-processes-1.txt',
    '07-table-wddm-1.txt',
    '07-mig-1.txt',
    '07-dmon-1.txt',
    '08-oom-summary-3.txt',
    '08-summary-4.txt',
    '09-evaluation-1.txt',
  ].map((file) => ({
    command: 'diagnose' as const,
    argv: [resolve(PASTES_DIR, file)],
  })),
  { command: 'diagnose', argv: [resolve(PASTES_DIR, '09-optimizer-1.txt'), '--gpus', '8'] },
  {
    command: 'diffusion',
    argv: ['--config', resolve(DIFFUSERS_CONFIGS, 'wan2.1-t2v-14b.json'), '--resolution', '1280x720', '--gpu', 'rtx-4090'],
  },
  {
    command: 'diffusion',
    argv: ['--config', resolve(DIFFUSERS_CONFIGS, 'flux.1-dev.json'), '--offload', 'model', '--weights', 'fp8'],
  },
  {
    command: 'diffusion',
    argv: [
      '--config',
      resolve(DIFFUSERS_CONFIGS, 'wan2.1-t2v-14b.json'),
      '--offload',
      'group',
      '--steps',
      '30',
      '--gpu',
      'rtx-3060-12gb',
    ],
  },
];
