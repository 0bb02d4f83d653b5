/** `diffusion --config FILE`: a diffusers transformer config read defensively, bad input as exit 2 and one line. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { diffusionCommand, type DiffusionJson } from '../../../src/cli/diffusion-command.ts';
import { estimateCommand } from '../../../src/cli/estimate-command.ts';
import { runProgram } from '../../../src/cli/program.ts';

const DIFFUSERS = fileURLToPath(new URL('../../../src/memory/model-configs/diffusers/', import.meta.url));
const WAN_14B = join(DIFFUSERS, 'wan2.1-t2v-14b.json');
const scratch = mkdtempSync(join(tmpdir(), 'diffusion-'));
const runDiffusion = (argv: readonly string[]) => runCommand(diffusionCommand, argv);

/** Write `text` to a fresh file in the scratch folder and return its path. */
function fileWith(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

/** Exit 2 and exactly one line on stderr that matches `pattern`. */
function expectOneLine(argv: readonly string[], pattern: RegExp) {
  const { code, stdout, stderr } = runDiffusion(argv);
  expect(code).toBe(2);
  expect(stdout).toBe('');
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).toMatch(pattern);
}

describe('diffusion --config', () => {
  test('a Wan transformer config at 1280x720, 81 frames: the table shows the tokens, each phase and the fit', () => {
    const { code, stdout, stderr } = runDiffusion([
      '--config',
      WAN_14B,
      '--resolution',
      '1280x720',
      '--frames',
      '81',
      '--gpu',
      'rtx-4090',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/transformer 14,288,491,584 params · UMT5-XXL encoder 5,680,910,336/);
    expect(stdout).toMatch(/21×90×160 latents → 75,600 tokens \+ 512 text tokens/);
    expect(stdout).toMatch(/encode\s+denoise\s+decode/);
    expect(stdout).toMatch(/Fits\s+no on the NVIDIA GeForce RTX 4090/);
  });

  test('--json params.transformer is the count the checkpoint holds (Wan-AI/Wan2.1-T2V-14B, F32 14288491584)', () => {
    const { code, stdout } = runDiffusion(['--config', WAN_14B, '--resolution', '1280x720', '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as { params: { transformer: number }; className: string; fits: unknown; peak: number };
    expect(json.params.transformer).toBe(14_288_491_584);
    expect(json.className).toBe('WanTransformer3DModel');
    expect(json.fits).toBeNull();
    expect(Number.isSafeInteger(json.peak)).toBe(true);
  });

  test('the options the walk-through uses fit the RTX 4090: model offload and fp8 weights', () => {
    const argv = [
      '--config',
      WAN_14B,
      '--resolution',
      '1280x720',
      '--gpu',
      'rtx-4090',
      '--offload',
      'model',
      '--weights',
      'fp8',
      '--json',
    ];
    expect(JSON.parse(runDiffusion(argv).stdout)).toMatchObject({ fits: true, setup: { offload: 'model', weights: 'fp8' } });
  });

  test("a folder holding config.json (the Hub repository's transformer/ folder) is read like the file", () => {
    const folder = mkdtempSync(join(scratch, 'transformer-'));
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ _class_name: 'FluxTransformer2DModel', guidance_embeds: true }));
    expect(JSON.parse(runDiffusion(['--config', folder, '--json']).stdout)).toMatchObject({
      pipeline: 'FluxPipeline',
      params: { transformer: 11_901_408_320 },
    });
  });

  test('--sources prints the source under each line', () => {
    expect(runDiffusion(['--config', WAN_14B, '--sources']).stdout).toMatch(/↳ .*pipeline_wan\.py/);
  });

  test('the program lists the command', () => {
    expect(runProgram(['--help']).stdout).toMatch(/diffusion\s+what one video or image generation/);
  });
});

