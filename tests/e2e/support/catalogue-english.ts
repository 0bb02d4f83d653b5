import { HAN } from '../../support/chinese-text';

/**
 * Every plain English string of a catalogue (`english`) of two words or more that its Chinese twin (`chinese`, walked
 * key for key beside it) words differently: a sentence or a label that must not stay English on a Chinese page. A
 * name both catalogues keep (“LoRA dropout”, “ZeRO-3 / FSDP”) is left out. Functions are left to each test, which knows
 * what to call them with.
 */
export function englishSentences(english: unknown, chinese: unknown): string[] {
  if (typeof english === 'string')
    return english !== chinese && /\p{L}{2,}\s+\p{L}{2,}/u.test(english) && !HAN.test(english) ? [english] : [];
  if (typeof english !== 'object' || english === null) return [];
  const other = (chinese ?? {}) as Record<string, unknown>;
  return Object.entries(english).flatMap(([key, value]) => englishSentences(value, other[key]));
}
