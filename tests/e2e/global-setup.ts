import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startStaticServer } from '../../scripts/browser/static-server';
import { DIST_DIR } from './support/site-pages';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** Serves the built site for the whole e2e run; `npm test` builds it first. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(DIST_DIR)) {
    throw new Error(`No built site in ${DIST_DIR}: run \`npm run build\` first (npm test does).`);
  }
  const server = await startStaticServer(DIST_DIR);
  project.provide('baseUrl', server.url);
  return () => server.close();
}
