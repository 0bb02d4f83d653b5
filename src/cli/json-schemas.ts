/**
 * The JSON Schema of each command's `--json` output, by URL: the site serves them (public/schemas/) and the package
 * ships them (`gpu-memory-lab/schemas/<file>`). Every output names its schema in its first field, `schema`, so a
 * reader or a script knows which shape it holds. A change that breaks a shape (a field removed, renamed or retyped)
 * is a new file with the next version, and the old file stays for those who read old outputs.
 */
import type { CommandName } from '../base/command-line.ts';
import { SITE_URL } from '../base/site.ts';

/** The file name of each command's current JSON Schema. */
export const JSON_SCHEMA_FILES = {
  estimate: 'estimate-v1.json',
  plan: 'plan-v1.json',
  diagnose: 'diagnose-v1.json',
  diffusion: 'diffusion-v1.json',
} as const satisfies Record<CommandName, string>;

/** The URL each command's `--json` output carries in its `schema` field; also the schema's `$id`. */
export const JSON_SCHEMA_URLS = {
  estimate: `${SITE_URL}/schemas/${JSON_SCHEMA_FILES.estimate}`,
  plan: `${SITE_URL}/schemas/${JSON_SCHEMA_FILES.plan}`,
  diagnose: `${SITE_URL}/schemas/${JSON_SCHEMA_FILES.diagnose}`,
  diffusion: `${SITE_URL}/schemas/${JSON_SCHEMA_FILES.diffusion}`,
} as const satisfies Record<CommandName, string>;
