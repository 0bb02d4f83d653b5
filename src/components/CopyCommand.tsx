import { useState } from 'preact/hooks';

/**
 * "Copy as command": the terminal command that gives what the reader just did here, and a button that copies it.
 * Every tool page shows one (the calculators, the planner, the diagnose tools), written by `commandLine`
 * (src/base/command-line.ts), so what is copied runs through the published package and prints the same answer.
 */
export default function CopyCommand({
  command,
  intro,
  copy,
  copied,
}: {
  /** The command line. */
  command: string;
  /** The words before it, from the widget's strings. */
  intro: string;
  /** The button's label, and what it says once the command is on the clipboard. */
  copy: string;
  copied: string;
}) {
  const [copiedCommand, setCopiedCommand] = useState<string | null>(null);
  return (
    <p class="copy-command">
      {intro} <code data-command>{command}</code>{' '}
      <button
        type="button"
        data-action="copy-command"
        onClick={() => void navigator.clipboard.writeText(command).then(() => setCopiedCommand(command))}
      >
        {copiedCommand === command ? copied : copy}
      </button>
    </p>
  );
}
