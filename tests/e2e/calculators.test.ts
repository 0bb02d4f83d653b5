import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { estimateCommand } from '../../src/cli/estimate-command';
import { runCommand } from '../../src/cli/command';
import { flagArgs } from '../../src/memory/index';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';
import { checkPhoneLayout, PHONE } from './support/phone-layout';
import { lessonHref } from '../../src/base/lessons';
import { calculatorPage } from '../../scripts/browser/island-pages';
import { EN } from '../../src/i18n/messages/en';

/**
 * Every calculator recomputes when the reader changes a field, and what it shows is what
 * `estimate --json` prints for the settings now in the page's URL query.
 */
const CHANGES = [
  { id: 'breakdown', field: 'micro-batch', value: '4' },
  { id: 'mixed-precision', field: 'precision', value: 'mixed-fp16' },
  // The accumulation steps do not change per-GPU memory (the lesson's point); the micro-batch does.
  { id: 'gradient-accumulation', field: 'micro-batch', value: '2' },
  { id: 'gradient-checkpointing', field: 'recompute', value: 'selective' },
  { id: 'parallelism', field: 'dp', value: '16' },
  { id: 'offload', field: 'micro-batch', value: '2' },
  { id: 'lora', field: 'lora-rank', value: '64' },
  { id: 'inference', field: 'tokens', value: '16384' },
  { id: 'distillation', field: 'teacher', value: 'gpt2-large' },
  { id: 'stack', field: 'micro-batch', value: '2' },
  { id: 'rent-cost', field: 'dp', value: '4' },
].map((change) => ({ ...change, path: calculatorPage(change.id) }));

const baseUrl = inject('baseUrl');
/** Playwright's default viewport, where the field checks ran before they shared a page load with the phone check. */
const DESKTOP = { width: 1280, height: 720 };

/** What the CLI prints as `perGpu.total` and `params` for a URL query in the shared flag vocabulary. */
function cliEstimate(query: URLSearchParams): { total: number; params: number } {
  const { code, stdout, stderr } = runCommand(estimateCommand, [...flagArgs(query), '--json']);
  expect(code, stderr).toBe(0);
  const json = JSON.parse(stdout) as { perGpu: { total: number }; params: number };
  return { total: json.perGpu.total, params: json.params };
}

