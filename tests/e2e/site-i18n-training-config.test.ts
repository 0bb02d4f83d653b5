import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MESSAGES } from '../../src/i18n/messages/index';
import { combineReadings, effectText, readTrainingConfig, type FileReading } from '../../src/setup/index';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';
import { HAN, ENGLISH_RUN } from '../support/chinese-text';
import { dropFiles, fileOfText } from './support/file-drop';

/**
 * The training-config reader's reasons on its 简体中文 page (issue #33 item 3): every tool's fixture files dropped in
 * turn are mapped with each line's reason in Chinese, and no run of English words is left outside code and the
 * `lang="en"` source column; the English page words the same lines in English.
 */
const baseUrl = inject('baseUrl');
const READER = '[data-widget="training-config"]';
const ZH = MESSAGES['zh-cn'].trainingConfig;
const FIXTURES = resolve(import.meta.dirname, '../fixtures/training-configs');

/** Each tool's fixture folder with its files (name and text), read together as a run. */
const TOOLS = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((dir) => ({
    tool: dir.name,
    files: readdirSync(join(FIXTURES, dir.name)).map((name) => ({
      name,
      text: readFileSync(join(FIXTURES, dir.name, name), 'utf8'),
    })),
  }));

/** The lines the reader itself makes of a tool's files, to know what the page must show. */
function readingsOf(files: readonly { name: string; text: string }[]): FileReading[] {
  return files.map(({ name, text }) => {
    const outcome = readTrainingConfig(name, text);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    return outcome.reading;
  });
}

/** Drops a tool's files on the reader, cleared of the tool before, and waits for their mapping. */
async function dropToolFiles(page: Page, root: Locator, files: readonly { name: string; text: string }[]): Promise<void> {
  // The files of the tool before are cleared first, so each mapping is one tool's own.
  const clear = root.locator('button[data-action="clear"]');
  if ((await clear.count()) > 0) {
    await clear.click();
    await page.waitForSelector(`${READER} [data-mapping]`, { state: 'detached' });
  }
  await dropFiles(
    root.locator('.training-config-drop'),
    files.map(({ name, text }) => fileOfText(name, text)),
  );
  await page.waitForSelector(`${READER} [data-mapping]`);
}

/** The visible texts of the reader outside code, fields and `lang="en"` parts, one per text node. */
function proseTexts(root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent === null || parent.closest('code, pre, textarea, [lang="en"]') !== null) continue;
      if (!parent.checkVisibility()) continue;
      const text = node.textContent?.trim() ?? '';
      if (text !== '') texts.push(text);
    }
    return texts;
  });
}

describe('the training-config reader’s reasons in Chinese', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('every tool’s files dropped on /zh-cn/ are mapped with Chinese reasons and no English run', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn/tools/training-config/`, READER);
      for (const { tool, files } of TOOLS) {
        await dropToolFiles(page, root, files);
        const mapping = combineReadings(readingsOf(files));
        const reasoned = mapping.lines.filter((line) => line.effect.kind !== 'option' && line.effect.kind !== 'names-file');
        const effects = await root.locator('[data-mapping] tbody tr td:nth-child(3)').allInnerTexts();
        for (const line of reasoned) expect(effects, tool).toContain(effectText(line, ZH.setup, ZH.reasons));
        const prose = await proseTexts(root);
        expect(prose.join(' '), tool).toMatch(HAN);
        expect(
          prose.filter((text) => ENGLISH_RUN.test(text)),
          tool,
        ).toEqual([]);
      }
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('the English page words the same lines in English', async () => {
    const { files } = TOOLS.find(({ tool }) => tool === 'llama-factory') ?? TOOLS[0]!;
    const reasoned = combineReadings(readingsOf(files)).lines.filter(
      (line) => line.effect.kind !== 'option' && line.effect.kind !== 'names-file',
    );
    expect(reasoned.length).toBeGreaterThan(0);
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(page, `${baseUrl}/tools/training-config/`, READER);
      await dropToolFiles(page, root, files);
      const effects = await root.locator('[data-mapping] tbody tr td:nth-child(3)').allInnerTexts();
      for (const line of reasoned) expect(effects).toContain(effectText(line));
      expect(await root.innerText()).not.toMatch(HAN);
    });
  });
});
