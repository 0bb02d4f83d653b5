import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MESSAGES } from '../../src/i18n/messages/index';
import { readTrainingConfig, setupErrorLine, wordSetupProblem, type SetupError } from '../../src/setup/index';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';
import { englishSentences } from './support/catalogue-english';
import { dropFiles, fileOfText } from './support/file-drop';
import { HAN, ENGLISH_RUN } from '../support/chinese-text';

/**
 * The training-config reader's refusals on its 简体中文 page (issue #33 item 3): bad files pasted and dropped as a
 * reader would give them are each refused with one line in Chinese, naming the file and the key as code, and no
 * English sentence is left but a parser's own reason; the English page shows the terminal's very line.
 */
const baseUrl = inject('baseUrl');
const READER = '[data-widget="training-config"]';
const EN = MESSAGES.en.trainingConfig;
const ZH = MESSAGES['zh-cn'].trainingConfig;

interface BadFile {
  readonly name: string;
  readonly text: string;
  /** Pasted into the text box and read, or dropped as a file. */
  readonly given: 'paste' | 'drop';
}

/**
 * Bad files of several kinds: unparseable (YAML, and a TOML line this reader refuses), no tool's, a tool's value out of
 * its choices, a value of the wrong type.
 */
const BAD_FILES: readonly BadFile[] = [
  { name: 'broken.yaml', text: 'stage: sft\n  bad: [indent\n', given: 'paste' },
  { name: 'qlora.yaml', text: 'stage: sft\nfinetuning_type: qlora\nlora_rank: 8\n', given: 'paste' },
  { name: 'ds_z4.json', text: '{"zero_optimization": {"stage": 4}, "train_micro_batch_size_per_gpu": 2}', given: 'drop' },
  { name: 'rank.yaml', text: 'finetuning_type: lora\nlora_rank: eight\n', given: 'paste' },
  { name: 'notes.yaml', text: 'title: my run\nauthor: me\n', given: 'drop' },
  { name: 'train.sh', text: 'python train.py --bf16 maybe --output_dir out', given: 'drop' },
  { name: 'titan.toml', text: '[job]\ndump_folder = "./out"\n[model]\nconverters = { float8 = true }\n', given: 'paste' },
];

/** The error the reader itself gives a bad file: what the page must word. */
function errorOf({ name, text }: BadFile): SetupError {
  const outcome = readTrainingConfig(name, text);
  if (outcome.ok) throw new Error(`${name} was read as ${outcome.reading.tool}`);
  return outcome.error;
}

/** Give `file` to the reader as a reader would: typed into the text box and read, or dropped. */
async function give(root: Locator, file: BadFile): Promise<void> {
  if (file.given === 'paste') {
    await root.locator('[data-field="paste"]').fill(file.text);
    await root.locator('[data-field="name"]').fill(file.name);
    await root.locator('[data-action="read"]').click();
    return;
  }
  await dropFiles(root.locator('.training-config-drop'), [fileOfText(file.name, file.text)]);
}

/** Each error line's text outside its code (the file and the key), joined. */
function proseOf(error: Locator): Promise<string> {
  return error.evaluate((element) =>
    [...element.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent ?? '')
      .join(''),
  );
}

describe('the training-config reader’s errors in Chinese', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('bad files pasted and dropped on /zh-cn/ are each refused in Chinese, with no English sentence', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn/tools/training-config/`, READER);
      for (const [index, file] of BAD_FILES.entries()) {
        await give(root, file);
        await expect.poll(() => root.locator('[data-error]').count()).toBe(index + 1);
      }
      const errors = BAD_FILES.map(errorOf);
      // Several kinds of refusal, not one sentence repeated.
      expect(new Set(errors.map((error) => error.problem.code)).size).toBeGreaterThan(3);
      const lines = root.locator('[data-error]');
      expect(await lines.allTextContents()).toEqual(
        errors.map(
          (error) =>
            `${error.file}${ZH.colon}${error.key === '' ? '' : `${error.key}${ZH.colon}`}${wordSetupProblem(error.problem, ZH.errors)}`,
        ),
      );
      for (const [index, error] of errors.entries()) {
        expect(await lines.nth(index).locator('code').allTextContents()).toEqual(
          error.key === '' ? [error.file] : [error.file, error.key],
        );
        // Outside the code, the words are Chinese; a parser's own reason is its English, kept as it gave it.
        const prose = await proseOf(lines.nth(index));
        const reason = 'params' in error.problem && 'reason' in error.problem.params ? error.problem.params.reason : '';
        expect(prose, error.file).toMatch(HAN);
        expect(prose.replace(reason, ''), error.file).not.toMatch(ENGLISH_RUN);
        expect(prose, error.file).not.toContain(error.message.replace(reason, ''));
      }
      const visible = await root.innerText();
      expect(englishSentences(EN, ZH).filter((sentence) => visible.includes(sentence))).toEqual([]);
      expect(await root.locator('[data-mapping]').count()).toBe(0);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('the English page shows the terminal’s line', async () => {
    const file = BAD_FILES.find(({ name }) => name === 'qlora.yaml') ?? BAD_FILES[0]!;
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(page, `${baseUrl}/tools/training-config/`, READER);
      await give(root, file);
      await expect.poll(() => root.locator('[data-error]').allTextContents()).toEqual([setupErrorLine(errorOf(file))]);
      expect(await root.innerText()).not.toMatch(HAN);
    });
  });
});
