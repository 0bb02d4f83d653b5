/**
 * Sentences kept as data: a code and, where its sentence has any, the parameters, worded later by a words object with
 * one function per code (English beside the layer that keeps the sentence, for the CLI; another language's from the
 * site's catalogues). It lives in base so that every pure layer can share it: the engine's warnings and field errors
 * (memory/warnings.ts, memory/rule-words.ts), the training-config reader's errors (setup/error-words.ts,
 * setup/toml-subset.ts) and the diagnose readers' reasons (diagnose/notes.ts, diagnose/pickle.ts,
 * diagnose/snapshot.ts) are all kept so.
 */

/** A words object's own shape: one function per code, each taking at most one parameters object. */
export type WordsOf<W> = { readonly [C in keyof W]: W[C] };

/** One sentence of `W` as data: its code and, where the code's function takes any, its parameters. */
export type CodedSentence<W extends Record<string, (...args: never[]) => string>> = {
  readonly [C in keyof W & string]: Parameters<W[C]> extends []
    ? { readonly code: C }
    : { readonly code: C; readonly params: Parameters<W[C]>[0] };
}[keyof W & string];

/** The sentence of `coded` in `words`. */
export function wordCoded<W extends Record<string, (...args: never[]) => string>>(coded: CodedSentence<W>, words: W): string {
  // The union of word functions cannot be called with the union of parameters; each sentence's params match its code.
  const word = words[coded.code] as unknown as (params?: unknown) => string;
  return word('params' in coded ? coded.params : undefined);
}
