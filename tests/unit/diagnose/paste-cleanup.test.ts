import { describe, expect, test } from 'vitest';
import { cleanPaste } from '../../../src/diagnose/paste-cleanup.ts';
import { parseOomMessage } from '../../../src/diagnose/oom-message.ts';
import { exampleText, pasteText } from './fixtures.ts';

/** Cuts every line at `width` columns the way a terminal does, mid-word included. */
const hardWrap = (text: string, width: number): string =>
  text
    .split('\n')
    .flatMap((line) => (line.length <= width ? [line] : (line.match(new RegExp(`.{1,${width}}`, 'g')) ?? [])))
    .join('\n');

describe('cleanPaste', () => {
  test('a real message wrapped at 78 columns ("CU" / "DA out of memory") reads as the unwrapped one', () => {
    // A log line whose text before the message puts the cut inside "CUDA", as in the report.
    const original = `${'step 5000 failed: '.repeat(5).slice(0, 76)}${pasteText('02-hip-1.txt').replace('HIP', 'CUDA')}`;
    const wrapped = hardWrap(original, 78).split('\n');
    expect(wrapped[0]?.endsWith('CU')).toBe(true);
    expect(wrapped[1]?.startsWith('DA out of memory')).toBe(true);
    const { message } = parseOomMessage(wrapped.join('\n'));
    expect(message).not.toBeNull();
    expect(message).toEqual(parseOomMessage(original).message);
  });

  test('a prefix repeated on every line is stripped, stacked prefixes too', () => {
    const original = exampleText('oom-current.txt');
    const prefixed = original
      .split('\n')
      .map((line, i) => `[rank0]: 2024-05-07 10:00:0${i % 10},123 - ERROR - ${line}`)
      .join('\n');
    const cleaned = cleanPaste(prefixed);
    expect(cleaned.strippedPrefixes).toBe(2);
    expect(cleaned.text).toBe(original);
    expect(parseOomMessage(prefixed).message).toEqual(parseOomMessage(original).message);
  });

  test('a prefix on only a few lines is the text, not the paste, and stays', () => {
    const text = '# a comment\nline one\nline two\nline three';
    expect(cleanPaste(text)).toMatchObject({ text, strippedPrefixes: 0, wrapWidth: null });
  });

  test('table rows of one width are not joined, nor are repeated traceback frames', () => {
    const table = ['|  0  NVIDIA A100   On  | 00000000:07:00.0 Off |', '|  1  NVIDIA A100   On  | 00000000:0F:00.0 Off |'].join(
      '\n',
    );
    expect(cleanPaste(table).wrapWidth).toBeNull();
    const frame = '  File "/usr/lib/python3/site-packages/torch/nn/modules/module.py", line 1501, in _call_impl';
    expect(cleanPaste([frame, frame, frame, 'RuntimeError: boom'].join('\n')).wrapWidth).toBeNull();
  });
});
