/**
 * Several field errors as one line a widget shows, each after the field or config.json key it names and worded in the
 * page's language from its data (the catalogue's `fieldError`), never joined from the engine's English messages.
 */
import type { ShownFieldError } from '../memory/index';

/** `errors` on one line, each after its field, worded by `word`. */
export function fieldErrorsLine(errors: readonly ShownFieldError[], word: (error: ShownFieldError) => string): string {
  return errors.map((error) => `${error.field}: ${word(error)}`).join('; ');
}
