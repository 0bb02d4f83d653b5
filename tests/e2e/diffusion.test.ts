import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { runCommand } from '../../src/cli/command';
import { diffusionCommand, type DiffusionJson } from '../../src/cli/diffusion-command';
import { flagArgs } from '../../src/memory/index';
import { seriousAxeViolations } from './support/axe';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';

/**
 * The image and video generation page: its figures are `diffusion --json`'s for the same flags, a changed field
 * changes the URL to those flags, a URL restores them, and a bad field shows its error while the last result stays.
 */
const baseUrl = inject('baseUrl');
const ROOT = '[data-widget="diffusion"]';
const PAGE = `${baseUrl}/tools/diffusion/`;

/** What the CLI prints with `--json` for a URL query's flags. */
function cliFor(query: string): DiffusionJson {
  const { code, stdout, stderr } = runCommand(diffusionCommand, [...flagArgs(new URLSearchParams(query)), '--json']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout) as DiffusionJson;
}

/** The page's figures: the peak, each phase's total and the transformer's parameter count as shown. */
async function figures(root: Locator) {
  const phases = await root
    .locator('[data-total] td')
    .evaluateAll((cells) =>
      Object.fromEntries(cells.map((cell) => [cell.getAttribute('data-phase'), Number(cell.getAttribute('data-bytes'))])),
    );
  return {
    peak: Number(await root.getAttribute('data-peak-bytes')),
    phases,
    transformer: (await root.locator('[data-param="transformer"]').textContent()) ?? '',
  };
}

const pageQuery = (url: string) => new URL(url).search.slice(1);

describe('image and video generation page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test("the worked case, then group offload: the CLI's figures for the URL's flags, axe-clean", async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, PAGE, ROOT);
      expect(await root.getAttribute('data-peak-bytes')).not.toBeNull();
      const command = (await root.locator('[data-command]').textContent()) ?? '';
      const defaults = command.slice(command.indexOf(' diffusion ') + ' diffusion '.length);
      const cli = runCommand(diffusionCommand, [...defaults.split(' '), '--json']);
      const worked = JSON.parse(cli.stdout) as DiffusionJson;
      expect(worked.fits).toBe(false);
      expect(await figures(root)).toEqual({
        peak: worked.peak,
        phases: worked.perPhase,
        transformer: `${worked.params.transformer.toLocaleString('en-US')} (WanTransformer3DModel)`,
      });
      expect(await root.locator('[data-remedy]').evaluateAll((items) => items.map((i) => i.getAttribute('data-remedy')))).toEqual(
        worked.remedies.map((r) => r.changes.map((c) => (c.value === true ? `--${c.flag}` : `--${c.flag} ${c.value}`)).join(' ')),
      );

      await root.locator('[data-flag="offload"]').selectOption('group');
      await expect.poll(() => pageQuery(page.url())).toContain('offload=group');
      const grouped = cliFor(pageQuery(page.url()));
      expect(grouped.setup.offload).toBe('group');
      await expect.poll(() => figures(root)).toMatchObject({ peak: grouped.peak, phases: grouped.perPhase });
      expect(Number(await root.locator('[data-transfer-bytes]').getAttribute('data-transfer-bytes'))).toBe(
        grouped.hostTransfer.bytes,
      );

      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('a link restores its settings, and applying a remedy makes it fit', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const query = 'model=flux.1-dev&resolution=1024x768&frames=1&steps=28&weights=bf16&offload=none&gpu=rtx-3060-12gb';
      const root = await openIsland(page, `${PAGE}?${query}`, ROOT);
      const cli = cliFor(query);
      await expect.poll(() => root.locator('[data-flag="model"]').inputValue()).toBe('flux.1-dev');
      expect(await root.locator('[data-flag="resolution"]').inputValue()).toBe('1024x768');
      expect(await figures(root)).toMatchObject({ peak: cli.peak, phases: cli.perPhase });
      expect(cli.fits).toBe(false);

      await root.locator('[data-action="apply"]').first().click();
      await expect.poll(() => root.locator('.calc-verdict').getAttribute('data-fits')).toBe('true');
      const applied = cliFor(pageQuery(page.url()));
      expect(applied.fits).toBe(true);
      expect(Number(await root.getAttribute('data-peak-bytes'))).toBe(applied.peak);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a bad resolution: the error next to the field, the last valid result kept and the URL left alone', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(page, PAGE, ROOT);
      await root.locator('[data-flag="frames"]').fill('41');
      await expect.poll(() => pageQuery(page.url())).toContain('frames=41');
      const before = await figures(root);
      const urlBefore = page.url();
      await root.locator('[data-flag="resolution"]').fill('1280x721');
      const field = root.locator('.widget-field', { has: page.locator('[data-flag="resolution"]') });
      await expect.poll(() => field.locator('.widget-error').textContent()).toMatch(/height 721 is not a multiple of 16/);
      expect(await root.locator('[data-flag="resolution"]').getAttribute('aria-invalid')).toBe('true');
      expect(await root.locator('.calc-verdict').getAttribute('class')).toContain('calc-stale');
      expect((await figures(root)).phases).toEqual(before.phases);
      expect(page.url()).toBe(urlBefore);
    });
  });
});
