/** The TOML subset torchtitan's job configs use: what it reads, and the line it names for what it refuses. */
import { describe, expect, test } from 'vitest';
import { parseTomlSubset } from '../../../src/setup/toml-subset.ts';

describe('parseTomlSubset', () => {
  test('tables, dotted tables and keys, strings, numbers, booleans, one-line arrays and comments', () => {
    const outcome = parseTomlSubset(
      [
        '# a preset',
        '[training]',
        'local_batch_size = 1',
        'seq_len = 8_192  # tokens',
        'max_norm = 1.0',
        "dataset = 'c4'",
        'lr = 3e-4',
        'name = "a \\"quoted\\" # not a comment"',
        '[compile]',
        'enable=false',
        'components = ["model", "loss"]',
        '[quantize.linear.float8]',
        'filter_fqns = ["output"]',
        'a.b = -2',
      ].join('\n'),
    );
    expect(outcome).toEqual({
      ok: true,
      data: {
        training: {
          local_batch_size: 1,
          seq_len: 8192,
          max_norm: 1,
          dataset: 'c4',
          lr: 0.0003,
          name: 'a "quoted" # not a comment',
        },
        compile: { enable: false, components: ['model', 'loss'] },
        quantize: { linear: { float8: { filter_fqns: ['output'], a: { b: -2 } } } },
      },
    });
  });

  test.each([
    ['an inline table', '[a]\nx = { y = 1 }', 2, /inline tables/],
    ['an array of tables', '[a]\n[[b]]', 2, /arrays of tables/],
    ['a multi-line string', '[a]\nx = """', 2, /multi-line strings/],
    ['a key given twice', '[a]\nx = 1\nx = 2', 3, /x is given twice/],
    ['a string left open', '[a]\nx = "open', 2, /not closed/],
    ['an array over several lines', '[a]\nx = [1,\n2]', 2, /close on their line/],
    ['a date', '[a]\nwhen = 1979-05-27', 2, /not a value/],
    ['a table over a value', '[a]\nx = 1\n[a.x]', 3, /x is a value, not a table/],
  ])('%s is refused with its line', (_case, text, line, message) => {
    const outcome = parseTomlSubset(text);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.line).toBe(line);
    expect(outcome.message).toMatch(message);
  });
});