describe('diffusion --model (a pipeline preset)', () => {
  test('a preset gives the same estimate as its committed config file, and names itself in --json', () => {
    const flags = ['--resolution', '1280x720', '--frames', '81', '--gpu', 'rtx-4090', '--json'];
    const preset = runDiffusion(['--model', 'wan2.1-t2v-14b', ...flags]);
    const file = runDiffusion(['--config', WAN_14B, ...flags]);
    expect(preset.code).toBe(0);
    const fromPreset = JSON.parse(preset.stdout) as DiffusionJson;
    const fromFile = JSON.parse(file.stdout) as DiffusionJson;
    expect(fromPreset.model).toBe('wan2.1-t2v-14b');
    expect(fromFile.model).toBeNull();
    expect({ ...fromPreset, model: null }).toEqual(fromFile);
  });

  test('off the card, the table lists the changes that fit, and each listed command fits when run', () => {
    const { stdout } = runDiffusion(['--model', 'wan2.1-t2v-14b', '--resolution', '1280x720', '--gpu', 'rtx-4090', '--json']);
    const { remedies } = JSON.parse(stdout) as DiffusionJson;
    expect(remedies.length).toBeGreaterThan(0);
    for (const remedy of remedies) {
      const args = remedy.changes.flatMap((c) => (c.value === true ? [`--${c.flag}`] : [`--${c.flag}`, String(c.value)]));
      const again = runDiffusion([
        '--model',
        'wan2.1-t2v-14b',
        '--resolution',
        '1280x720',
        '--gpu',
        'rtx-4090',
        ...args,
        '--json',
      ]);
      const fitted = JSON.parse(again.stdout) as DiffusionJson;
      expect([fitted.fits, fitted.peak]).toEqual([true, remedy.peak]);
    }
    const table = runDiffusion(['--model', 'wan2.1-t2v-14b', '--resolution', '1280x720', '--gpu', 'rtx-4090']).stdout;
    expect(table).toMatch(/^Fits with --/m);
  });

  test('image-to-video Wan: the transformer and the CLIP image encoder are counted, the conditioning encode is named', () => {
    const { code, stdout } = runDiffusion(['--model', 'wan2.1-i2v-14b-720p', '--resolution', '1280x720', '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as DiffusionJson;
    expect([json.pipeline, json.className]).toEqual(['WanImageToVideoPipeline', 'WanTransformer3DModel']);
    expect(json.params.imageEncoder?.name).toBe('CLIP ViT-H/14 image encoder');
    // The 257 CLIP tokens (a class token and 16 × 16 patches of 14 px) join UMT5's 512 in the cross-attention context.
    expect(json.tokens.text).toBe(512 + 257);
    expect(json.warnings.join(' ')).toMatch(/VAE-encodes the conditioning frames.*not counted yet/);
  });

  test('image-to-video Wan: --text-encoder-cpu leaves the image encoder on the GPU; model offload holds it while encoding only', () => {
    const lineOf = (argv: readonly string[]) => {
      const json = JSON.parse(runDiffusion(['--model', 'wan2.1-i2v-14b-720p', ...argv, '--json']).stdout) as DiffusionJson;
      return json.lines.find((l) => l.id === 'image-encoder')?.live;
    };
    const whole = lineOf([])?.[0] ?? 0;
    expect(whole).toBeGreaterThan(0);
    expect(lineOf(['--text-encoder-cpu'])).toEqual([whole, whole, whole]);
    expect(lineOf(['--offload', 'model'])).toEqual([whole, 0, 0]);
  });

  test('--offload group prints what it copies over the host link per generation', () => {
    const { stdout } = runDiffusion(['--model', 'wan2.1-t2v-14b', '--offload', 'group', '--gpu', 'rtx-4090']);
    expect(stdout).toMatch(/^Offload   [\d.]+ GiB over the host link per generation \(100 transformer passes\): at least/m);
  });
});

describe('bad input: exit 2 and one line naming the field', () => {
  test('an unknown preset', () => expectOneLine(['--model', 'wan9'], /^diffusion: --model: unknown pipeline preset wan9/));
  test('both --model and --config', () =>
    expectOneLine(['--model', 'wan2.1-t2v-14b', '--config', WAN_14B], /--model and --config: give one of them/));
  test('a step count of zero', () =>
    expectOneLine(['--model', 'wan2.1-t2v-14b', '--steps', '0'], /--steps: must be a whole number from 1 to 1000/));
  test('an unknown offload', () =>
    expectOneLine(
      ['--model', 'wan2.1-t2v-14b', '--offload', 'disk'],
      /--offload: expected none, text-encoder, model, sequential, group, got disk/,
    ));
  test('no --model or --config', () => expectOneLine([], /^diffusion: --model or --config: name a pipeline preset/));
  test('a resolution that is not WIDTHxHEIGHT', () =>
    expectOneLine(['--config', WAN_14B, '--resolution', '1280'], /--resolution: expected WIDTHxHEIGHT/));
  test('a side the pipeline would resize', () =>
    expectOneLine(['--config', WAN_14B, '--resolution', '1280x721'], /--resolution: height 721 is not a multiple of 16/));
  test('frames the VAE cannot make', () =>
    expectOneLine(['--config', WAN_14B, '--frames', '80'], /--frames: frames − 1 must be a multiple of 4/));
  test('a negative frame count', () =>
    expectOneLine(['--config', WAN_14B, '--frames', '-3'], /--frames: expected a number, got -3/));
  test('an unknown weight format', () =>
    expectOneLine(['--config', WAN_14B, '--weights', 'int4'], /--weights: expected fp32, bf16, fp8, got int4/));
  test('an unknown GPU', () => expectOneLine(['--config', WAN_14B, '--gpu', 'rtx-9090'], /--gpu: unknown GPU preset rtx-9090/));
  test('a missing file', () =>
    expectOneLine(['--config', join(scratch, 'missing.json')], /--config .*missing\.json: cannot read it/));
  test('malformed JSON', () => expectOneLine(['--config', fileWith('broken.json', '{"_class_name": ')], /not valid JSON/));
  test('a Transformers config', () =>
    expectOneLine(['--config', join(DIFFUSERS, '..', 'qwen3-8b.json')], /_class_name: null is not a diffusion transformer/));
  test('zero heads', () =>
    expectOneLine(
      ['--config', fileWith('zero-heads.json', JSON.stringify({ _class_name: 'WanTransformer3DModel', num_attention_heads: 0 }))],
      /num_attention_heads: expected a whole number/,
    ));
  test('an image-to-video Wan config without its image key/value projections', () =>
    expectOneLine(
      ['--config', fileWith('i2v.json', JSON.stringify({ _class_name: 'WanTransformer3DModel', image_dim: 1280 }))],
      /image_dim: 1280: image_dim and added_kv_proj_dim come together/,
    ));
  test('estimate --config on a diffusers config points to the diffusion command', () => {
    const { code, stderr } = runCommand(estimateCommand, ['--config', WAN_14B]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /a diffusers component config, not a Transformers one; for a diffusion transformer run: gpu-memory-lab diffusion --config/,
    );
  });
});
