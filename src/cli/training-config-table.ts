/** The terminal's table of a training-config mapping: key → value → engine option, with the rule's source. */
import { effectText } from '../setup/index.ts';
import type { TrainingConfigJson } from './training-config-file.ts';

/** The mapping as lines of text, printed before the estimate (sources with `--sources`). */
export function renderTrainingConfig(mapping: TrainingConfigJson, sources: boolean): string {
  const out = [`Training config (${mapping.files.map((f) => `${f.file}: ${f.tool}`).join(', ')})`];
  out.push(`  merge order: ${mapping.mergeOrder}; flags given on the command line win`);
  if (mapping.stack !== null) out.push(`  stack: ${mapping.stack}`);
  for (const { file } of mapping.files) {
    const lines = mapping.lines.filter((line) => line.file === file);
    const width = Math.max(0, ...lines.map((line) => `${line.key} = ${line.value}`.length));
    out.push(`  ${file}`);
    for (const line of lines) {
      const source = sources && line.source !== '' ? `  [${line.source}]` : '';
      out.push(`    ${`${line.key} = ${line.value}`.padEnd(width)}  → ${effectText(line)}${source}`);
    }
  }
  for (const conflict of mapping.conflicts) out.push(`  conflict: ${conflict.line}`);
  for (const missing of mapping.missing)
    out.push(`  not given: the file ${missing.file} names in ${missing.key}; its settings are not counted`);
  if (mapping.unknown.length > 0) out.push(`  unknown keys: ${mapping.unknown.map((k) => k.key).join(', ')}`);
  if (mapping.ignored.length > 0) out.push(`  ignored (no effect on memory): ${mapping.ignored.map((k) => k.key).join(', ')}`);
  return `${out.join('\n')}\n\n`;
}
