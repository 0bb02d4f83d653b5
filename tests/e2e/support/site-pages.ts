import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** Where `astro build` writes the static site. */
export const DIST_DIR = resolve(import.meta.dirname, '../../../dist');

/** The site's pages as written, one MDX file per page (a locale's under its folder). */
const CONTENT_DIR = resolve(import.meta.dirname, '../../../content/docs');

/**
 * Whether the page at URL `path` has its own source file: for a page under a locale's folder, whether it is translated,
 * not Starlight's fallback that shows the English page there.
 */
export function hasOwnSource(path: string): boolean {
  const file = join(CONTENT_DIR, path.replace(/^\/|\/$/g, '') || 'index');
  return ['.mdx', '.md'].some((ext) => existsSync(file + ext)) || existsSync(join(file, 'index.mdx'));
}

/**
 * Every HTML page of the built site as a URL path (`/`, `/lessons/where-the-memory-goes/`, `/404.html`), found by
 * walking dist/ so that new pages are covered without listing them by hand. Astro's redirect pages (astro.config.mjs
 * `redirects`) are left out: they only forward to a page listed in its own right.
 */
export function listBuiltPages(dir: string = DIST_DIR): string[] {
  return walkPages(dir)
    .filter((page) => !page.redirect)
    .map((page) => page.path);
}

/** The built redirect pages' URL paths: old URLs kept working for links from elsewhere, never linked from the site. */
export function listRedirectPages(dir: string = DIST_DIR): string[] {
  return walkPages(dir)
    .filter((page) => page.redirect)
    .map((page) => page.path);
}

function walkPages(dir: string): { path: string; redirect: boolean }[] {
  const pages: { path: string; redirect: boolean }[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.html'))
        pages.push({
          path: toUrlPath(relative(dir, path)),
          redirect: /<meta http-equiv="refresh"/.test(readFileSync(path, 'utf8')),
        });
    }
  };
  walk(dir);
  return pages.sort((x, y) => x.path.localeCompare(y.path));
}

function toUrlPath(file: string): string {
  const path = '/' + file.split(sep).join('/');
  return path.endsWith('/index.html') ? path.slice(0, -'index.html'.length) : path;
}
