/** The lessons a plan's choices come from, so each plan can link to what explains it. */

/** Slug of a lesson page under /lessons/. */
export type LessonId =
  | '01-diagnostics'
  | '02-mixed-precision'
  | '03-gradient-accumulation'
  | '04-gradient-checkpointing'
  | '05-parallelism'
  | '06-offload'
  | '07-distillation-and-compression'
  | '08-putting-it-together';

/** Lesson titles, in reading order (the sidebar's titles). */
export const LESSON_TITLES: Readonly<Record<LessonId, string>> = {
  '01-diagnostics': 'Diagnostics',
  '02-mixed-precision': 'Mixed precision',
  '03-gradient-accumulation': 'Gradient accumulation',
  '04-gradient-checkpointing': 'Gradient checkpointing',
  '05-parallelism': 'Parallelism',
  '06-offload': 'Offload',
  '07-distillation-and-compression': 'Distillation and compression',
  '08-putting-it-together': 'Putting it together',
};

/** Site path of a lesson, e.g. `/lessons/04-gradient-checkpointing/`. */
export function lessonHref(id: LessonId): string {
  return `/lessons/${id}/`;
}

const READING_ORDER = Object.keys(LESSON_TITLES) as LessonId[];

/**
 * The lessons of `choices` (and `extra`) in reading order without repeats. Each set of lessons is one shared array:
 * every plan carries its lessons, and the page copies the plans out of its worker, where a shared array is copied once.
 */
export function orderLessons(
  choices: readonly { readonly lessons: readonly LessonId[] }[],
  extra: readonly LessonId[] = [],
): readonly LessonId[] {
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
const BY_SET = new Map<number, readonly LessonId[]>();
