import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { readExperiment } from './support/after-run';
import { BROWSER_CONFIGS, launchBrowser, withRecordingPage, waitForHydration } from '../../scripts/browser/browser';
import { LESSONS, lessonHref } from '../../src/base/lessons';
import { LAB_METHOD_HREF, WASM_SECTION_HREF } from '../../src/components/lab/lab-links';
import { CLUSTER_EXPERIMENTS } from '../../src/lab/experiments/cluster/experiments';
import { SINGLE_EXPERIMENTS } from '../../src/lab/experiments/single/experiments';

/**
 * The experiment islands as a reader meets them: a Run pressed before hydration is
 * not lost, and an experiment that cannot run says so before Run without claiming anything ran.
 * What a run shows (the 16-bit fallback said before Run, the ratios printed honestly, no island
 * overflowing a 390 px phone after a run) is checked on the runs of single-experiments.test.ts,
 * cluster-experiments.test.ts and distillation.test.ts.
 */
const baseUrl = inject('baseUrl');

/**
 * One island of each kind (before/after `SingleExperiment`, `ClusterExperiment`,
 * `DistillationExperiment`), and of the before/after kind one that needs WebGPU and one that
 * falls back to WebAssembly. That covers the other islands: every kind renders through
 * ExperimentFrame, whose LabControls keep Run disabled until the island has hydrated and asked
 * for an adapter, and which turns "needs WebGPU, none here" into `unsupported` before Run; the
 * kinds differ only in what a run does and shows, and every island is `client:visible` below the
 * fold of its page (content/docs/lessons/*.mdx).
 */
const ISLANDS = [
  { id: 'leak', path: lessonHref('diagnose-your-run'), needsWebGpu: true },
  { id: 'gradient-accumulation', path: lessonHref('gradient-accumulation'), needsWebGpu: false },
  { id: 'data-parallel', path: lessonHref('parallelism'), needsWebGpu: true },
  { id: 'distillation', path: lessonHref('distillation-and-compression'), needsWebGpu: false },
] as const;

const selectorOf = (id: string): string => `[data-experiment="${id}"]`;

describe.each(BROWSER_CONFIGS)('a Run pressed before hydration, with $name', (config) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser(config);
  });
  afterAll(() => browser?.close());

  test.each(ISLANDS)(
    '$id: the early click neither reloads the page nor is taken for a run; once ready, Run works or says why not',
    async ({ id, path, needsWebGpu }) => {
      await withRecordingPage(browser, baseUrl, async (page, problems) => {
        const selector = selectorOf(id);
        await page.goto(baseUrl + path, { waitUntil: 'domcontentloaded' });
        // In one task: the island is still server-rendered (client:visible, below the fold), a marker
        // that a reload would wipe is set, and Run is clicked as a reader would.
        const early = await page.evaluate((sel) => {
          const root = document.querySelector<HTMLElement>(sel);
          const button = root?.querySelector<HTMLButtonElement>('[data-action="run"]');
          const island = root?.closest('astro-island');
          (window as Window & { labMarker?: boolean }).labMarker = true;
          const serverRendered = island?.hasAttribute('ssr') ?? false;
          button?.click();
          return { serverRendered, disabled: button?.disabled ?? null };
        }, selector);
        expect(early.serverRendered, 'the click came before hydration').toBe(true);
        expect(early.disabled, 'Run is disabled until the island is ready').toBe(true);

        await page.locator(selector).scrollIntoViewIfNeeded();
        await waitForHydration(page, selector);
        await page.waitForFunction((sel) => document.querySelector(sel)?.hasAttribute('data-sizes'), selector);
        expect(
          await page.evaluate(() => (window as Window & { labMarker?: boolean }).labMarker),
          'the page was not reloaded',
        ).toBe(true);

        const run = page.locator(`${selector} [data-action="run"]`);
        const data = await readExperiment(page.locator(selector));
        // What WebAssembly will and will not show, said before Run, links to the method page's section on it.
        const wasmLinks = await page
          .locator(`${selector} [data-wasm-link]`)
          .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
        expect(wasmLinks).toEqual(config.webgpu ? [] : [WASM_SECTION_HREF]);
        if (needsWebGpu && !config.webgpu) {
          // Known before Run, and nothing ran: no "ran through WebAssembly", no "Run again".
          expect(data['state']).toBe('unsupported');
          expect(data['text']).toContain('Needs WebGPU');
          expect(data['text']).not.toMatch(/\bran\b/);
          expect(await run.textContent()).toBe('Run');
          expect(await run.isDisabled()).toBe(true);
        } else {
          expect(data['state'], 'the early click started nothing').toBe('idle');
          expect(await run.isEnabled()).toBe(true);
          await run.click();
          await page.waitForFunction((sel) => document.querySelector<HTMLElement>(sel)?.dataset['state'] !== 'idle', selector);
          expect(['running', 'done']).toContain((await readExperiment(page.locator(selector)))['state']);
        }
        expect(problems.pageErrors).toEqual([]);
      });
    },
  );
});

describe('every experiment links to "How the lab measures"', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser(BROWSER_CONFIGS[1]);
  });
  afterAll(() => browser?.close());

  test('once each, near its columns, and the page has the section the WebAssembly notes link to', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const linksByExperiment = new Map<string, (string | null)[]>();
      for (const lesson of LESSONS) {
        await page.goto(baseUrl + lessonHref(lesson.slug), { waitUntil: 'domcontentloaded' });
        const found = await page.locator('[data-experiment]').evaluateAll((roots) =>
          roots.map((root) => ({
            id: root.getAttribute('data-experiment') ?? '',
            hrefs: [...root.querySelectorAll('[data-lab-method]')].map((link) => link.getAttribute('href')),
          })),
        );
        for (const { id, hrefs } of found) linksByExperiment.set(id, hrefs);
      }
      const everyExperiment = [...Object.keys(SINGLE_EXPERIMENTS), ...Object.keys(CLUSTER_EXPERIMENTS), 'distillation'];
      expect([...linksByExperiment.keys()].sort()).toEqual(everyExperiment.sort());
      for (const [id, hrefs] of linksByExperiment) expect(hrefs, id).toEqual([LAB_METHOD_HREF]);

      const [path, section] = WASM_SECTION_HREF.split('#');
      expect(path).toBe(LAB_METHOD_HREF);
      const response = await page.goto(baseUrl + LAB_METHOD_HREF, { waitUntil: 'domcontentloaded' });
      expect(response?.status()).toBe(200);
      expect(await page.locator(`[id="${section}"]`).count()).toBe(1);
      expect(problems.pageErrors).toEqual([]);
    });
  });
});