describe('calculators', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  // One page load per calculator serves its three checks (a load each tripled the file's time).
  // The phone check comes first, on the page as a phone loads it: the charts take their width
  // from their box when drawn. The other two checks then run at the default desktop viewport;
  // neither depends on the width the page was first drawn at.
  test.each(CHANGES)(
    '$id: at 390 px nothing overflows and its sources table scrolls inside the widget; every flag in its printed command has a visible field; setting $field to $value shows the total and parameter count estimate --json prints',
    async ({ id, path, field, value }) => {
      await withRecordingPage(browser, baseUrl, async (page, problems) => {
        await page.setViewportSize(PHONE);
        const root = await openIsland(page, baseUrl + path, `[data-calculator="${id}"]`);
        const sources = root.locator('details').first();
        await sources.evaluate((d) => ((d as HTMLDetailsElement).open = true));
        const phone = (await checkPhoneLayout(page)).filter((p) => p.includes('calc') || p.includes('page scrolls'));
        expect(phone, 'at 390 px').toEqual([]);
        await sources.evaluate((d) => ((d as HTMLDetailsElement).open = false));
        await page.setViewportSize(DESKTOP);

        const command = (await root.locator('[data-command]').textContent()) ?? '';
        const flags = [...command.matchAll(/--([a-z0-9-]+)/g)].map((m) => m[1]);
        expect(flags.length).toBeGreaterThan(1);
        for (const flag of flags) expect(await root.locator(`[data-flag="${flag}"]`).isVisible(), `--${flag}`).toBe(true);

        const before = await root.getAttribute('data-total-bytes');
        expect(Number.isSafeInteger(Number(before)) && Number(before) > 0, `initial total ${before}`).toBe(true);
        const control = root.locator(`[data-flag="${field}"]`);
        if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption(value);
        else await control.fill(value);
        await expect.poll(() => root.getAttribute('data-total-bytes')).not.toBe(before);
        // The URL is rewritten in an effect just after the render that updates the total.
        await expect.poll(() => new URL(page.url()).searchParams.get(field)).toBe(value);

        const query = new URL(page.url()).searchParams;
        const cli = cliEstimate(query);
        expect(Number(await root.getAttribute('data-total-bytes'))).toBe(cli.total);
        // The parameter count shown next to the model is the one the CLI computes for the same URL.
        const shownParams = root.locator('[data-params]');
        expect(Number(await shownParams.getAttribute('data-params'))).toBe(cli.params);
        expect(await shownParams.textContent()).toContain(`${EN.modelSource.parameterCount(cli.params)} parameters`);
        expect(problems.pageErrors).toEqual([]);
        expect(problems.consoleErrors).toEqual([]);
      });
    },
  );

  test('the charts speak GiB like the tables, and no label is drawn over the bars (the GPU is named in the caption)', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(
        page,
        baseUrl + lessonHref('gradient-checkpointing'),
        '[data-calculator="gradient-checkpointing"]',
      );
      const charts = root.locator('.calc-chart [role="img"]');
      await expect.poll(() => charts.count()).toBeGreaterThanOrEqual(2);
      for (const chart of await charts.all()) {
        expect(await chart.textContent()).toMatch(/GiB/);
        expect(await chart.textContent()).not.toMatch(/\bGB\b|RTX 4090/);
      }
      expect(await root.locator('td').first().textContent()).toMatch(/GiB/);
    });
  });

  test('Custom… starts from the picked model: its family, count and head stay, shown next to the model, as the CLI computes them', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(page, baseUrl + lessonHref('putting-it-together'), '[data-calculator="stack"]');
      const picker = root.locator('[data-flag="model"]');
      const shownParams = root.locator('[data-params]');
      await picker.selectOption('qwen2.5-7b');
      await expect.poll(() => shownParams.textContent()).toContain('(qwen2)');
      const presetParams = await shownParams.getAttribute('data-params');
      await picker.selectOption('custom');
      await expect.poll(() => root.locator('[data-flag="hidden"]').inputValue()).toBe('3584');
      await expect.poll(() => shownParams.textContent()).toContain('Custom shape from Qwen2.5 7B');
      expect(await shownParams.textContent()).toContain('(qwen2)');
      expect(await shownParams.getAttribute('data-params')).toBe(presetParams);
      await expect.poll(() => new URL(page.url()).searchParams.get('hidden')).toBe('3584');
      expect(Number(presetParams)).toBe(cliEstimate(new URL(page.url()).searchParams).params);

      // Its head: Qwen2.5 7B starts untied; tying drops lm_head (V·h), and a 2-label classification head adds score (2h).
      const tie = root.locator('[data-flag="tie-embeddings"]');
      expect(await tie.isChecked()).toBe(false);
      const lmHead = 152_064 * 3584;
      // A 7B shape's scenarios take the engine longer than expect.poll's default second on a busy machine.
      const recompute = { timeout: 15_000 };
      const shownCount = async () => Number(await shownParams.getAttribute('data-params'));
      await tie.check();
      await expect.poll(shownCount, recompute).toBe(Number(presetParams) - lmHead);
      await tie.uncheck();
      await expect.poll(() => new URL(page.url()).searchParams.get('tie-embeddings'), recompute).toBe('false');
      await root.locator('[data-flag="num-labels"]').fill('2');
      const labelled = Number(presetParams) - lmHead + 2 * 3584;
      await expect.poll(shownCount, recompute).toBe(labelled);
      // The link is written after the figure is drawn: wait for it before asking the CLI about it.
      await expect.poll(() => new URL(page.url()).searchParams.get('num-labels'), recompute).toBe('2');
      expect(cliEstimate(new URL(page.url()).searchParams).params).toBe(labelled);
      const labels = root.locator('label', { has: page.locator('[data-flag="num-labels"]') });
      await root.locator('[data-flag="num-labels"]').fill('0');
      await expect.poll(() => labels.locator('[role="alert"]').textContent(), recompute).toMatch(/num-labels/);
    });
  });

  test('a bad value shows a message next to its field; the last result stays, dimmed, without a total', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(page, baseUrl + lessonHref('parallelism'), '[data-calculator="parallelism"]');
      const label = root.locator('label', { has: page.locator('[data-flag="dp"]') });
      await label.locator('input').fill('0');
      await expect.poll(() => label.locator('[role="alert"]').textContent()).toMatch(/dp/i);
      expect(await root.getAttribute('data-total-bytes')).toBeNull();
      expect(await root.locator('.calc-results.calc-stale').count()).toBe(1);
      expect(await root.textContent()).not.toMatch(/NaN|Infinity/);
    });
  });
});
