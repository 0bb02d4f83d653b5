import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { planMain } from '../../src/cli/plan-main';
import { seriousAxeViolations } from './support/axe';
import { launchBrowser, openIsland, openRecordingPage } from './support/browser';
import { checkPhoneLayout, PHONE } from './support/phone-layout';

/**
 * The planner page in Chromium: fill the fields, read the ranked plans (the same, in the same order,
 * as `plan --json` prints for the query the page wrote), open a plan's link, and see a bad value
 * answered next to its field.
 */
const baseUrl = inject('baseUrl');
const SELECTOR = '[data-planner]';

interface CliPlan {
  perGpu: { total: number };
  stepTimeSeconds: number;
}

/** What `plan --json` answers for a page query in the plan flag vocabulary. */
function cliPlans(query: URLSearchParams): CliPlan[] {
  const argv = [...query]
    .filter(([name]) => name !== 'plan')
    .flatMap(([name, value]) => (value === 'true' ? [`--${name}`] : [`--${name}`, value]));
  const { code, stdout, stderr } = planMain([...argv, '--json']);
  expect(code, stderr).toBe(0);
  return (JSON.parse(stdout) as { plans: CliPlan[] }).plans;
}

async function waitDone(page: Page): Promise<void> {
  await page.waitForFunction((sel) => document.querySelector<HTMLElement>(sel)?.dataset['state'] === 'done', SELECTOR, {
    timeout: 60_000,
  });
}

async function field(root: Locator, name: string): Promise<Locator> {
  return root.locator('label', { hasText: `(${name})` }).locator('input, select');
}

describe('planner page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('filling the fields ranks the plans as plan --json does, and a plan link opens that plan', async () => {
    const { context, page, problems } = await openRecordingPage(browser, baseUrl);
    try {
      const root = await openIsland(page, `${baseUrl}/tools/planner/`, SELECTOR);
      await waitDone(page);
      // The worked case is the starting point: something fits on the RTX 4090.
      expect(Number(await root.getAttribute('data-plan-count'))).toBeGreaterThan(0);
      // The renting checkbox sits on the line of its label, not centred above it.
      const rent = root.locator('label.calc-check');
      const [box, words] = await Promise.all([rent.locator('input').boundingBox(), rent.locator('span').boundingBox()]);
      if (box === null || words === null) throw new Error('the renting checkbox and its words are drawn');
      expect(box.x).toBeLessThan(words.x);
      expect(Math.abs(box.y + box.height / 2 - (words.y + words.height / 2))).toBeLessThan(4);

      await root.locator('label', { hasText: 'Model' }).first().locator('select').selectOption('gpt2-large');
      await (await field(root, 'global-batch')).fill('8');
      await (await field(root, 'seq')).fill('1024');
      await (await field(root, 'task')).selectOption('pretrain');
      await expect.poll(() => new URL(page.url()).searchParams.get('model')).toBe('gpt2-large');
      await expect.poll(() => new URL(page.url()).searchParams.get('global-batch')).toBe('8');
      await waitDone(page);

      const query = new URL(page.url()).searchParams;
      const expected = cliPlans(query);
      expect(Number(await root.getAttribute('data-plan-count'))).toBe(expected.length);
      const rows = root.locator('tr[data-plan-key]');
      await expect.poll(() => rows.count()).toBe(Math.min(10, expected.length));
      for (let i = 0; i < 3; i++) {
        const row = rows.nth(i);
        expect(Number(await row.getAttribute('data-total-bytes'))).toBe(expected[i]?.perGpu.total);
        expect(Number(await row.getAttribute('data-step-seconds'))).toBe(expected[i]?.stepTimeSeconds);
      }
      const text = (await root.textContent()) ?? '';
      expect(text).not.toMatch(/NaN|undefined|(?<!ZeRO-)Infinity/);

      // Details show the breakdown and the estimate command; the link opens the plan.
      const second = rows.nth(1);
      await second.locator('button').click();
      await expect
        .poll(() => root.locator('.planner-details').first().textContent())
        .toMatch(/npm run --silent estimate -- --model gpt2-large/);
      const key = await second.getAttribute('data-plan-key');
      const total = await second.getAttribute('data-total-bytes');
      const href = await second.locator('a[data-plan-link]').getAttribute('href');
      expect(href).toContain('plan=');
      await page.goto(new URL(href ?? '', baseUrl).toString());
      const shared = page.locator('[data-selected-plan]');
      await waitDone(page);
      await expect.poll(() => shared.getAttribute('data-selected-plan')).toBe(key);
      expect(await shared.getAttribute('data-total-bytes')).toBe(total);
      expect(await seriousAxeViolations(page), 'serious or critical axe violations').toEqual([]);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
      expect(problems.offsiteRequests).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a bad value gets a message next to its field and no plans', async () => {
    const { context, page, problems } = await openRecordingPage(browser, baseUrl);
    try {
      const root = await openIsland(page, `${baseUrl}/tools/planner/`, SELECTOR);
      const gpus = root.locator('label', { hasText: '(gpus)' });
      await gpus.locator('input').fill('0');
      await expect.poll(() => gpus.locator('[role="alert"]').textContent()).toMatch(/gpus must be a whole number/);
      expect(await root.getAttribute('data-state')).toBe('invalid');
      expect(await root.locator('tr[data-plan-key]').count()).toBe(0);
      const price = root.locator('tr[data-price-gpu="h100-80gb"] input').first();
      await gpus.locator('input').fill('1');
      await price.fill('abc');
      await expect
        .poll(() => root.locator('tr[data-price-gpu="h100-80gb"] [role="alert"]').textContent())
        .toMatch(/prices must be numbers/);
      expect(problems.pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('at 390 px the ranked plans scroll inside their box and the page never scrolls sideways', async () => {
    const { context, page } = await openRecordingPage(browser, baseUrl);
    try {
      await page.setViewportSize(PHONE);
      await openIsland(page, `${baseUrl}/tools/planner/`, SELECTOR);
      await waitDone(page);
      expect(
        (await checkPhoneLayout(page)).filter((p) => p.includes('page scrolls') || p.includes('not in a focusable scroll box')),
      ).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('nothing fits: the page names the smallest gap', async () => {
    const { context, page } = await openRecordingPage(browser, baseUrl);
    try {
      await openIsland(
        page,
        `${baseUrl}/tools/planner/?model=llama-3-70b&gpu=t4&global-batch=1&seq=4096&max-host-gb=64&no-rent=true`,
        SELECTOR,
      );
      await waitDone(page);
      const shortfall = page.locator('[data-shortfall-bytes]');
      const expected = JSON.parse(
        planMain([
          '--model',
          'llama-3-70b',
          '--gpu',
          't4',
          '--global-batch',
          '1',
          '--seq',
          '4096',
          '--max-host-gb',
          '64',
          '--no-rent',
          '--json',
        ]).stdout,
      ) as { shortfall: number };
      expect(Number(await shortfall.getAttribute('data-shortfall-bytes'))).toBe(expected.shortfall);
      expect(await page.locator('tr[data-plan-key]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
