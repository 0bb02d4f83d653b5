import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { runProgram } from '../../../src/cli/program.ts';
import { JSON_SCHEMA_FILES, JSON_SCHEMA_URLS } from '../../../src/cli/json-schemas.ts';
import { JSON_CASES } from '../support/json-cases.ts';

const SCHEMAS_DIR = resolve(import.meta.dirname, '../../../public/schemas');
const schemaOf = (file: string) => JSON.parse(readFileSync(resolve(SCHEMAS_DIR, file), 'utf8')) as { $id: string };

// Strict mode refuses a schema with an unknown keyword or a `required` field it does not describe: a typo in a schema
// fails here instead of validating everything.
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validators = Object.fromEntries(
  Object.entries(JSON_SCHEMA_FILES).map(([command, file]) => [command, ajv.compile(schemaOf(file))]),
);

describe('the JSON Schemas of the --json outputs (public/schemas/)', () => {
  test.each(Object.entries(JSON_SCHEMA_FILES))('%s: its $id is the URL every output names in `schema`', (command, file) => {
    expect(schemaOf(file).$id).toBe(JSON_SCHEMA_URLS[command as keyof typeof JSON_SCHEMA_URLS]);
  });

  test.each(JSON_CASES.map((c) => [`${c.command} ${c.argv.map((a) => a.replace(/.*\//, '')).join(' ')}`, c] as const))(
    '%s --json is valid against its schema and names it',
    (_name, { command, argv }) => {
      const { code, stdout, stderr } = runProgram([command, ...argv, '--json']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const output = JSON.parse(stdout) as { schema: string };
      expect(output.schema).toBe(JSON_SCHEMA_URLS[command]);
      const validate = validators[command]!;
      expect(validate(output), ajv.errorsText(validate.errors)).toBe(true);
    },
  );

  test('a field the schema does not describe fails validation (the schemas are closed)', () => {
    const { stdout } = runProgram(['estimate', '--model', 'gpt2', '--json']);
    const output = { ...(JSON.parse(stdout) as object), extra: 1 };
    expect(validators['estimate']!(output)).toBe(false);
  });
});
