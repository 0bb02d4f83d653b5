import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

/** Every Python, JSON and shell block in the pages parses: readers copy them as they are. */
const CONTENT_DIR = join(import.meta.dirname, '../../../content/docs');

interface CodeBlock {
  readonly file: string;
  readonly line: number;
  readonly lang: string;
  readonly code: string;
}

function listPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listPages(path) : /\.mdx?$/.test(entry.name) ? [path] : [];
  });
}

/** Fenced blocks (``` or ~~~, any indentation) with their language and starting line. */
function codeBlocks(path: string): CodeBlock[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '```', lang = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j] ?? '').trimStart().startsWith(fence)) {
      body.push((lines[j] ?? '').slice(indent.length));
      j++;
    }
    blocks.push({ file: relative(CONTENT_DIR, path), line: i + 1, lang: lang.toLowerCase(), code: body.join('\n') });
    i = j;
  }
  return blocks;
}

const blocks = listPages(CONTENT_DIR).flatMap(codeBlocks);
const named = (langs: string[]) => blocks.filter((b) => langs.includes(b.lang));
const where = (b: CodeBlock) => `${b.file}:${b.line}`;

describe('code blocks in content/docs', () => {
  test('the lessons have code to check', () => {
    expect(named(['python', 'py']).length).toBeGreaterThan(10);
  });

  const python = named(['python', 'py']);
  // One interpreter for every block (a process each took seconds on a 2-core machine): it
  // answers with each block's syntax error, or an empty string where the block parses.
  const pythonErrors = (): string[] => {
    const script = [
      'import ast, json, sys',
      'errors = []',
      'for code in json.load(sys.stdin):',
      '    try:',
      '        ast.parse(code)',
      '        errors.append("")',
      '    except SyntaxError as error:',
      '        errors.append(f"{error.msg} (line {error.lineno})")',
      'json.dump(errors, sys.stdout)',
    ].join('\n');
    const result = spawnSync('python3', ['-c', script], { input: JSON.stringify(python.map((b) => b.code)), encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`python3 failed: ${result.stderr}`);
    return JSON.parse(result.stdout) as string[];
  };
  let errors: string[] | undefined;

  test.each(python.map((b, index) => [where(b), b, index] as const))('python block at %s parses (ast.parse)', (_, block, index) => {
    errors ??= pythonErrors();
    expect(errors[index], block.code).toBe('');
  });

  test.each(named(['json', 'jsonc']).map((b) => [where(b), b] as const))('json block at %s parses (JSON.parse)', (_, block) => {
    expect(() => JSON.parse(block.code)).not.toThrow();
  });

  test.each(named(['bash', 'sh', 'shell', 'zsh']).map((b) => [where(b), b] as const))('shell block at %s parses (bash -n)', (_, block) => {
    const result = spawnSync('bash', ['-n'], { input: block.code, encoding: 'utf8' });
    expect(result.stderr, block.code).toBe('');
    expect(result.status).toBe(0);
  });
});
