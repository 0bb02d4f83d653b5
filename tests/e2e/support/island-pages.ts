import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const CONTENT_DIR = join(import.meta.dirname, '../../../content/docs');

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listSources(path) : entry.name.endsWith('.mdx') ? [path] : [];
  });
}

/**
 * The site path of the page that embeds `<Calculator id="…">`, read from the MDX sources, so a calculator that moves to
 * another page is still found there (`lessons/offload.mdx` → `/lessons/offload/`, `index.mdx` → `/`).
 */
export function calculatorPage(id: string): string {
  const tag = `<Calculator id="${id}"`;
  const pages = listSources(CONTENT_DIR).filter((path) => readFileSync(path, 'utf8').includes(tag));
  if (pages.length !== 1) throw new Error(`expected one page embedding ${tag}, found ${pages.length}`);
  const file = relative(CONTENT_DIR, pages[0]!).split(sep).join('/');
  return file === 'index.mdx' ? '/' : `/${file.replace(/(\/index)?\.mdx$/, '')}/`;
}
