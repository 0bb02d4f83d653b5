import { useState } from 'preact/hooks';

/** Where a text tool is: waiting for input, reading it, or showing what it found. */
export type TextAnalysis<R> = { status: 'idle' } | { status: 'working' } | { status: 'done'; result: R };

/**
 * Reads a dropped, chosen or pasted file as text and runs `analyse` on it, after the "working"
 * state has painted (a one-day log takes a moment). `analyse` never throws: the parsers return
 * what they could not read instead.
 */
export function useTextAnalysis<R>(analyse: (text: string) => R): [TextAnalysis<R>, (file: File) => void] {
  const [state, setState] = useState<TextAnalysis<R>>({ status: 'idle' });
  const onFile = (file: File) => {
    setState({ status: 'working' });
    void file.text().then((text) => setTimeout(() => setState({ status: 'done', result: analyse(text) }), 0));
  };
  return [state, onFile];
}
