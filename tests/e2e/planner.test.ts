import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { runCommand } from '../../src/cli/command';
import { planCommand } from '../../src/cli/plan-command';
import { flagArgs } from '../../src/memory/index';
import { planKey } from '../../src/planner/index';
import { seriousAxeViolations } from './support/axe';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';
import { checkPhoneLayout, PHONE } from './support/phone-layout';

/**
 * The planner page in Chromium: fill the fields, read the ranked plans (the same, in the same order,
 * as `plan --json` prints for the query the page wrote), open a plan's link, and see a bad value
 * answered next to its field.
 */
const baseUrl = inject('baseUrl');
const SELECTOR = '[data-planner]';

interface CliPlan {
  flags: Record<string, string>;
  hardware: { gpu: string };
  perGpu: { total: number };
  stepTimeSeconds: number;
  run: { seconds: { value: number } } | null;
}

interface CliAnswer {
  plans: CliPlan[];
  /** Each group's members' ranks, simplest first. */
  groups: { ranks: number[] }[];
  shortfall: number | null;
}

/** What `plan --json` answers for a page query in the plan flag vocabulary. */
function cliAnswer(query: URLSearchParams): CliAnswer {
  const argv = flagArgs([...query].filter(([name]) => name !== 'plan'));
  const { code, stdout, stderr } = runCommand(planCommand, [...argv, '--json']);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as CliAnswer;
}

