import { describe, expect, test } from 'vitest';
import { parseMemorySummary } from '../../../src/diagnose/memory-summary';
import { parseNvidiaSmi } from '../../../src/diagnose/nvidia-smi';
import { parseOomMessage } from '../../../src/diagnose/oom-message';
import { NoteList, unreadNote, wordUnreadReason, type UnreadNote, type UnreadReason } from '../../../src/diagnose/notes';
import { MESSAGES } from '../../../src/i18n/messages/index';
import { HAN, ENGLISH_RUN } from '../../support/chinese-text';

/**
 * Why a reader skipped a line is data (a code and its parameters): the CLI words it in English, the diagnose pages in their
 * language, and both say the same values.
 */
const EN = MESSAGES.en.diagnose.input;
const ZH = MESSAGES['zh-cn'].diagnose.input;

/** A CSV log with a cut line, a bad size, a bad index and a bad timestamp, and no way to tell GPUs apart on another. */
const BAD_CSV = [
  'timestamp, index, memory.used [MiB], memory.total [MiB]',
  '2024/05/07 10:00:01.000, 0, 1000 MiB, 24564 MiB',
  '2024/05/07 10:00:02.000, 0, lots, 24564 MiB',
  '2024/05/07 10:00:03.000, x, 1000 MiB, 24564 MiB',
  'yesterday, 0, 1000 MiB, 24564 MiB',
  '2024/05/07 10:00:04.000, 0',
].join('\n');
const NO_INDEX_CSV = ['memory.used [MiB]', '1000 MiB', '1200 MiB'].join('\n');

/** The reasons the inputs above do not give (snapshots, -q and table output, cut input, several summaries, OOMs). */
const OTHER_REASONS: readonly UnreadReason[] = [
  { code: 'notASnapshot' },
  { code: 'segmentsSkipped', params: { count: 3 } },
  { code: 'traceEntriesSkipped', params: { device: 1, count: 4 } },
  { code: 'textCut', params: { mebiChars: 96 } },
  { code: 'noMemoryRow', params: { gpu: 3, atEnd: false } },
  { code: 'moreSummaries', params: { count: 2 } },
  { code: 'usedNotMib', params: { column: 'FB memory Used', value: '12 GB' } },
  { code: 'figureMissing', params: { name: 'total capacity' } },
];

/** Every note of the inputs above, and the summary and list notes built directly. */
function sampleNotes(): UnreadNote[] {
  const many = new NoteList();
  for (let i = 0; i < 25; i++) many.add(i + 1, { code: 'dmonRowUnread' });
  return [
    ...parseNvidiaSmi(BAD_CSV).unread,
    ...parseNvidiaSmi(NO_INDEX_CSV).unread,
    ...parseNvidiaSmi('hello').unread,
    ...parseNvidiaSmi('# gpu   pwr  gtemp  mtemp    sm   mem\n    0    60     40      -     5     3').unread,
    ...parseNvidiaSmi('<nvidia_smi_log>').unread,
    ...parseMemorySummary('|   Allocated memory     | lots | 1 | 2 | 3 |').unread,
    ...many.list(),
    ...parseOomMessage('RuntimeError: something else').unread,
    ...parseOomMessage(
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 XB. GPU 0 has a total capacity of 23.65 GiB',
    ).unread,
    ...OTHER_REASONS.map((reason) => unreadNote(0, reason)),
  ];
}

describe('the readers’ notes in the page’s words', () => {
  const notes = sampleNotes();

  test('every note carries its reason, whose English words are its message (the CLI’s)', () => {
    expect(new Set(notes.map((n) => n.reason.code)).size).toBeGreaterThanOrEqual(10);
    for (const note of notes) {
      expect(wordUnreadReason(note.reason, EN.unreadReasons)).toBe(note.message);
    }
    expect(notes.map((n) => n.message)).toContain('index "x" is not a GPU number');
  });

  test('in Chinese, every note is Chinese and keeps the values it quotes', () => {
    for (const note of notes) {
      const chinese = wordUnreadReason(note.reason, ZH.unreadReasons);
      expect(chinese, chinese).toMatch(HAN);
      // Commands and the quoted names of headers and rows stay as the tools print them.
      const prose = chinese.replace(/nvidia-smi [^（，。；]*/g, '').replace(/"[^"]*"/g, '');
      expect(prose, chinese).not.toMatch(ENGLISH_RUN);
      const params: object = 'params' in note.reason ? note.reason.params : {};
      for (const value of Object.values(params).filter((v) => typeof v === 'number' || typeof v === 'string')) {
        expect(chinese, `${chinese} quotes ${value}`).toContain(String(value));
      }
    }
  });
});
