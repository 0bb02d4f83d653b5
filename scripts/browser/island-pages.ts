import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { DEFAULT_LOCALE, localeOfPath } from '../../src/i18n/locales';

const CONTENT_DIR = join(import.meta.dirname, '../../content/docs');

/** The English pages' sources: a translation (content/docs/zh-cn/…) embeds the same islands as its English page. */
function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const english = localeOfPath(relative(CONTENT_DIR, path).split(sep).join('/')) === DEFAULT_LOCALE;
      return english ? listSources(path) : [];
    }
    return entry.name.endsWith('.mdx') ? [path] : [];
  });
}

/**
 * The site path of the one page whose MDX source holds `tag` (`<Calculator id="offload"`), so an island that moves to
 * another page is still found there: `lessons/offload.mdx` → `/lessons/offload/`, `index.mdx` → `/`.
 */
export function pageWith(tag: string): string {
  const pages = listSources(CONTENT_DIR).filter((path) => readFileSync(path, 'utf8').includes(tag));
  if (pages.length !== 1) throw new Error(`expected one page embedding ${tag}, found ${pages.length}`);
  const file = relative(CONTENT_DIR, pages[0]!).split(sep).join('/');
  return file === 'index.mdx' ? '/' : `/${file.replace(/(\/index)?\.mdx$/, '')}/`;
}

/** The page of `<Calculator id="…">`. */
export const calculatorPage = (id: string): string => pageWith(`<Calculator id="${id}"`);

/** The page of a single or cluster experiment, `<SingleExperiment id="…">` or `<ClusterExperiment id="…">`. */
export const experimentPage = (id: string): string => {
  const tags = [`<SingleExperiment id="${id}"`, `<ClusterExperiment id="${id}"`];
  const tag = tags.find((t) => listSources(CONTENT_DIR).some((path) => readFileSync(path, 'utf8').includes(t)));
  if (tag === undefined) throw new Error(`no page embeds the experiment ${id}`);
  return pageWith(tag);
};
