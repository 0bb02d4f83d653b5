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

/** Lessons in reading order without repeats. */
export function orderLessons(ids: Iterable<LessonId>): LessonId[] {
  const wanted = new Set(ids);
  return (Object.keys(LESSON_TITLES) as LessonId[]).filter((id) => wanted.has(id));
}
