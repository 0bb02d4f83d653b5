import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** Where `astro build` writes the static site. */
export const DIST_DIR = resolve(import.meta.dirname, '../../../dist');

/**
 * Every HTML page of the built site, redirects left out, as a URL path (`/`, `/lessons/where-the-memory-goes/`, `/404.html`),
 * found by walking dist/ so that new pages are covered without listing them by hand.
 */
export function listBuiltPages(dir: string = DIST_DIR): string[] {
  const pages: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.html') && !isRedirect(path)) pages.push(toUrlPath(relative(dir, path)));
    }
  };
  walk(dir);
  return pages.sort();
}

/** Astro's redirect pages (astro.config.mjs `redirects`) only forward to a page listed in their own right. */
function isRedirect(file: string): boolean {
  return /<meta http-equiv="refresh"/.test(readFileSync(file, 'utf8'));
}

function toUrlPath(file: string): string {
  const path = '/' + file.split(sep).join('/');
  return path.endsWith('/index.html') ? path.slice(0, -'index.html'.length) : path;
}
