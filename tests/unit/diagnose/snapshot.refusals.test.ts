import { describe, expect, test } from 'vitest';
import { unpickle, wordPickleFault } from '../../../src/diagnose/pickle.ts';
import { MAX_SNAPSHOT_BYTES, readSnapshot, refuseOversizeSnapshot, wordSnapshotRefusal } from '../../../src/diagnose/snapshot.ts';
import { BAD_PICKLES } from './bad-pickles.ts';

/**
 * A refusal is data (a code and its parameters) worded later; its English words are the sentences the CLI printed before
 * refusals were data, which `diagnose` and its `--json` still print.
 */
describe('readSnapshot: every refusal is data whose English words are the sentence the CLI prints', () => {
  test.each(BAD_PICKLES.map((bad) => [bad.name, bad] as const))('%s', (_, bad) => {
    const read = readSnapshot(bad.bytes);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.message).toBe(bad.english);
    expect(wordSnapshotRefusal(read.refusal)).toBe(read.message);
  });

  test('the file size is refused before reading, in the same words', () => {
    const refusal = refuseOversizeSnapshot(MAX_SNAPSHOT_BYTES + 1);
    expect(refusal).toMatchObject({
      ok: false,
      refused: false,
      refusal: { code: 'tooLarge', params: { sizeBytes: MAX_SNAPSHOT_BYTES + 1 } },
    });
    if (refusal?.ok !== false) return;
    expect(refusal.message).toBe(
      'the file is 256 MiB; this viewer reads snapshots up to 256 MiB (record fewer entries with _record_memory_history(max_entries=…))',
    );
    expect(refuseOversizeSnapshot(MAX_SNAPSHOT_BYTES)).toBeNull();
  });

  test('only a pickle that imports or runs code is marked refused', () => {
    const refused = BAD_PICKLES.filter((bad) => {
      const read = readSnapshot(bad.bytes);
      return !read.ok && read.refused;
    });
    expect(refused.map((bad) => bad.name)).toEqual(['an import']);
  });

  test('the unpickler’s error carries the fault its message is worded from', () => {
    for (const bad of BAD_PICKLES) {
      const result = unpickle(bad.bytes);
      if (result.ok) continue;
      expect(wordPickleFault(result.error)).toBe(result.error.message);
    }
  });
});
