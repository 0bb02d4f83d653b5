import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { runCommand } from '../../src/cli/command';
import { diagnoseCommand } from '../../src/cli/diagnose-command';
import { seriousAxeViolations } from './support/axe';
import { dropOnTool } from './support/diagnose-drop';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';

/**
 * Each diagnose tool reads a dropped file in the page and shows what the CLI computes for the
 * same file, without a single request while the file is analysed; the crafted pickle is refused.
 */
const baseUrl = inject('baseUrl');
/** A shipped example's path (the inputs the tool pages offer). */
const example = (name: string) => resolve(import.meta.dirname, '../../src/diagnose/examples', name);
/** A test-only fixture's path. */
const fixture = (name: string) => resolve(import.meta.dirname, '../fixtures/diagnose', name);

/** A real paste's path (tests/fixtures/diagnose/README.md names each source). */
const paste = (name: string) => fixture(`pastes/${name}`);

/** What `diagnose --json` prints for an example (or, with `pathOf`, another file): the reference the page must agree with. */
function cliJson(
  name: string,
  flags: readonly string[] = [],
  pathOf: (name: string) => string = example,
): Record<string, unknown> {
  const { code, stdout, stderr } = runCommand(diagnoseCommand, [name, ...flags, '--json'], {
    read: (file) => new Uint8Array(readFileSync(pathOf(file))),
  });
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** Records every request the page (and its workers) makes from now on. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** Drops the file at `file` on the tool at `path` and records the requests the drop alone makes. */
async function dropFile(page: Page, path: string, tool: string, file: string): Promise<{ requests: string[] }> {
  let requests: string[] = [];
  await dropOnTool(page, baseUrl + path, tool, file, () => {
    requests = recordRequests(page);
  });
  return { requests };
}

describe('diagnose tools', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test("nvidia-smi: a dropped two-GPU log gets the CLI's verdicts and peaks, a chart, and no request", async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const { requests } = await dropFile(page, '/tools/nvidia-smi/', 'nvidia-smi', example('nvidia-smi-leak.csv'));
      const shown = await page.$$eval('[data-tool="nvidia-smi"] [data-gpu]', (els) =>
        els.map((el) => ({
          index: Number(el.getAttribute('data-gpu')),
          verdict: el.getAttribute('data-verdict'),
          peakUsedBytes: Number(el.getAttribute('data-peak-used-bytes')),
        })),
      );
      const cli = cliJson('nvidia-smi-leak.csv')['gpus'] as { index: number; verdict: string; peakUsedBytes: number }[];
      expect(shown).toEqual(cli.map(({ index, verdict, peakUsedBytes }) => ({ index, verdict, peakUsedBytes })));
      await expect.poll(() => page.locator('[data-chart="memory"] > [role="img"]').count()).toBe(1);
      expect(await page.locator('[data-chart="memory"] svg path').count()).toBeGreaterThan(0);
      expect(requests).toEqual([]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test("oom-message: a dropped message shows the CLI's figures and ranks expandable_segments first, no request", async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const { requests } = await dropFile(page, '/tools/oom-message/', 'oom-message', example('oom-current.txt'));
      const cli = cliJson('oom-current.txt');
      const table = page.locator('[data-tool="oom-message"] table');
      expect(Number(await table.getAttribute('data-tried-bytes'))).toBe(cli['triedToAllocateBytes']);
      expect(Number(await table.getAttribute('data-reserved-unallocated-bytes'))).toBe(cli['reservedUnallocatedBytes']);
      const remedies = (await page.locator('[data-remedies]').getAttribute('data-remedies'))?.split(' ');
      expect(remedies).toEqual((cli['remedies'] as { id: string }[]).map((r) => r.id));
      expect(remedies?.[0]).toBe('expandable-segments');
      expect(requests).toEqual([]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test("oom-message: a real traceback's phase is shown, and the GPUs field ranks as diagnose --gpus does", async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      await dropFile(page, '/tools/oom-message/', 'oom-message', paste('09-backward-2.txt'));
      const root = page.locator('[data-tool="oom-message"]');
      const ids = async () => (await root.locator('[data-remedies]').getAttribute('data-remedies'))?.split(' ');
      const cliIds = (flags: string[]) =>
        (cliJson('09-backward-2.txt', flags, paste)['remedies'] as { id: string }[]).map((r) => r.id);
      const traceback = cliJson('09-backward-2.txt', [], paste)['traceback'] as { phase: string };
      expect(await root.locator('[data-phase]').getAttribute('data-phase')).toBe(traceback.phase);
      expect(await ids()).toEqual(cliIds([]));
      expect(await root.locator('[data-remedy="shard-model-states"]').getAttribute('data-condition')).toBe('several-gpus');
      await root.locator('[data-input="gpus"]').fill('8');
      await expect.poll(ids).toEqual(cliIds(['--gpus', '8']));
      expect(await root.locator('[data-remedy="shard-model-states"]').getAttribute('data-condition')).toBe('');
      await root.locator('[data-input="gpus"]').fill('1');
      await expect.poll(ids).toEqual(cliIds(['--gpus', '1']));
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('nvidia-smi: one pasted table gets no trend verdict, and its Processes table is listed', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      await dropFile(page, '/tools/nvidia-smi/', 'nvidia-smi', paste('07-table-1.txt'));
      // Polled: the verdicts render with the result, which can land a frame after the tool says it is done.
      const verdicts = () =>
        page.$$eval('[data-tool="nvidia-smi"] [data-gpu]', (els) => els.map((el) => el.getAttribute('data-verdict')));
      const expected = (cliJson('07-table-1.txt', [], paste)['gpus'] as { verdict: string }[]).map((g) => g.verdict);
      expect(expected).toEqual(['no-timeline', 'no-timeline']);
      await expect.poll(verdicts).toEqual(expected);
      await dropFile(page, '/tools/nvidia-smi/', 'nvidia-smi', paste('07-processes-1.txt'));
      const listed = () => page.locator('[data-tool="nvidia-smi"] [data-processes]').getAttribute('data-processes').then(Number);
      await expect.poll(listed).toBe((cliJson('07-processes-1.txt', [], paste)['processes'] as unknown[]).length);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('oom-message: pasted text is read too, text that is not an OOM message says so, and its command reads standard input', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(page, `${baseUrl}/tools/oom-message/`, '[data-tool="oom-message"]');
      await root.locator('textarea').fill('RuntimeError: expected scalar type Float but found Half');
      await root.locator('[data-action="analyse"]').click();
      await expect
        .poll(() => root.locator('[role="alert"]').textContent())
        .toMatch(/No CUDA, HIP or MPS "out of memory" message/);
      expect(await root.textContent()).not.toMatch(/NaN|Infinity/);
      // "Copy as command" for a paste: the terminal reads it from standard input.
      expect(await root.locator('[data-command]').textContent()).toBe('npx gpu-memory-lab diagnose -');
    });
  });

  test("memory-summary: a dropped summary shows the CLI's allocated and reserved bytes and a chart, no request", async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const { requests } = await dropFile(page, '/tools/memory-summary/', 'memory-summary', example('memory-summary.txt'));
      const cli = cliJson('memory-summary.txt');
      const results = page.locator('[data-tool="memory-summary"] .diag-results');
      expect(Number(await results.getAttribute('data-allocated-bytes'))).toBe(cli['allocatedBytes']);
      expect(Number(await results.getAttribute('data-reserved-bytes'))).toBe(cli['reservedBytes']);
      await expect.poll(() => page.locator('[data-chart="summary"] > [role="img"]').count()).toBe(1);
      expect(await page.locator('[data-chart="summary"] svg path').count()).toBeGreaterThan(0);
      expect(requests).toEqual([]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('snapshot: a dropped pickle is read in the worker; peak and OOM events match the CLI, charts drawn, no request', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const { requests } = await dropFile(page, '/tools/snapshot/', 'snapshot', fixture('snapshot-oom.pickle'));
      const cli = cliJson('snapshot-oom.pickle', [], fixture);
      const results = page.locator('[data-tool="snapshot"] .diag-results');
      expect(Number(await results.getAttribute('data-peak-active-bytes'))).toBe(cli['peakActiveBytes']);
      expect(Number(await results.getAttribute('data-oom-events'))).toBe((cli['oomEvents'] as unknown[]).length);
      await expect.poll(() => page.locator('[data-chart="timeline"] > [role="img"]').count()).toBe(1);
      expect(await page.locator('[data-chart="timeline"] svg path').count()).toBeGreaterThan(0);
      await expect.poll(() => page.locator('[data-chart="segments"] > [role="img"]').count()).toBe(1);
      expect(await page.locator('[data-chart="segments"] svg path').count()).toBeGreaterThan(0);
      expect(await results.textContent()).toMatch(/model\.py:150 lm_head/);
      expect(requests).toEqual([]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('snapshot: the crafted pickle that would run os.system is refused with the opcode named', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const { requests } = await dropFile(page, '/tools/snapshot/', 'snapshot', fixture('snapshot-runs-code.pickle'));
      const alert = page.locator('[data-tool="snapshot"] [role="alert"]');
      expect(await page.locator('[data-tool="snapshot"]').getAttribute('data-state')).toBe('error');
      expect(await alert.getAttribute('data-refused')).toBe('true');
      expect(await alert.textContent()).toMatch(/Refused: refused opcode STACK_GLOBAL \(0x93\) at byte \d+/);
      expect(requests).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test("every tool's first example loads from this site and is read (and the request recorder sees that load)", async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const requests = recordRequests(page);
      for (const [path, tool] of [
        ['/tools/nvidia-smi/', 'nvidia-smi'],
        ['/tools/oom-message/', 'oom-message'],
        ['/tools/memory-summary/', 'memory-summary'],
        ['/tools/snapshot/', 'snapshot'],
      ] as const) {
        const selector = `[data-tool="${tool}"]`;
        const root = await openIsland(page, baseUrl + path, selector);
        await page.waitForSelector(`${selector}[data-worker="ready"]`);
        await root.locator('[data-example="0"]').click();
        await page.waitForFunction((sel) => document.querySelector<HTMLElement>(sel)?.dataset['state'] === 'done', selector);
        expect(await root.locator('[role="alert"]').count(), tool).toBe(0);
      }
      // The same recorder that finds no request while a file is analysed sees the examples being fetched.
      expect(requests.filter((url) => url.startsWith(baseUrl) && /nvidia-smi-leak\.[\w-]+\.csv$/.test(url))).toHaveLength(1);
      expect(problems.offsiteRequests).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });
});
