import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { estimateCommand } from '../../src/cli/estimate-command';
import { runCommand } from '../../src/cli/command';
import { flagArgs } from '../../src/memory/index';
import { lessonHref } from '../../src/base/lessons';
import { launchBrowser, openIsland, waitForHydration, withRecordingPage } from '../../scripts/browser/browser';
import { CONFIG_PARAM, HUB_PARAM } from '../../src/components/model-source/model-link';
import { EN } from '../../src/i18n/messages/en';
import { seriousAxeViolations } from './support/axe';

/**
 * The model picker in Chromium: a Hub load (the Hub's and the mirror's answers served by `page.route` from committed
 * config.json files), its failures, a paste, a chosen file and a shared link each give the model `estimate --config`
 * counts on the same file, and nothing is asked of another host before Load is pressed.
 */
const baseUrl = inject('baseUrl');
const STACK = '[data-calculator="stack"]';
const configFile = (name: string) => fileURLToPath(new URL(`../../src/memory/model-configs/${name}`, import.meta.url));

/** What `estimate --config FILE --json` prints for a page URL's flags (its model parameters left out). */
function cliParams(url: string, file: string): number {
  const query = new URL(url).searchParams;
  for (const name of [CONFIG_PARAM, HUB_PARAM, 'model']) query.delete(name);
  const { code, stdout, stderr } = runCommand(estimateCommand, ['--config', file, ...flagArgs(query), '--json']);
  expect(code, stderr).toBe(0);
  return (JSON.parse(stdout) as { params: number }).params;
}

/** Serves the Hub's and the mirror's config.json answers: `answer(url)` gives status and body; every request is recorded. */
async function serveHub(page: Page, answer: (url: URL) => { status: number; body: string }): Promise<URL[]> {
  const requested: URL[] = [];
  for (const host of ['https://huggingface.co/**', 'https://hf-mirror.com/**']) {
    await page.route(host, (route) => {
      const url = new URL(route.request().url());
      requested.push(url);
      const { status, body } = answer(url);
      return route.fulfill({ status, body, headers: { 'access-control-allow-origin': '*', 'content-type': 'application/json' } });
    });
  }
  return requested;
}

/** Opens the picker's load panel in `root`. */
async function openPanel(root: Locator): Promise<Locator> {
  const panel = root.locator('details.model-source-panel');
  await panel.evaluate((d) => ((d as HTMLDetailsElement).open = true));
  return panel;
}

