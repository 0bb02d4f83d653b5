import type { Locator, Page } from 'playwright-core';
import { openIsland } from '../../../scripts/browser/browser';
import { dropFiles, fileOnDisk } from './file-drop';

/**
 * Opens the diagnose tool `tool` at `url`, waits for its analysis worker, drops the file at `file` on it as a reader
 * would (a real drop: the file is built in the page from its bytes) and waits for the analysis to end, done or refused.
 * `opened` runs between the page's load and the drop, for a test that watches what the drop alone does.
 */
export async function dropOnTool(
  page: Page,
  url: string,
  tool: string,
  file: string,
  opened: () => void = () => {},
): Promise<Locator> {
  const selector = `[data-tool="${tool}"]`;
  const root = await openIsland(page, url, selector);
  await page.waitForSelector(`${selector}[data-worker="ready"]`);
  opened();
  await dropFiles(root.locator('.diag-input'), [fileOnDisk(file)]);
  await page.waitForFunction(
    (sel) => ['done', 'error'].includes(document.querySelector<HTMLElement>(sel)?.dataset['state'] ?? ''),
    selector,
    { timeout: 60_000 },
  );
  return root;
}
