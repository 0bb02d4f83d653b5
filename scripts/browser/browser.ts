import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

/** Debian's Chromium; override with CHROMIUM_PATH. */
const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** No sandbox (Chromium will not run sandboxed as root, as CI containers run) and none of Chromium's own background
 * traffic (updates, sync, QUIC), so a run reaches nothing beyond this machine. */
const BASE_FLAGS = [
  '--no-sandbox',
  '--no-first-run',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** WebGPU on a software adapter (SwiftShader); without these flags `requestAdapter()` is null. */
const WEBGPU_FLAGS = [
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--ignore-gpu-blocklist',
];

/** The two configurations every browser test runs in. */
export const BROWSER_CONFIGS = [
  { name: 'webgpu-on', webgpu: true },
  { name: 'webgpu-off', webgpu: false },
] as const;

export type BrowserConfig = (typeof BROWSER_CONFIGS)[number];

export function launchBrowser(config: BrowserConfig): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: config.webgpu ? [...BASE_FLAGS, ...WEBGPU_FLAGS] : BASE_FLAGS,
  });
}

/** What a page did that a site-wide check forbids. */
export interface PageProblems {
  consoleErrors: string[];
  pageErrors: string[];
  /** Requests to any host other than the local test server; they are aborted, never sent. */
  offsiteRequests: string[];
}

/**
 * A fresh context whose pages record console errors, uncaught exceptions and off-site requests.
 * Off-site requests are aborted so that a stray one fails the test instead of hanging it.
 */
export async function openRecordingPage(
  browser: Browser,
  baseUrl: string,
): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const context = await browser.newContext();
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], offsiteRequests: [] };
  const { origin } = new URL(baseUrl);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    problems.offsiteRequests.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => problems.pageErrors.push(String(err)));
  return { context, page, problems };
}

/** Runs `use` on a fresh recording page (openRecordingPage), then closes its context, whether `use` passes or throws. */
export async function withRecordingPage(
  browser: Browser,
  baseUrl: string,
  use: (page: Page, problems: PageProblems) => Promise<void>,
): Promise<void> {
  const { context, page, problems } = await openRecordingPage(browser, baseUrl);
  try {
    await use(page, problems);
  } finally {
    await context.close();
  }
}

/** Waits until the Astro island holding `selector` has hydrated (Astro drops its `ssr` attribute). */
export async function waitForHydration(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((sel) => {
    const island = document.querySelector(sel)?.closest('astro-island');
    return island !== null && island !== undefined && !island.hasAttribute('ssr');
  }, selector);
}

/**
 * Wakes every `client:visible` island on the page, as a reader scrolling through it would, and
 * waits until all have hydrated. Each still server-rendered island is brought into view for two
 * frames (enough for Astro's IntersectionObserver to see it; hydration then goes on off-screen),
 * rather than stepping through every screen of a long page.
 */
export async function hydrateEveryIsland(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const twoFrames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (const island of document.querySelectorAll('astro-island[ssr]')) {
      // An island is `display: contents`: Astro's directive observes its children, which have boxes.
      [...island.children].find((child) => child.getBoundingClientRect().height > 0)?.scrollIntoView({ block: 'center' });
      await twoFrames();
    }
  });
  await page.waitForFunction(() => document.querySelector('astro-island[ssr]') === null);
}

/**
 * Opens `url`, scrolls the island matching `selector` into view and waits for it to hydrate and,
 * for an experiment, to settle its starting sizes (`data-sizes`: smaller on a software adapter).
 */
export async function openIsland(page: Page, url: string, selector: string): Promise<Locator> {
  await page.goto(url);
  const root = page.locator(selector);
  await root.scrollIntoViewIfNeeded();
  await waitForHydration(page, selector);
  await page.waitForFunction((sel) => {
    const el = document.querySelector<HTMLElement>(sel);
    return !el?.hasAttribute('data-experiment') || el.hasAttribute('data-sizes');
  }, selector);
  return root;
}

/**
 * Presses an experiment's Run button and waits until it reports `done`, `error` or `unsupported`.
 * An experiment that needs WebGPU where there is none says so before Run, with Run disabled:
 * then there is nothing to press.
 */
export async function runExperimentToEnd(page: Page, root: Locator, selector: string, timeout: number): Promise<void> {
  if ((await root.getAttribute('data-state')) === 'unsupported') return;
  await root.locator('[data-action="run"]').click();
  await page.waitForFunction(
    (sel) => ['done', 'error', 'unsupported'].includes(document.querySelector<HTMLElement>(sel)?.dataset['state'] ?? ''),
    selector,
    { timeout },
  );
}
