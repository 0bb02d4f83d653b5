/**
 * A training script's command line (`python train.py --per_device_train_batch_size 4 --bf16`, or the flags alone) as
 * the keys HfArgumentParser would read: `--key value`, `--key=value`, a bare `--flag` (true), and several values after
 * one flag (a list, as `nargs="+"` reads it). Text only: nothing is run, no variable or substitution expanded.
 */

/** Split `text` into words as a POSIX shell would, for quotes, backslashes and comments only. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (quote !== null) {
      if (char === quote) quote = null;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (char === '\\' && text[i + 1] === '\n') i++;
    else if (char === '\\' && i + 1 < text.length) {
      word += text[++i] ?? '';
      started = true;
    } else if (/\s/.test(char)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else if (char === '#' && !started) {
      while (i < text.length && text[i] !== '\n') i++;
    } else {
      word += char;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
}

/**
 * The script's flags as keys: everything after the script (`*.py`), or after the last launcher word when no script is
 * named. A flag with several values gets them comma-joined, which the readers read as a list.
 */
export function commandLineKeys(text: string): Map<string, string> {
  const words = shellWords(text);
  let script = -1;
  words.forEach((word, index) => {
    if (word.endsWith('.py')) script = index;
  });
  const first = script >= 0 ? script + 1 : words.findIndex((word) => word.startsWith('--'));
  const keys = new Map<string, string>();
  let flag: string | null = null;
  let values: string[] = [];
  const close = () => {
    if (flag !== null) keys.set(flag, values.length === 0 ? 'true' : values.join(','));
  };
  for (const word of words.slice(Math.max(first, 0))) {
    if (word.startsWith('--')) {
      close();
      const [name = '', ...rest] = word.slice(2).split('=');
      flag = name.replaceAll('-', '_');
      values = rest.length > 0 ? [rest.join('=')] : [];
    } else values.push(word);
  }
  close();
  return keys;
}
