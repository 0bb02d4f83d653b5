import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MESSAGES } from '../../src/i18n/messages/index';
import type { OomCase } from '../../src/diagnose/oom-remedies';
import { parseNvidiaSmi } from '../../src/diagnose/nvidia-smi';
import { wordUnreadReason } from '../../src/diagnose/notes';
import { launchBrowser, withRecordingPage } from '../../scripts/browser/browser';
import { dropOnTool } from './support/diagnose-drop';
import { HAN } from '../support/chinese-text';

/**
 * The diagnose tools on their Chinese pages (issue #33, "a diagnose tool fed a file"): a real file dropped on each
 * of the four readers is read and explained in Chinese, and no English sentence of the tools'
 * catalogue is left in what the widget shows; the English page, fed the same file, still explains it in English.
 */
const baseUrl = inject('baseUrl');
const EN = MESSAGES.en.diagnose;
const ZH = MESSAGES['zh-cn'].diagnose;

const example = (name: string) => resolve(import.meta.dirname, '../../src/diagnose/examples', name);
const fixture = (name: string) => resolve(import.meta.dirname, '../fixtures/diagnose', name);

/** Stands for every figure a catalogue function is given, so the English around it can be cut out. */
const SAMPLE = '⟦sample⟧';
/** Facts objects with every field a sample, but those a remedy's wording branches on: each branch once. */
const SAMPLE_FACTS = [
  { strays: [], platform: 'cuda', condition: null, phase: null, gpus: null },
  { strays: [], platform: 'mps', condition: 'several-gpus', phase: 'generate', gpus: 4 },
].map((facts) => new Proxy(facts, { get: (target, key) => (key in target ? target[key as keyof typeof target] : SAMPLE) }));

/**
 * Every English phrase of `value` (the catalogue, walked): plain strings of two words or more, and the parts of what
 * each function builds, around the figures it is given, of three words or more (shorter pieces, "of", "GPU", are
 * also code and names a Chinese page keeps).
 */
function englishPhrases(value: unknown): string[] {
  if (typeof value === 'string') return /[A-Za-z]{2,}\W+[A-Za-z]{2,}/.test(value) ? [value] : [];
  if (typeof value === 'function') {
    const call = (args: unknown[]): unknown => {
      try {
        return (value as (...args: unknown[]) => unknown)(...args);
      } catch {
        // A function of figures given a facts object (or the reverse) cannot build its sentence: the other call does.
        return null;
      }
    };
    const built = [...SAMPLE_FACTS.map((facts) => [facts]), [SAMPLE, SAMPLE, SAMPLE, null]].map(call);
    return built
      .flatMap((out) => (typeof out === 'string' ? [out] : out === null ? [] : englishPhrases(out)))
      .flatMap((text) => text.split(/⟦sample⟧|undefined|null|\[object Object\]/))
      .map((part) => part.trim())
      .filter((part) => /[A-Za-z]{2,}\W+[A-Za-z]{2,}\W+[A-Za-z]{2,}/.test(part));
  }
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(englishPhrases);
  return [];
}

/** The tools' English phrases, once. */
const ENGLISH = [...new Set(englishPhrases(EN))];

/** A CSV log with one good row, a cut line, a size, a GPU number and a timestamp it cannot read. */
const MALFORMED_CSV = [
  'timestamp, index, memory.used [MiB], memory.total [MiB]',
  '2024/05/07 10:00:01.000, 0, 1000 MiB, 24564 MiB',
  '2024/05/07 10:00:02.000, 0, 1100 MiB, 24564 MiB',
  '2024/05/07 10:00:03.000, 0, lots, 24564 MiB',
  '2024/05/07 10:00:04.000, x, 1000 MiB, 24564 MiB',
  'yesterday, 0, 1000 MiB, 24564 MiB',
  '2024/05/07 10:00:05.000, 0',
].join('\n');

/** Drops the file at `file` on the tool at `path` and waits for the analysis. */
const dropFile = (page: Page, path: string, tool: string, file: string): Promise<Locator> =>
  dropOnTool(page, baseUrl + path, tool, file);

/** The catalogue's English phrases that `root` shows. */
async function englishShown(root: Locator): Promise<string[]> {
  const text = await root.innerText();
  return ENGLISH.filter((phrase) => text.includes(phrase));
}

