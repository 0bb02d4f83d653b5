import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { runCommand } from '../../src/cli/command';
import { estimateCommand, type EstimateJson } from '../../src/cli/estimate-command';
import { seriousAxeViolations } from './support/axe';
import { dropFiles, fileOnDisk } from './support/file-drop';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';

/**
 * The training-config reader reads dropped and pasted files in the page, with no request, and its command reproduces
 * the CLI's `--training-config` estimate; a bad file is one error line naming the file and the key.
 */
const baseUrl = inject('baseUrl');
const fixture = (name: string) => resolve(import.meta.dirname, '../fixtures/training-configs', name);
const ROOT = '[data-widget="training-config"]';

describe('training-config reader', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test("dropped LLaMA-Factory YAML and DeepSpeed JSON: the CLI's mapping and flags, no request, axe-clean", async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/tools/training-config/`, ROOT);
      const files = ['llama-factory/llama3_full_sft.yaml', 'llama-factory/ds_z3_config.json'].map(fixture);
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await dropFiles(root.locator('.training-config-drop'), files.map(fileOnDisk));
      await page.waitForSelector(`${ROOT} [data-mapping]`);
      const { code, stdout } = runCommand(estimateCommand, [
        '--model',
        'llama-3-8b',
        ...files.flatMap((f) => ['--training-config', f]),
        '--json',
      ]);
      expect(code).toBe(0);
      const cli = JSON.parse(stdout) as EstimateJson;
      // Bucket sizes need the model's hidden size, which the page does not ask for: the rows otherwise match.
      const rows = await root.locator('[data-mapping] tbody tr').count();
      expect(rows).toBe(cli.trainingConfig?.lines.length);
      // The page's command, run without the files (plain words: no quoting needed), reproduces the CLI's estimate.
      const command = (await root.locator('[data-command]').textContent()) ?? '';
      const args = command
        .trim()
        .split(/\s+/)
        .slice(command.trim().split(/\s+/).indexOf('estimate') + 1);
      expect(args.join(' ')).toContain('--stack llama-factory');
      const again = runCommand(estimateCommand, ['--model', 'llama-3-8b', ...args, '--json']);
      expect(again.code).toBe(0);
      expect((JSON.parse(again.stdout) as EstimateJson).perGpu.total).toBe(cli.perGpu.total);
      expect(await root.locator('[data-stack]').textContent()).toBe('llama-factory');
      expect(requests).toEqual([]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a pasted file with a value of the wrong type: one error naming the file and the key', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(page, `${baseUrl}/tools/training-config/`, ROOT);
      await root.locator('[data-field="paste"]').fill('finetuning_type: lora\nlora_rank: eight\n');
      await root.locator('[data-field="name"]').fill('lf.yaml');
      await root.locator('[data-action="read"]').click();
      await expect
        .poll(() => root.locator('[data-error]').allTextContents())
        .toEqual(['lf.yaml: lora_rank: expected a number, got eight']);
      expect(await root.locator('[data-mapping]').count()).toBe(0);
    });
  });
});
