import { describe, expect, test } from 'vitest';
import {
  MAX_SNAPSHOT_BYTES,
  readSnapshot,
  refuseOversizeSnapshot,
  wordSnapshotRefusal,
  type SnapshotRefusal,
} from '../../../src/diagnose/snapshot';
import type { PickleFault } from '../../../src/diagnose/pickle';
import { MESSAGES } from '../../../src/i18n/messages/index';
import { BAD_PICKLES } from '../diagnose/bad-pickles';
import { HAN, ENGLISH_RUN } from '../../support/chinese-text';

/**
 * Why the snapshot viewer refused a file is data (src/diagnose/snapshot.ts): the CLI words it in English, the zh page
 * in Chinese from the diagnose catalogue, saying the same opcodes, bytes and values.
 */
const EN = MESSAGES.en.diagnose.snapshot;
const ZH = MESSAGES['zh-cn'].diagnose.snapshot;
const zh = (refusal: SnapshotRefusal): string => wordSnapshotRefusal(refusal, ZH.refusals);

/** The refusals of every bad file, the size refusal, and the engine's own failure, which no small file can cause. */
function sampleRefusals(): SnapshotRefusal[] {
  const read = BAD_PICKLES.map((bad) => readSnapshot(bad.bytes)).flatMap((r) => (r.ok ? [] : [r.refusal]));
  const oversize = refuseOversizeSnapshot(3 * MAX_SNAPSHOT_BYTES);
  const engine: PickleFault = {
    problem: { code: 'engineStopped', params: { reason: 'Array buffer allocation failed' } },
    at: null,
  };
  return [...read, ...(oversize?.ok === false ? [oversize.refusal] : []), { code: 'pickleUnread', params: { fault: engine } }];
}

/** The values a refusal quotes (sizes aside: the viewer words them in MiB), as the Chinese must still show them. */
function quotedValues(refusal: SnapshotRefusal): string[] {
  if (refusal.code !== 'pickleUnread') return [];
  const { problem, at } = refusal.params.fault;
  const group = (n: number) => n.toLocaleString('zh-CN');
  const values = Object.entries('params' in problem ? problem.params : {}).flatMap(([key, value]) =>
    typeof value === 'number' && key !== 'protocol' && key !== 'index' ? [group(value)] : [String(value)],
  );
  return at === null ? values : [...values, at.opcode, group(at.offset)];
}

describe('the snapshot viewer’s refusals in the page’s words', () => {
  const refusals = sampleRefusals();

  test('the sample covers every way a file is refused', () => {
    expect(refusals.length).toBe(BAD_PICKLES.length + 2);
    const problems = new Set(refusals.map((r) => (r.code === 'pickleUnread' ? r.params.fault.problem.code : r.code)));
    expect(problems.size).toBe(refusals.length);
  });

  test('the English page words a refusal as the CLI does', () => {
    for (const bad of BAD_PICKLES) {
      const read = readSnapshot(bad.bytes);
      if (!read.ok) expect(wordSnapshotRefusal(read.refusal, EN.refusals)).toBe(bad.english);
    }
  });

  test('in Chinese, every refusal is Chinese and keeps the opcodes, bytes and values it names', () => {
    for (const refusal of refusals) {
      const chinese = zh(refusal);
      expect(chinese, chinese).toMatch(HAN);
      const values = quotedValues(refusal);
      for (const value of values) expect(chinese, `${chinese} quotes ${value}`).toContain(value);
      // What the file or the engine said and the function to call stay as they are; the rest is Chinese.
      const prose = values
        .reduce((text, value) => text.replace(value, ''), chinese)
        .replace(/torch\.cuda\.\S+|_record_memory_history\S+/g, '');
      expect(prose, chinese).not.toMatch(ENGLISH_RUN);
    }
  });

  test('a sample worded in full', () => {
    const truncated = refusals.find((r) => r.code === 'pickleUnread' && r.params.fault.problem.code === 'truncated');
    expect(truncated && zh(truncated)).toBe(
      'BINUNICODE（位于第 2 字节）：还需要 5 个字节，但文件只剩下 1 个字节（文件被截断了？）',
    );
    const oversize = refusals.find((r) => r.code === 'tooLarge');
    expect(oversize && zh(oversize)).toBe(
      '文件大小为 768 MiB；本查看器只读取不超过 256 MiB 的快照（请用 _record_memory_history(max_entries=…) 少记录一些条目）',
    );
  });
});

describe('the analysis worker’s stop in the page’s words', () => {
  test('the browser’s reason is shown as it is, and its absence in the page’s language', () => {
    expect(MESSAGES['zh-cn'].diagnose.input.failed(null)).toMatch(HAN);
    expect(MESSAGES['zh-cn'].diagnose.input.failed('Out of memory')).toMatch(/^\p{Script=Han}+：Out of memory$/u);
    expect(MESSAGES.en.diagnose.input.failed('Out of memory')).toBe('The analysis stopped: Out of memory');
  });
});
