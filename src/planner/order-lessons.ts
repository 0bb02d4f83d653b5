/** The lessons a plan's choices come from, in reading order, so each plan can link to what explains it. */
import { LESSONS, type LessonSlug } from '../base/lessons.ts';

const READING_ORDER: readonly LessonSlug[] = LESSONS.map((lesson) => lesson.slug);

/**
 * The lessons of `choices` (and `extra`) in reading order without repeats. Each set of lessons is one shared array:
 * every plan carries its lessons, and the page copies the plans out of its worker, where a shared array is copied once.
 */
export function orderLessons(
  choices: readonly { readonly lessons: readonly LessonSlug[] }[],
  extra: readonly LessonSlug[] = [],
): readonly LessonSlug[] {
  let set = 0;
  for (const choice of choices) for (const id of choice.lessons) set |= 1 << READING_ORDER.indexOf(id);
  for (const id of extra) set |= 1 << READING_ORDER.indexOf(id);
  let ordered = BY_SET.get(set);
  if (ordered === undefined) {
    ordered = Object.freeze(READING_ORDER.filter((_, bit) => (set & (1 << bit)) !== 0));
    BY_SET.set(set, ordered);
  }
  return ordered;
}
const BY_SET = new Map<number, readonly LessonSlug[]>();
