import { DEFAULT_STACK, STACKS, type Stack } from '../../memory/index';

/** The localStorage key that keeps the reader's answer to "How do you train?" for the next visit. */
export const STACK_STORAGE_KEY = 'gpu-memory-lab:stack';

/** The window event every island on a page listens to, so one answer changes them all. */
export const STACK_EVENT = 'gpu-memory-lab:stack';

/** Whether `value` names a stack. */
export function isStack(value: unknown): value is Stack {
  return typeof value === 'string' && (STACKS as readonly string[]).includes(value);
}

/**
 * The stack a page assumes: the URL's `stack=` (a shared link says what it computed), else the reader's stored answer,
 * else `fallback` (a calculator's own default, or the engine's). A value that names no stack is ignored.
 */
export function chosenStack(search: string, stored: string | null, fallback: Stack = DEFAULT_STACK): Stack {
  const fromUrl = new URLSearchParams(search).get('stack');
  if (isStack(fromUrl)) return fromUrl;
  return isStack(stored) ? stored : fallback;
}

/** The stored answer, or null where storage is unavailable (private mode, a blocked cookie policy). */
export function storedStack(): string | null {
  try {
    return localStorage.getItem(STACK_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Keep `stack` for the next visit and tell the page's other islands. */
export function saveStack(stack: Stack): void {
  try {
    localStorage.setItem(STACK_STORAGE_KEY, stack);
  } catch {
    // Storage refused: the choice still holds for this page and its URL.
  }
  window.dispatchEvent(new CustomEvent<Stack>(STACK_EVENT, { detail: stack }));
}
