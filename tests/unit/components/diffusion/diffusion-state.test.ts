/**
 * The generation calculator's state: its settings are the `diffusion` command's flags, its figures the command's own,
 * and a URL query restores them. The worked case (issue #27) is the default.
 */
import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../../src/cli/command.ts';
import { diffusionCommand, type DiffusionJson } from '../../../../src/cli/diffusion-command.ts';
import {
  computeDiffusion,
  DIFFUSION_DEFAULTS,
  diffusionFromQuery,
  pickPipeline,
  withChanges,
  withSetting,
  type DiffusionView,
} from '../../../../src/components/diffusion/diffusion-state.ts';
import { flagArgs } from '../../../../src/memory/index.ts';

function viewOf(settings: Readonly<Record<string, string>>): DiffusionView {
  const computed = computeDiffusion(settings);
  if (!computed.ok) throw new Error(computed.errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  return computed.view;
}

/** What `diffusion --json` prints for the view's own flags. */
function cliJson(view: DiffusionView): DiffusionJson {
  const { code, stdout, stderr } = runCommand(diffusionCommand, [...flagArgs(view.flags), '--json']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout) as DiffusionJson;
}

describe('the default is the worked case', () => {
  test('Wan 2.1 14B at 1280×720, 81 frames, bf16 does not fit the RTX 4090, and its remedies are computed', () => {
    const view = viewOf(DIFFUSION_DEFAULTS);
    expect(view.preset.id).toBe('wan2.1-t2v-14b');
    expect(view.result.fits).toBe(false);
    expect(view.remedies.length).toBeGreaterThan(0);
  });

  test("its figures and remedies are the CLI's for the same flags", () => {
    const view = viewOf(DIFFUSION_DEFAULTS);
    const cli = cliJson(view);
    expect([cli.peak, cli.perPhase, cli.params.transformer]).toEqual([
      view.result.peak,
      view.result.perPhase,
      view.result.transformer.total,
    ]);
    expect(cli.remedies).toEqual(view.remedies);
    expect(view.command).toMatch(/^npx gpu-memory-lab diffusion --model wan2\.1-t2v-14b --resolution 1280x720 --frames 81 /);
  });
});

describe('settings and the URL', () => {
  test("a view's flags, as a URL query, restore the same view", () => {
    const changed = withSetting(withSetting(DIFFUSION_DEFAULTS, 'offload', 'group'), 'vae-tiling', 'true');
    const view = viewOf(changed);
    const restored = viewOf(diffusionFromQuery(`?${new URLSearchParams(view.flags).toString()}`));
    expect(restored.flags).toEqual(view.flags);
    expect(restored.result.peak).toBe(view.result.peak);
    expect(restored.result.hostTransfer).toEqual(view.result.hostTransfer);
  });

  test('a query key that is not a flag of the command is ignored', () => {
    expect(diffusionFromQuery('?model=flux.1-dev&utm_source=x')).toEqual({ ...DIFFUSION_DEFAULTS, model: 'flux.1-dev' });
  });

  test('picking another pipeline starts from its own output: FLUX makes one 1024×1024 image', () => {
    const view = viewOf(pickPipeline(DIFFUSION_DEFAULTS, 'flux.1-dev'));
    expect([view.options.width, view.options.height, view.options.frames]).toEqual([1024, 1024, 1]);
  });

  test('applying a remedy makes it fit', () => {
    const [remedy] = viewOf(DIFFUSION_DEFAULTS).remedies;
    expect(remedy).toBeDefined();
    if (remedy !== undefined) expect(viewOf(withChanges(DIFFUSION_DEFAULTS, remedy.changes)).result.fits).toBe(true);
  });
});

describe('bad input names its field', () => {
  test.each([
    ['model', 'wan9', /unknown pipeline preset wan9/],
    ['resolution', '1280', /expected WIDTHxHEIGHT/],
    ['frames', '80', /frames − 1 must be a multiple of 4/],
    ['steps', '0', /whole number from 1 to 1000/],
    ['offload', 'disk', /expected none, text-encoder, model, sequential, group/],
    ['gpu', 'rtx-9090', /unknown GPU preset/],
  ])('%s=%s', (field, value, message) => {
    const computed = computeDiffusion(withSetting(DIFFUSION_DEFAULTS, field, value));
    expect(computed.ok).toBe(false);
    if (computed.ok) return;
    expect(computed.errors.map((e) => e.field)).toEqual([field]);
    expect(computed.errors[0]?.message).toMatch(message);
  });
});
