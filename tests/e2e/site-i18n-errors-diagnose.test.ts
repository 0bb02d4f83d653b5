import { closeSync, ftruncateSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MESSAGES } from '../../src/i18n/messages/index';
import { MAX_SNAPSHOT_BYTES, readSnapshot, refuseOversizeSnapshot, wordSnapshotRefusal } from '../../src/diagnose/snapshot';
import { writePickle } from '../../src/diagnose/pickle-writer';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';
import { englishSentences } from './support/catalogue-english';
import { dropOnTool } from './support/diagnose-drop';
import { HAN, ENGLISH_RUN } from '../support/chinese-text';

/**
 * What the diagnose tools say about input they cannot read, on their 简体中文 pages (issue #33 item 3): bad files
 * dropped on the snapshot viewer (empty, text, a real pickle cut short, a pickle that is not a snapshot, one that
 * would run code, one above the size cap) are refused in Chinese, and a paste the text readers cannot use is answered
 * in Chinese, with no English sentence left but the values the file itself holds; the English page keeps English.
 */
const baseUrl = inject('baseUrl');
const EN = MESSAGES.en.diagnose;
const ZH = MESSAGES['zh-cn'].diagnose;
/** The catalogue's plain English sentences that the Chinese one words differently. */
const CATALOGUE_ENGLISH = englishSentences(EN, ZH);

const dir = mkdtempSync(join(tmpdir(), 'diag-errors-'));
/** `bytes` written to a file named `name`, for a real drop. */
function fileOf(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const snapshotPickle = new Uint8Array(readFileSync(resolve(import.meta.dirname, '../fixtures/diagnose/snapshot-oom.pickle')));

/** Files the snapshot viewer refuses, each as a reader could drop it. */
const BAD_FILES = [
  { name: 'empty.pickle', bytes: new Uint8Array() },
  { name: 'nvidia-smi.csv', bytes: new TextEncoder().encode('timestamp, index, memory.used [MiB]\n2024/05/07, 0, 1000 MiB\n') },
  // A real snapshot cut in half, as an interrupted copy leaves it.
  { name: 'snapshot-cut.pickle', bytes: snapshotPickle.slice(0, Math.floor(snapshotPickle.length / 2)) },
  { name: 'not-a-snapshot.pickle', bytes: writePickle({ allocator: 'native', traces: [] }) },
  {
    name: 'snapshot-runs-code.pickle',
    bytes: new Uint8Array(readFileSync(resolve(import.meta.dirname, '../fixtures/diagnose/snapshot-runs-code.pickle'))),
  },
];

/** The viewer's refusal line after `file` was dropped on the snapshot page at `path`. */
async function refusalShown(page: Page, path: string, file: string): Promise<Locator> {
  const root = await dropOnTool(page, baseUrl + path, 'snapshot', file);
  expect(await root.getAttribute('data-state')).toBe('error');
  return root.locator('.widget-error[role="alert"]');
}

/** What a Chinese refusal line must be: Chinese prose around the values the file holds, no catalogue English. */
async function expectChinese(shown: Locator, englishMessage: string): Promise<void> {
  const text = await shown.innerText();
  expect(text).toMatch(HAN);
  expect(text).not.toContain(englishMessage);
  // What the file holds ("ab" is not an integer) and the functions to call stay as they are.
  const prose = text.replace(/"[^"]*"|torch\.cuda\.\S+|_record_memory_history\S+/g, '');
  expect(prose, text).not.toMatch(ENGLISH_RUN);
  expect(CATALOGUE_ENGLISH.filter((sentence) => prose.includes(sentence))).toEqual([]);
}

describe('the diagnose tools’ refusals in Chinese', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('the catalogue walk finds English to look for', () => {
    // Without this the checks could pass by finding nothing to look for.
    expect(CATALOGUE_ENGLISH).toContain(EN.input.privacy);
  });

  test.each(BAD_FILES.map((bad) => [bad.name, bad] as const))('a dropped %s is refused in Chinese', async (_, bad) => {
    const read = readSnapshot(bad.bytes);
    if (read.ok) throw new Error(`${bad.name} was read`);
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const shown = await refusalShown(page, '/zh-cn/tools/snapshot/', fileOf(bad.name, bad.bytes));
      const expected = (read.refused ? ZH.snapshot.refused : ZH.snapshot.failed)(
        wordSnapshotRefusal(read.refusal, ZH.snapshot.refusals),
      );
      expect(await shown.innerText()).toBe(expected);
      expect(await shown.getAttribute('data-refused')).toBe(String(read.refused));
      await expectChinese(shown, read.message);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('a file above the size cap is refused in Chinese before it is read', async () => {
    // A sparse file: its size is real, its bytes take no disk, and the page refuses it from the size alone.
    const size = MAX_SNAPSHOT_BYTES + 64 * 2 ** 20;
    const path = join(dir, 'huge-snapshot.pickle');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, size);
    closeSync(fd);
    const refusal = refuseOversizeSnapshot(size);
    if (refusal?.ok !== false) throw new Error('the size cap let the file through');
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn/tools/snapshot/`, '[data-tool="snapshot"]');
      await page.waitForSelector('[data-tool="snapshot"][data-worker="ready"]');
      await root.locator('[data-input="file"]').setInputFiles(path);
      await expect.poll(() => root.getAttribute('data-state')).toBe('error');
      const shown = root.locator('.widget-error[role="alert"]');
      expect(await shown.innerText()).toBe(ZH.snapshot.failed(wordSnapshotRefusal(refusal.refusal, ZH.snapshot.refusals)));
      await expectChinese(shown, refusal.message);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a paste the text readers cannot use is answered in Chinese', async () => {
    const paste = 'Traceback (most recent call last):\n  File "train.py", line 3\nValueError: bad value\n';
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      for (const tool of ['oom-message', 'nvidia-smi', 'memory-summary']) {
        const root = await openIsland(page, `${baseUrl}/zh-cn/tools/${tool}/`, `[data-tool="${tool}"]`);
        await page.waitForSelector(`[data-tool="${tool}"][data-worker="ready"]`);
        await root.locator('[data-input="paste"]').fill(paste);
        await root.locator('[data-action="analyse"]').click();
        await expect.poll(() => root.getAttribute('data-state')).toBe('done');
        const details = root.locator('details[data-unread]');
        if ((await details.count()) > 0) await details.first().locator('summary').click();
        // Everything but the input panel: what the tool answered.
        const answer = (await root.innerText()).replace(await root.locator('.diag-input').innerText(), '');
        expect(answer, tool).toMatch(HAN);
        const prose = answer.replace(paste, '').replace(/"[^"]*"|“[^”]*”|nvidia-smi [^（，。；\n]*|--\S+/g, '');
        expect(prose, `${tool}: ${answer}`).not.toMatch(ENGLISH_RUN);
        expect(CATALOGUE_ENGLISH.filter((sentence) => prose.includes(sentence))).toEqual([]);
      }
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('the English page refuses the same cut pickle in English', async () => {
    const cut = BAD_FILES.find((bad) => bad.name === 'snapshot-cut.pickle');
    if (!cut) throw new Error('no cut pickle');
    const read = readSnapshot(cut.bytes);
    if (read.ok) throw new Error('the cut pickle was read');
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const shown = await refusalShown(page, '/tools/snapshot/', fileOf(cut.name, cut.bytes));
      expect(await shown.innerText()).toBe(`Could not read this file: ${read.message}`);
      expect(await shown.innerText()).not.toMatch(HAN);
      expect(problems.pageErrors).toEqual([]);
    });
  });
});
