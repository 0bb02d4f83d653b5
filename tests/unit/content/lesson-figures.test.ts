import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { estimateFigure, estimateFor, parseFlagString, valueAt, type FigureUnit } from '../../../src/components/estimate/estimate-figure';

/**
 * A lesson may not state a figure for a configuration that the engine contradicts: every configuration-specific
 * figure is an `<Estimate …/>` computed at build time, and this test checks that each one still evaluates, that no
 * hand-typed figure hides next to a command readers can run, and that no old `estimate:` annotation is left behind.
 */
const CONTENT_DIR = join(import.meta.dirname, '../../../content/docs');
const UNITS: readonly FigureUnit[] = ['GiB', 'GB', 'count', 'seconds', 'share', 'text'];

function listPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listPages(path) : /\.mdx?$/.test(entry.name) ? [path] : [];
  });
}

interface Figure {
  readonly where: string;
  readonly flags: string;
  readonly show: string;
  readonly unit: FigureUnit;
  readonly digits: number;
}

/** One attribute of a component tag: `name="value"` or `name={2}`. */
function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}=(?:"([^"]*)"|\\{([^}]*)\\})`).exec(tag);
  return match ? (match[1] ?? match[2]) : undefined;
}

function figuresIn(path: string): Figure[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/<Estimate\b[^>]*?\/>/gs)].map((m) => {
    const tag = m[0];
    const line = text.slice(0, m.index).split('\n').length;
    const unit = (attribute(tag, 'unit') ?? 'GiB') as FigureUnit;
    return {
      where: `${relative(CONTENT_DIR, path)}:${line}`,
      flags: attribute(tag, 'flags') ?? '',
      show: attribute(tag, 'show') ?? 'perGpu.total',
      unit,
      digits: Number(attribute(tag, 'digits') ?? '2'),
    };
  });
}

const pages = listPages(CONTENT_DIR);
const figures = pages.flatMap(figuresIn);
/** Each page as a test case: its path under content/docs, then its full path. */
const pageCases = pages.map((p) => [relative(CONTENT_DIR, p), p] as const);

/** What `complaints` finds on each line of the page at `path`, each after the number of its line. */
function complaintsIn(path: string, complaints: (line: string) => readonly string[]): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line, i) => complaints(line).map((complaint) => `${i + 1}: ${complaint}`));
}

describe('lesson figures come from the engine', () => {
  test('the lessons state figures through <Estimate/>', () => {
    expect(figures.length).toBeGreaterThan(50);
  });

  test.each(figures.map((f) => [f.where, f] as const))('%s evaluates', (_where, figure) => {
    expect(figure.flags, 'flags attribute').not.toBe('');
    expect(UNITS).toContain(figure.unit);
    expect(Number.isInteger(figure.digits) && figure.digits >= 0).toBe(true);
    const text = estimateFigure(figure.flags, figure.show, figure.unit, figure.digits);
    expect(text).not.toMatch(/invalid|NaN|Infinity|undefined/);
    expect(text.length).toBeGreaterThan(0);
  });

  // The prose around a fit figure says "X to spare" or "X over": a zero would turn the sentence false, so the
  // engine flipping a configuration between fits and does-not-fit fails here instead of printing "0.00 GiB over".
  const fitFigures = figures.filter((f) => f.show === 'spare' || f.show === 'shortfall');
  test.each(fitFigures.map((f) => [f.where, f] as const))('%s: the fit the prose states still holds', (_where, figure) => {
    expect(valueAt(estimateFor(figure.flags), figure.show)).toBeGreaterThan(0);
  });

  // A time the prose states ("X of transfers per step") is a cost that is there: a zero means the figure reads another
  // line than the prose names (step-time lines are read by id, `time.<id>`, never by their position).
  const timeFigures = figures.filter((f) => f.unit === 'seconds' || f.unit === 'share');
  test.each(timeFigures.map((f) => [f.where, f] as const))('%s: the time the prose states is not zero', (_where, figure) => {
    expect(figure.show).not.toMatch(/^stepTime\.lines\./);
    expect(valueAt(estimateFor(figure.flags), figure.show)).toBeGreaterThan(0);
  });

  // The error band was measured on whole training steps: a step's total prints with it, and a part of a step prints as
  // its share of that total, never as bare seconds (estimateFigure refuses the rest, so this checks what the pages ask).
  const stepTotals = figures.filter((f) => f.show === 'stepTime.totalSeconds');
  test.each(stepTotals.map((f) => [f.where, f] as const))('%s: a step time prints with its error band', (_where, figure) => {
    expect(figure.unit).toBe('seconds');
    if (estimateFor(figure.flags).mode === 'train')
      expect(estimateFigure(figure.flags, figure.show, figure.unit)).toMatch(/^\S+ \S+ \(\S+ \S+–\S+ \S+\)$/);
  });
  const stepParts = figures.filter((f) => f.show.startsWith('time.'));
  test.each(stepParts.map((f) => [f.where, f] as const))('%s: a part of the step prints as its share', (_where, figure) => {
    expect(figure.unit).toBe('share');
    expect(estimateFigure(figure.flags, figure.show, figure.unit)).toMatch(/^(\d+(\.\d)?|<0\.1) %$/);
  });

  test.each(pageCases)('%s keeps no `estimate:` annotation', (_name, path) => {
    const annotated = complaintsIn(path, (line) => (line.includes('{/* estimate:') ? [line.trim().slice(0, 120)] : []));
    expect(annotated).toEqual([]);
  });

  test.each(pageCases)('%s types no GiB/GB figure on a line that shows an estimate command', (_name, path) => {
    const offending = complaintsIn(path, (line) => {
      if (!line.includes('estimate -- ')) return [];
      const withoutComponents = line.replace(/<Estimate\b[^>]*?\/>/g, '');
      return /\d[\d,]*(\.\d+)?\s*(GiB|GB)\b/.test(withoutComponents) ? [line.trim().slice(0, 160)] : [];
    });
    expect(offending).toEqual([]);
  });
});