describe('model picker', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('a Hub load shows the count estimate --config gives; the mirror picked is the host asked; a 404 and a malformed body are field errors that keep the model; the link reproduces it without a fetch', async () => {
    const qwen = readFileSync(configFile('qwen3-8b.json'), 'utf8');
    let shared = '';
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const requested = await serveHub(page, (url) =>
        url.pathname.startsWith('/Qwen/Qwen3-8B/')
          ? { status: 200, body: qwen }
          : url.pathname.startsWith('/org/broken/')
            ? { status: 200, body: '<html>not json</html>' }
            : { status: 404, body: 'Entry not found' },
      );
      const root = await openIsland(page, baseUrl + lessonHref('putting-it-together'), STACK);
      const params = root.locator('[data-params]');
      const panel = await openPanel(root);
      expect(requested, 'no request before Load').toEqual([]);
      expect(problems.offsiteRequests).toEqual([]);

      await panel.locator('[data-model-hub-id]').fill('Qwen/Qwen3-8B');
      await panel.locator('[data-action="load-hub"]').click();
      await expect.poll(() => params.textContent()).toContain('Qwen/Qwen3-8B');
      expect(requested.map(String)).toEqual(['https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json']);
      expect(await params.textContent()).toContain('(qwen3)');
      await expect.poll(() => new URL(page.url()).searchParams.get(HUB_PARAM)).toBe('Qwen/Qwen3-8B');
      const loadedParams = await params.getAttribute('data-params');
      expect(Number(loadedParams)).toBe(cliParams(page.url(), configFile('qwen3-8b.json')));
      expect(await root.locator('[data-flag="model"]').inputValue()).toBe('loaded');

      await panel.locator('[data-model-hub-host]').selectOption('hf-mirror');
      await panel.locator('[data-model-hub-id]').fill('org/missing');
      await panel.locator('[data-action="load-hub"]').click();
      await expect.poll(() => panel.locator('[data-load-error]').textContent()).toMatch(/^hub: .*hf-mirror\.com.*HTTP 404/);
      expect(requested.at(-1)?.host).toBe('hf-mirror.com');
      expect(await params.getAttribute('data-params')).toBe(loadedParams);

      await panel.locator('[data-model-hub-id]').fill('org/broken');
      await panel.locator('[data-action="load-hub"]').click();
      await expect
        .poll(() => panel.locator('[data-load-error]').textContent())
        .toMatch(/^config: config\.json is not valid JSON/);
      expect(await params.getAttribute('data-params')).toBe(loadedParams);
      expect(await root.textContent()).not.toMatch(/NaN|undefined/);
      // site.test.ts runs axe with the panel closed; here it is open, with an error and warnings shown.
      expect(await seriousAxeViolations(page), 'serious or critical axe violations').toEqual([]);
      shared = page.url();
    });

    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const requested = await serveHub(page, () => ({ status: 500, body: '' }));
      const root = await openIsland(page, shared, STACK);
      await expect.poll(() => root.locator('[data-params]').textContent()).toContain('Qwen/Qwen3-8B');
      expect(Number(await root.locator('[data-params]').getAttribute('data-params'))).toBe(
        cliParams(shared, configFile('qwen3-8b.json')),
      );
      expect(requested).toEqual([]);
      expect(problems.offsiteRequests).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a damaged link is a field error next to the model, and the calculator still computes its preset', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}${lessonHref('putting-it-together')}?${CONFIG_PARAM}=e30`, STACK);
      const field = root.locator('label', { has: page.locator('[data-flag="model"]') });
      await expect.poll(() => field.locator('[role="alert"]').textContent()).toMatch(/hidden_size is missing/);
      expect(Number(await root.getAttribute('data-total-bytes'))).toBeGreaterThan(0);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('the landing line takes a pasted config.json and a chosen file, with the reader’s warnings and the count estimate --config gives', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      await page.goto(`${baseUrl}/`);
      const island = page.locator('.will-it-fit');
      await island.scrollIntoViewIfNeeded();
      await waitForHydration(page, '.will-it-fit');
      const panel = await openPanel(island);
      const params = island.locator('[data-params]');
      await panel.locator('[data-model-paste]').fill(readFileSync(configFile('deepseek-v3.json'), 'utf8'));
      await panel.locator('[data-action="use-paste"]').click();
      await expect.poll(() => params.textContent()).toContain(EN.modelSource.loadedName(null));
      expect(await params.textContent()).toContain('(deepseek_v3)');
      expect(Number(await params.getAttribute('data-params'))).toBe(
        cliParams(`${baseUrl}/?gpu=rtx-4090`, configFile('deepseek-v3.json')),
      );
      expect(await island.locator('[data-model-warnings]').textContent()).toMatch(/multi-token-prediction/);

      await panel.locator('input[type="file"]').setInputFiles(configFile('phi-4.json'));
      await expect.poll(() => params.textContent()).toContain('(phi3)');
      expect(Number(await params.getAttribute('data-params'))).toBe(
        cliParams(`${baseUrl}/?gpu=rtx-4090`, configFile('phi-4.json')),
      );
      expect(await island.locator('code').last().textContent()).toContain('--config config.json');
      expect(problems.offsiteRequests).toEqual([]);
    });
  });

  test('the planner plans a model from a link and shows its count as estimate --config does', async () => {
    const file = configFile('qwen3-0.6b.json');
    const encoded = Buffer.from(readFileSync(file, 'utf8')).toString('base64url');
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(
        page,
        `${baseUrl}/tools/planner/?gpu=rtx-4090&global-batch=4&seq=512&${CONFIG_PARAM}=${encoded}&${HUB_PARAM}=Qwen/Qwen3-0.6B`,
        '[data-planner]',
      );
      const params = root.locator('[data-params]');
      await expect.poll(() => params.textContent()).toContain('Qwen/Qwen3-0.6B');
      expect(Number(await params.getAttribute('data-params'))).toBe(cliParams(`${baseUrl}/?gpu=rtx-4090&seq=512`, file));
      await expect.poll(() => root.getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
      expect(Number(await root.getAttribute('data-plan-count'))).toBeGreaterThan(0);
      expect(await root.locator('[data-command]').textContent()).toContain('--config config.json');
      expect(problems.offsiteRequests).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });
});