describe('the diagnose tools in Chinese', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('the catalogue walk finds the English it must look for', () => {
    // Without this the checks below could pass by finding nothing to look for.
    expect(ENGLISH).toContain(EN.explain.cases.fragmentation);
    expect(ENGLISH.some((phrase) => phrase.includes('Expandable segments let the allocator'))).toBe(true);
  });

  test('the OOM reader explains a dropped message in Chinese, with no English sentence left', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await dropFile(page, '/zh-cn/tools/oom-message/', 'oom-message', example('oom-current.txt'));
      // Four GPUs turn the sharding advice from conditional to definite: its Chinese must follow.
      await root.locator('[data-input="gpus"]').fill('4');
      const verdict = root.locator('[data-case]');
      const oomCase = (await verdict.getAttribute('data-case')) as OomCase;
      expect(await verdict.innerText()).toContain(ZH.explain.cases[oomCase]);
      expect(await root.locator('[data-phase]').innerText()).toMatch(HAN);
      const remedies = root.locator('[data-remedy]');
      expect(await remedies.count()).toBeGreaterThan(0);
      for (const text of await remedies.allInnerTexts()) expect(text).toMatch(HAN);
      await expect.poll(() => root.locator('[data-remedy="shard-model-states"]').innerText()).toContain('4 张 GPU');
      expect(await root.locator('th[scope="row"]').first().innerText()).toBe(ZH.oom.rows.tried);
      expect(await englishShown(root)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('the snapshot reader explains a dropped pickle in Chinese, with no English sentence left', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await dropFile(page, '/zh-cn/tools/snapshot/', 'snapshot', fixture('snapshot-oom.pickle'));
      const results = root.locator('.diag-results');
      expect(Number(await results.getAttribute('data-oom-events'))).toBeGreaterThan(0);
      expect(await results.locator('h3').first().innerText()).toBe(ZH.snapshot.ooms);
      expect(await results.locator('li').first().innerText()).toMatch(/^设备 \d+：申请 /);
      // The charts' axis titles and legends are the catalogue's too.
      await expect.poll(() => root.locator('[data-chart="timeline"]').innerText()).toContain(ZH.snapshot.active);
      expect(await englishShown(root)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('the nvidia-smi and memory_summary readers explain a dropped file in Chinese, with no English sentence left', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const smi = await dropFile(page, '/zh-cn/tools/nvidia-smi/', 'nvidia-smi', example('nvidia-smi-leak.csv'));
      const gpu = smi.locator('[data-verdict]').first();
      const verdict = (await gpu.getAttribute('data-verdict')) as keyof typeof ZH.explain.verdicts;
      expect(await gpu.locator('.diag-verdict').innerText()).toBe(ZH.explain.verdicts[verdict].title);
      for (const line of await gpu.locator('li').allInnerTexts()) expect(line).toMatch(HAN);
      await expect.poll(() => smi.locator('[data-chart="memory"] [aria-label]').first().getAttribute('aria-label')).toMatch(HAN);
      expect(await englishShown(smi)).toEqual([]);

      const summary = await dropFile(page, '/zh-cn/tools/memory-summary/', 'memory-summary', example('memory-summary.txt'));
      const rows = summary.locator('tbody th[scope="row"]');
      expect(await rows.first().innerText()).toBe(ZH.explain.summary.allocated.label);
      expect(await englishShown(summary)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('a malformed nvidia-smi log’s unread lines are listed in Chinese, and in English on the English page', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'diag-')), 'smi-malformed.csv');
    writeFileSync(file, MALFORMED_CSV);
    const notes = parseNvidiaSmi(MALFORMED_CSV).unread;
    expect(notes.length).toBeGreaterThanOrEqual(3);
    const listed = async (page: Page, path: string) => {
      const root = await dropFile(page, path, 'nvidia-smi', file);
      await root.locator('details[data-unread] summary').click();
      return root.locator('details[data-unread] li').allInnerTexts();
    };
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const chinese = await listed(page, '/zh-cn/tools/nvidia-smi/');
      expect(chinese).toEqual(
        notes.map((n) => `${ZH.input.unreadLine(n.line)}${wordUnreadReason(n.reason, ZH.input.unreadReasons)}`),
      );
      for (const line of chinese) expect(line).toMatch(HAN);
      for (const note of notes) expect(chinese.join('\n')).not.toContain(note.message);
      const english = await listed(page, '/tools/nvidia-smi/');
      expect(english).toEqual(notes.map((n) => `${EN.input.unreadLine(n.line)}${n.message}`));
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('the English OOM page still explains the same message in English', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await dropFile(page, '/tools/oom-message/', 'oom-message', example('oom-current.txt'));
      const verdict = root.locator('[data-case]');
      const oomCase = (await verdict.getAttribute('data-case')) as OomCase;
      expect(await verdict.innerText()).toContain(EN.explain.cases[oomCase]);
      expect(await root.innerText()).not.toMatch(HAN);
      // The same walk that finds nothing on the Chinese page finds the English one's sentences.
      expect(await englishShown(root)).toContain(EN.explain.cases[oomCase]);
      expect(problems.pageErrors).toEqual([]);
    });
  });
});