/** Flags as a canonical string, so `--a 1 --b` and `--b --a 1` compare equal. */
function canonicalFlags(flags: string): string {
  const raw = parseFlagString(flags);
  return JSON.stringify(Object.keys(raw).sort().map((k) => [k, raw[k]]));
}

describe('figures next to a command readers can run', () => {
  test.each(pageCases)(
    '%s: a line that shows `estimate -- <flags>` next to figures has a figure with exactly those flags',
    (_name, path) => {
      const offending = complaintsIn(path, (line) => {
        const tags = [...line.matchAll(/<Estimate\b[^>]*?\/>/g)].map((m) => attribute(m[0], 'flags') ?? '');
        if (tags.length === 0) return [];
        const shown = new Set(tags.map(canonicalFlags));
        return [...line.matchAll(/`npm run --silent estimate -- ([^`]*)`/g)]
          .map((m) => (m[1] ?? '').trim())
          .filter((flags) => !shown.has(canonicalFlags(flags)))
          .map((flags) => `estimate -- ${flags}`);
      });
      expect(offending).toEqual([]);
    },
  );
});

describe('the figure checks catch what they are meant to', () => {
  test('a configuration the engine refuses throws', () => {
    expect(() => estimateFigure('--model llama-3-8b --finetune lora --lora-targets nope', 'perGpu.total', 'GiB')).toThrow(/lora-targets/);
  });

  test('a path the estimate lacks throws', () => {
    expect(() => estimateFigure('--model gpt2', 'perGpu.nothing', 'GiB')).toThrow(/perGpu\.nothing/);
  });

  test('flag order does not matter when a figure is matched to its command', () => {
    expect(canonicalFlags('--model gpt2 --seq 512 --sp')).toBe(canonicalFlags('--sp --seq 512 --model gpt2'));
    expect(canonicalFlags('--model gpt2 --seq 512')).not.toBe(canonicalFlags('--model gpt2 --seq 1024'));
  });

  test('attributes are read from quoted and braced values', () => {
    const tag = '<Estimate flags="--model gpt2 --seq 512" show="perGpu.weights" unit="GB" digits={1} />';
    expect([attribute(tag, 'flags'), attribute(tag, 'show'), attribute(tag, 'unit'), attribute(tag, 'digits')]).toEqual([
      '--model gpt2 --seq 512', 'perGpu.weights', 'GB', '1',
    ]);
  });
});