/** The plans leading the CLI's groups, in group order: the rows the page shows. */
function groupLeaders(answer: CliAnswer): (CliPlan & { rank: number })[] {
  return answer.groups.map(({ ranks }) => {
    const rank = ranks[0] ?? 0;
    const plan = answer.plans[rank - 1];
    if (plan === undefined) throw new Error(`no plan of rank ${rank}`);
    return { ...plan, rank };
  });
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
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
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
      const answer = cliAnswer(query);
      expect(Number(await root.getAttribute('data-plan-count'))).toBe(answer.plans.length);
      // One row per group of plans within the step-time band, led by the simplest, as plan --json groups them.
      const expected = groupLeaders(answer);
      const rows = root.locator('tr[data-group]');
      await expect.poll(() => rows.count()).toBe(Math.min(10, expected.length));
      expect(expected.length).toBeGreaterThan(1);
      for (let i = 0; i < Math.min(3, expected.length); i++) {
        const row = rows.nth(i);
        expect(Number(await row.getAttribute('data-rank'))).toBe(expected[i]?.rank);
        expect(Number(await row.getAttribute('data-total-bytes'))).toBe(expected[i]?.perGpu.total);
        expect(Number(await row.getAttribute('data-step-seconds'))).toBe(expected[i]?.stepTimeSeconds);
      }
      // A group of several opens to list its other members, by rank, simplest first, as the CLI lists them.
      const grouped = answer.groups.findIndex((g) => g.ranks.length > 1);
      expect(grouped).toBeGreaterThanOrEqual(0);
      if (grouped < 10) {
        const members = root.locator('tr.planner-member');
        await root.locator(`tr[data-group-members="${grouped + 1}"] button`).click();
        await expect.poll(() => members.count()).toBe((answer.groups[grouped]?.ranks.length ?? 0) - 1);
        const ranks = await Promise.all((await members.all()).map(async (m) => Number(await m.getAttribute('data-rank'))));
        expect(ranks).toEqual(answer.groups[grouped]?.ranks.slice(1));
        expect(await root.locator(`tr[data-group-members="${grouped + 1}"]`).textContent()).toMatch(/They differ in /);
        await root.locator(`tr[data-group-members="${grouped + 1}"] button`).click();
        await expect.poll(() => members.count()).toBe(0);
      }
      const text = (await root.textContent()) ?? '';
      expect(text).not.toMatch(/NaN|undefined|(?<!ZeRO-)Infinity/);

      // Details show the breakdown and the estimate command; the link opens the plan.
      const second = rows.nth(1);
      await second.locator('button').click();
      await expect
        .poll(() => root.locator('.planner-details').first().textContent())
        .toMatch(/npx gpu-memory-lab estimate --model gpt2-large/);
      // The step's parts print as shares of the banded step, never as bare seconds.
      const details = (await root.locator('.planner-details').first().textContent()) ?? '';
      expect(details).toMatch(/compute \d+ %/);
      expect(details).not.toMatch(/compute [\d.]+ (ms|s)\b/);
      const key = await second.getAttribute('data-plan-key');
      const total = await second.getAttribute('data-total-bytes');
      // Its step timeline, drawn once the chart has loaded: one moment reaches the plan's total, none more.
      const timeline = root.locator('.planner-details [role="img"]').first();
      await expect.poll(() => timeline.getAttribute('aria-label'), { timeout: 10_000 }).toMatch(/^One step, moment by moment: /);
      const moments = [...((await timeline.getAttribute('aria-label')) ?? '').matchAll(/([\d.]+) GiB/g)].map((m) => Number(m[1]));
      expect(moments.length).toBeGreaterThanOrEqual(4);
      expect(Math.max(...moments)).toBe(Number((Number(total) / 2 ** 30).toFixed(2)));
      const href = await second.locator('a[data-plan-link]').getAttribute('href');
      expect(href).toContain('plan=');
      await page.goto(new URL(href ?? '', baseUrl).toString());
      const shared = page.locator('[data-selected-plan]');
      await waitDone(page);
      await expect.poll(() => shared.getAttribute('data-selected-plan')).toBe(key);
      expect(await shared.getAttribute('data-total-bytes')).toBe(total);
      // It opens with the plan in view: scrolled to, and its row in the table marked as the linked one.
      await expect
        .poll(() => shared.evaluate((el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().top < innerHeight))
        .toBe(true);
      expect(await page.locator(`tr[data-plan-key="${key}"]`).first().getAttribute('aria-current')).toBe('true');
      expect(await seriousAxeViolations(page), 'serious or critical axe violations').toEqual([]);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
      expect(problems.offsiteRequests).toEqual([]);
    });
  });

  test('a shared link keeps its prices, ranks by them, and opening it runs one search', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      // Each search started while another runs replaces the workers; one search on opening starts them once.
      let workersStarted = 0;
      page.on('worker', () => (workersStarted += 1));
      const link =
        `${baseUrl}/tools/planner/?model=gpt2-xl&gpu=rtx-4090&global-batch=4&seq=512&task=finetune&rank-by=step-cost` +
        '&price=rtx-4090%3D0.4%2F0.3%2F0.2&price=h100-80gb%3Dnone&price=h900%3D1%2F1%2F1';
      const root = await openIsland(page, link, SELECTOR);
      await waitDone(page);
      const row = (gpu: string) => root.locator(`tr[data-price-gpu="${gpu}"] input`);
      expect(await Promise.all([0, 1, 2].map((i) => row('rtx-4090').nth(i).inputValue()))).toEqual(['0.4', '0.3', '0.2']);
      expect(await Promise.all([0, 1, 2].map((i) => row('h100-80gb').nth(i).inputValue()))).toEqual(['', '', '']);
      // The price the link gives for no GPU preset is reported, not used.
      expect(await root.locator('[data-unread-prices]').textContent()).toMatch(/unknown gpu 'h900'/);

      // The same plans, in the same order, as the CLI gives for the link's prices (no H100 among them).
      const query = new URLSearchParams(new URL(link).search);
      query.delete('price', 'h900=1/1/1');
      const answer = cliAnswer(query);
      const expected = groupLeaders(answer);
      expect(Number(await root.getAttribute('data-plan-count'))).toBe(answer.plans.length);
      const rows = root.locator('tr[data-group]');
      for (let i = 0; i < Math.min(3, expected.length); i++) {
        expect(Number(await rows.nth(i).getAttribute('data-step-seconds'))).toBe(expected[i]?.stepTimeSeconds);
        expect(Number(await rows.nth(i).getAttribute('data-total-bytes'))).toBe(expected[i]?.perGpu.total);
      }
      expect(answer.plans.filter((plan) => plan.hardware.gpu === 'h100-80gb')).toEqual([]);
      expect(workersStarted).toBe(Number(await root.locator('[data-search-ms]').getAttribute('data-workers')));
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('your GPUs’ plans come first; rented GPUs are a section of their own below, and only with rent=true', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/tools/planner/`, SELECTOR);
      await waitDone(page);
      // The reader's GPUs alone by default.
      expect(
        await root.locator('[data-plan-section]').evaluateAll((all) => all.map((s) => s.getAttribute('data-plan-section'))),
      ).toEqual(['own']);
      await root.locator('label.calc-check', { hasText: 'Compare renting' }).locator('input').check();
      await expect.poll(() => new URL(page.url()).searchParams.get('rent')).toBe('true');
      await waitDone(page);
      await expect
        .poll(() => root.locator('[data-plan-section]').evaluateAll((all) => all.map((s) => s.getAttribute('data-plan-section'))))
        .toEqual(['own', 'rented']);
      const rentedIn = (section: string) =>
        root
          .locator(`[data-plan-section="${section}"] tr[data-group]`)
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-rented')));
      const own = await rentedIn('own');
      const rented = await rentedIn('rented');
      expect(own.length).toBeGreaterThan(0);
      expect(rented.length).toBeGreaterThan(0);
      expect(own.every((r) => r === 'false')).toBe(true);
      expect(rented.every((r) => r === 'true')).toBe(true);
      // The same groups, in the same order, as plan --rent --json: the reader's first.
      const expected = groupLeaders(cliAnswer(new URL(page.url()).searchParams));
      const ranks = await root
        .locator('tr[data-group]')
        .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-rank'))));
      expect(ranks[0]).toBe(expected[0]?.rank);
      expect(ranks[own.length]).toBe(expected.find((plan) => plan.hardware.gpu !== 'rtx-4090')?.rank);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a token budget adds the whole run to every plan: its time as plan --train-tokens --json computes it', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const link = `${baseUrl}/tools/planner/?model=gpt2-xl&gpu=rtx-4090&global-batch=4&seq=512&task=finetune&train-tokens=1000000000&rent=true`;
      const root = await openIsland(page, link, SELECTOR);
      await waitDone(page);
      expect(await (await field(root, 'train-tokens')).inputValue()).toBe('1000000000');
      const answer = cliAnswer(new URL(link).searchParams);
      const expected = groupLeaders(answer);
      const cells = root.locator('tr[data-group] td.planner-run');
      expect(await cells.count()).toBe(await root.locator('tr[data-group]').count());
      for (let i = 0; i < Math.min(3, expected.length); i++)
        expect(Number(await cells.nth(i).getAttribute('data-run-seconds'))).toBe(expected[i]?.run?.seconds.value);
      expect((await cells.first().textContent()) ?? '').toMatch(/\(.+–.+\)/);
      await root.locator('tr[data-group] button').first().click();
      await expect.poll(() => root.locator('.planner-details [data-run-steps]').first().textContent()).toMatch(/steps · /);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a shared link to a plan inside a group opens that group, the plan marked and in view', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const query = 'model=gpt2-xl&gpu=rtx-4090&global-batch=4&seq=512&task=finetune';
      const answer = cliAnswer(new URLSearchParams(query));
      // The last member of the last group of several: hidden in its group, past the first page where there are more.
      const group = answer.groups.findLast((g) => g.ranks.length > 1);
      const member = answer.plans[(group?.ranks.at(-1) ?? 0) - 1];
      if (member === undefined) throw new Error('the worked case has a group of several plans');
      const key = planKey(member.flags);
      await openIsland(page, `${baseUrl}/tools/planner/?${query}&plan=${encodeURIComponent(key)}`, SELECTOR);
      await waitDone(page);
      const row = page.locator(`tr[data-plan-key="${key}"]`);
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.getAttribute('aria-current')).toBe('true');
      expect(await row.getAttribute('class')).toBe('planner-member');
      const shared = page.locator('[data-selected-plan]');
      await expect
        .poll(() => shared.evaluate((el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().top < innerHeight))
        .toBe(true);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a hand-written link gets the page’s model, GPU and batch where it leaves them out; an unknown GPU shows as it is', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/tools/planner/?model=gpt2-large&seq=256`, SELECTOR);
      await waitDone(page);
      expect(await root.locator('label', { hasText: 'Model' }).first().locator('select').inputValue()).toBe('gpt2-large');
      expect(await (await field(root, 'global-batch')).inputValue()).toBe('4');
      expect(Number(await root.getAttribute('data-plan-count'))).toBeGreaterThan(0);

      await openIsland(page, `${baseUrl}/tools/planner/?gpu=h900`, SELECTOR);
      const gpu = root.locator('label', { hasText: 'Your GPU' }).locator('select');
      await expect
        .poll(() => gpu.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent))
        .toBe('h900 (not a choice)');
      expect(await root.getAttribute('data-state')).toBe('invalid');
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('allow-lossy in a link ticks its box and adds the lossy plans, each labelled', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const link = `${baseUrl}/tools/planner/?model=gpt2-large&gpu=rtx-4090&global-batch=8&seq=1024&task=pretrain&no-rent=true`;
      const root = await openIsland(page, `${link}&allow-lossy=true`, SELECTOR);
      await waitDone(page);
      const box = root.locator('label.calc-check', { hasText: 'change the training numerics' }).locator('input');
      expect(await box.isChecked()).toBe(true);
      const lossy = cliAnswer(new URL(`${link}&allow-lossy=true`).searchParams);
      expect(Number(await root.getAttribute('data-plan-count'))).toBe(lossy.plans.length);
      await box.uncheck();
      await expect.poll(() => new URL(page.url()).searchParams.get('allow-lossy')).toBeNull();
      // The old link's no-rent=true meant what is now the default: it is read, and never written back.
      expect(new URL(page.url()).searchParams.get('no-rent')).toBeNull();
      await waitDone(page);
      const standard = cliAnswer(new URL(link).searchParams);
      await expect.poll(async () => Number(await root.getAttribute('data-plan-count'))).toBe(standard.plans.length);
      expect(standard.plans.length).toBeLessThan(lossy.plans.length);
      expect(await root.locator('[data-changes-numerics]').count()).toBe(0);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a bad value gets a message next to its field and no plans', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/tools/planner/`, SELECTOR);
      const gpus = root.locator('label', { hasText: '(gpus)' });
      await gpus.locator('input').fill('0');
      await expect.poll(() => gpus.locator('[role="alert"]').textContent()).toMatch(/gpus must be at least 1, got 0/);
      expect(await root.getAttribute('data-state')).toBe('invalid');
      expect(await root.locator('tr[data-plan-key]').count()).toBe(0);
      const price = root.locator('tr[data-price-gpu="h100-80gb"] input').first();
      await gpus.locator('input').fill('1');
      await price.fill('abc');
      await expect
        .poll(() => root.locator('tr[data-price-gpu="h100-80gb"] [role="alert"]').textContent())
        .toMatch(/prices must be numbers/);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('at 390 px the ranked plans scroll inside their box and the page never scrolls sideways', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      await page.setViewportSize(PHONE);
      await openIsland(page, `${baseUrl}/tools/planner/`, SELECTOR);
      await waitDone(page);
      expect(
        (await checkPhoneLayout(page)).filter((p) => p.includes('page scrolls') || p.includes('not in a focusable scroll box')),
      ).toEqual([]);
      // What plans are ranked by is in view before any sideways scroll.
      const box = await page.locator('.planner-plans-box').first().boundingBox();
      const first = page.locator('tr[data-plan-key]').first();
      for (const cell of [first.locator('td.planner-step'), first.locator('td.planner-cost')]) {
        const shown = await cell.boundingBox();
        if (box === null || shown === null) throw new Error('the plans box and its first row are drawn');
        expect(shown.x + shown.width).toBeLessThanOrEqual(box.x + box.width + 1);
      }
    });
  });

  test('on a laptop every plan shows its figures, link and techniques without scrolling; on a phone its techniques wrap in view', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await openIsland(page, `${baseUrl}/tools/planner/`, SELECTOR);
      await waitDone(page);
      const box = page.locator('.planner-plans-box');
      const overflow = () => box.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(await overflow()).toBeLessThanOrEqual(1);
      // The techniques are a line of their own under the figures, not a column beside them.
      const first = page.locator('tr[data-plan-key]').first();
      const techniques = page.locator('td.planner-techniques').first();
      const [row, line] = await Promise.all([first.boundingBox(), techniques.boundingBox()]);
      if (row === null || line === null) throw new Error('the first plan and its techniques are drawn');
      expect(line.y).toBeGreaterThanOrEqual(row.y + row.height - 1);

      await page.setViewportSize(PHONE);
      expect(await overflow()).toBeGreaterThan(0);
      const [shown, text] = await Promise.all([box.boundingBox(), techniques.locator('.planner-in-view').boundingBox()]);
      if (shown === null || text === null) throw new Error('the box and the techniques are drawn');
      expect(text.x + text.width).toBeLessThanOrEqual(shown.x + shown.width);
    });
  });

  test('nothing fits: the page names the smallest gap', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      const link = `${baseUrl}/tools/planner/?model=llama-3-70b&gpu=t4&global-batch=1&seq=4096&max-host-gb=64&no-rent=true`;
      await openIsland(page, link, SELECTOR);
      await waitDone(page);
      const shortfall = page.locator('[data-shortfall-bytes]');
      const expected = cliAnswer(new URL(link).searchParams);
      expect(expected.shortfall).toBeGreaterThan(0);
      expect(Number(await shortfall.getAttribute('data-shortfall-bytes'))).toBe(expected.shortfall);
      expect(await page.locator('tr[data-plan-key]').count()).toBe(0);
    });
  });
});
