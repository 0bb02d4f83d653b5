import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CALCULATORS } from '../../../src/components/calculators/specs';
import { flagNamed } from '../../../src/memory/index';

const README = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');

describe('README', () => {
  test('its estimate example is lesson 1’s calculator at its defaults, so it prints what a reader sees on the site', () => {
    const example = /npm run --silent estimate -- ([^`|]+)`/.exec(README)?.[1] ?? '';
    expect(example).not.toBe('');
    const flags = Object.fromEntries([...example.matchAll(/--([a-z-]+) ([^\s-][^\s]*)/g)].map((m) => [m[1], m[2]]));
    // Flags at the engine's own default change nothing, so the README may leave them out.
    const changed = Object.entries(CALCULATORS.breakdown.defaults).filter(([flag, value]) => flagNamed(flag)?.default !== value);
    expect(flags).toEqual(Object.fromEntries(changed));
  });

  test('every npm script it names exists', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const named = [...README.matchAll(/npm run (?:--silent )?([a-z0-9:-]+)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(scripts).toContain(name);
  });
});
