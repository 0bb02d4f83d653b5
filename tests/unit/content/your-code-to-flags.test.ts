import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { OPTIMIZER_IMPLS, OPTIMIZERS } from '../../../src/memory/optimizer';
import { PRECISIONS } from '../../../src/memory/precision';
import { readTrainingConfig } from '../../../src/setup/index';

/**
 * "Your code → our flags" is the one place that tells readers which precision and optimizer flags their code runs.
 * It must name every value the engine accepts (a new precision or optimizer added to the engine fails here until the
 * page explains it), name none it refuses, and agree with the training-config readers wherever a row quotes a
 * configuration they read: the page and the tool give one answer.
 */
const PAGE = join(import.meta.dirname, '../../../content/docs/reference/your-code-to-flags.mdx');

/** The option keys a row's flags and a reader's options share. */
type MappedOption = 'precision' | 'optimizer' | 'optimizerImpl';
const FLAG_OF: Readonly<Record<MappedOption, string>> = {
  precision: 'precision',
  optimizer: 'optimizer',
  optimizerImpl: 'optimizer-impl',
};

interface Row {
  /** What the reader writes: the first cell. */
  readonly code: string;
  /** The flags of the second cell, by flag name. */
  readonly flags: ReadonlyMap<string, string>;
}

/** The rows of the page's first table (the one under "The table"), first and second cell. */
function tableRows(mdx: string): Row[] {
  const section = /^## The table\n([\s\S]*?)^## /m.exec(mdx)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !/^\|\s*(What you write|-)/.test(line))
    .map((line) => {
      const [code = '', flagCell = ''] = line.split(' | ').map((cell) => cell.replace(/^\|\s*/, ''));
      const flags = new Map([...flagCell.matchAll(/--([a-z-]+) ([\w-]+)/g)].map((m) => [m[1]!, m[2]!] as const));
      return { code, flags };
    });
}

const rows = tableRows(readFileSync(PAGE, 'utf8'));
const valuesOf = (flag: string) => new Set(rows.flatMap((row) => row.flags.get(flag) ?? []));

describe('"Your code → our flags" keeps up with the engine', () => {
  test('the table is read: every row names at least one flag', () => {
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) expect(row.flags.size, row.code).toBeGreaterThan(0);
  });

  test.each([
    ['precision', PRECISIONS],
    ['optimizer', OPTIMIZERS],
    ['optimizer-impl', OPTIMIZER_IMPLS],
  ] as const)('--%s: every value the engine accepts has a row, and every row a value it accepts', (flag, accepted) => {
    const onPage = valuesOf(flag);
    expect([...accepted].filter((value) => !onPage.has(value)), 'values without a row').toEqual([]);
    expect([...onPage].filter((value) => !(accepted as readonly string[]).includes(value)), 'values the engine refuses').toEqual([]);
  });

  // A row that quotes a Trainer `optim` name or a JSON configuration states what the training-config readers make of it.
  const quoted = rows.flatMap((row) => {
    const optim = /`optim="([\w]+)"`/.exec(row.code)?.[1];
    if (optim !== undefined) return [[row.code, JSON.stringify({ optim }), row] as const];
    const json = /`(\{.*\})`/.exec(row.code)?.[1];
    return json !== undefined ? [[row.code, json, row] as const] : [];
  });

  test('rows quoting a configuration are found', () => {
    expect(quoted.length).toBeGreaterThanOrEqual(10);
  });

  test.each(quoted)('%s: the flags are what the configuration reader sets', (_code, config, row) => {
    const outcome = readTrainingConfig('config.json', config);
    if (!outcome.ok) throw new Error(outcome.error.message);
    const set = outcome.reading.options;
    const keys = (Object.keys(FLAG_OF) as MappedOption[]).filter((key) => set[key] !== undefined);
    expect(keys.length, 'the reader sets a precision or optimizer').toBeGreaterThan(0);
    for (const key of keys) expect(row.flags.get(FLAG_OF[key]), `--${FLAG_OF[key]}`).toBe(set[key]);
  });
});
