/**
 * Every real `_dump_snapshot()` pickle from public repositories, when the folder that holds them is present (they are
 * not committed): each is read, and its figures are held to what CPython's own `pickle` module reads from the same
 * file (the oracle below), so the data-only unpickler and the analysis are checked against an independent reader.
 * The folder: $GML_REAL_SNAPSHOTS, else the first `real-snapshots` folder of the checkout's neighbours (see below).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readSnapshot } from '../../../src/diagnose/snapshot.ts';

const REPO_ROOT = resolve(import.meta.dirname, '../../..');

/** The snapshots folder next to an ancestor of the repository (a worktree sits deeper than the clone), or null. */
function findSnapshotsFolder(): string | null {
  const fromEnv = process.env['GML_REAL_SNAPSHOTS'];
  if (fromEnv !== undefined) return existsSync(fromEnv) ? fromEnv : null;
  for (let dir = dirname(REPO_ROOT); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'real-snapshots');
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * What CPython reads from each pickle, per device: trace entries, segments, reserved (sum of `total_size`), active
 * (blocks whose state starts with "active"), and oom entries. A pickled segment list counts as a snapshot's segments.
 * The files come from public repositories, so the oracle's unpickler refuses every global (`find_class`): a snapshot
 * is built from dicts, lists, strings and numbers alone, and a file that names a callable fails the test, never runs.
 */
const ORACLE = `
import json, pickle, sys
class DataOnly(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f'refused global {module}.{name}')
out = {}
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        snap = DataOnly(f).load()
    if isinstance(snap, list):
        snap = {'segments': snap}
    traces = snap.get('device_traces', [])
    devices = {}
    def dev(d):
        return devices.setdefault(d, {'traceEvents': 0, 'segments': 0, 'reservedBytes': 0, 'activeBytesAtEnd': 0, 'ooms': 0})
    for i, trace in enumerate(traces):
        if trace:
            dev(i)['traceEvents'] = len(trace)
            dev(i)['ooms'] = sum(1 for e in trace if e.get('action') == 'oom')
    for s in snap.get('segments', []):
        d = dev(s['device'])
        d['segments'] += 1
        d['reservedBytes'] += s['total_size']
        d['activeBytesAtEnd'] += sum(b['size'] for b in s['blocks'] if b['state'].startswith('active'))
    out[path] = {str(k): v for k, v in sorted(devices.items())}
print(json.dumps(out))
`;

const folder = findSnapshotsFolder();
const files =
  folder === null
    ? []
    : readdirSync(folder)
        .filter((f) => /\.(pickle|pkl)$/.test(f))
        .sort();
const python = spawnSync('python3', ['--version']).status === 0;
const skipReason =
  folder === null
    ? 'no real-snapshots folder found (set GML_REAL_SNAPSHOTS to read them)'
    : !python
      ? 'python3 is not installed: it is the independent reader the figures are held to'
      : null;
if (skipReason !== null) console.log(`snapshot.real.test.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('real _dump_snapshot() pickles, read as CPython reads them', () => {
  const paths = files.map((f) => join(folder ?? '', f));
  const oracle = () => {
    const run = spawnSync('python3', ['-c', ORACLE, ...paths], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (run.status !== 0) throw new Error(run.stderr);
    return JSON.parse(run.stdout) as Record<string, Record<string, Record<string, number>>>;
  };
  const expected = skipReason === null ? oracle() : {};

  test('the folder holds pickles', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  test.each(files)('%s: every device, trace entry, segment, reserved and active byte as CPython reads them', (file) => {
    const path = join(folder ?? '', file);
    const read = readSnapshot(new Uint8Array(readFileSync(path)));
    if (!read.ok) throw new Error(read.message);
    const byDevice = Object.fromEntries(
      read.analysis.devices.map((d) => [
        String(d.device),
        {
          traceEvents: d.traceEvents,
          segments: d.segments.length,
          reservedBytes: d.reservedBytes,
          activeBytesAtEnd: d.activeBytesAtEnd,
          ooms: read.analysis.oomEvents.filter((o) => o.device === d.device).length,
        },
      ]),
    );
    expect(byDevice).toEqual(expected[path]);
    expect(read.analysis.unread).toEqual([]);
  });
});
