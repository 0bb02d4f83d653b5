import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Locator } from 'playwright-core';

/** A file a test drops on a page: its name, and its bytes in base64 (what crosses into the page is JSON). */
export interface DroppedFile {
  readonly name: string;
  readonly base64: string;
}

/** The file at `path`, under its own name. */
export const fileOnDisk = (path: string): DroppedFile => ({
  name: basename(path),
  base64: readFileSync(path).toString('base64'),
});

/** A file named `name` holding `text` in UTF-8. */
export const fileOfText = (name: string, text: string): DroppedFile => ({
  name,
  base64: Buffer.from(text, 'utf8').toString('base64'),
});

/** Drops `files` on `target` as a reader would: a real drop event, its files built in the page from their bytes. */
export async function dropFiles(target: Locator, files: readonly DroppedFile[]): Promise<void> {
  const dataTransfer = await target.page().evaluateHandle((given) => {
    const transfer = new DataTransfer();
    for (const { name, base64 } of given)
      transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name));
    return transfer;
  }, files);
  await target.dispatchEvent('drop', { dataTransfer });
}
