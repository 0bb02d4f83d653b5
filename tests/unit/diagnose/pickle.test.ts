import { describe, expect, test } from 'vitest';
import { unpickle, type PickleValue } from '../../../src/diagnose/pickle.ts';
import { fixtureBytes, fixtureText } from './fixtures.ts';

type Canonical = null | boolean | string | Canonical[] | { [key: string]: Canonical };

/** The same JSON form make_fixtures.py's `canonical` writes from CPython's own values. */
function canonical(value: PickleValue): Canonical {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  // JavaScript has one number type, so a whole float (0.0) reads like an int: the fixture's
  // floats are compared on their own in the test below.
  if (typeof value === 'number' || typeof value === 'bigint') return { int: value.toString() };
  if (value instanceof Uint8Array) return { bytes: Buffer.from(value).toString('hex') };
  if (Array.isArray(value)) return value.map(canonical);
  return { dict: [...value.entries()].map(([k, v]) => [canonical(k), canonical(v)]) };
}

const hexToBytes = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, 'hex'));

interface ProtocolCase {
  hex: string;
  expected?: { dict: [Canonical, Canonical][] };
  refusedOpcode?: string;
}
const cases = JSON.parse(fixtureText('pickle-protocols.json')) as Record<string, ProtocolCase>;

/** Sets come back as arrays in pickle order; CPython's canonical form sorts them. Compare sorted. */
function normalize(value: Canonical): Canonical {
  if (Array.isArray(value)) return value.map(normalize);
  if (value !== null && typeof value === 'object') {
    if ('set' in value && Array.isArray(value['set']))
      return [...value['set'].map(normalize)].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  }
  return value;
}

describe('unpickle: values pickled by CPython (tests/fixtures/diagnose/pickle-protocols.json)', () => {
  test.each(['2', '3', '4', '5'])('protocol %s: every key reads back as CPython wrote it', (protocol) => {
    const { hex, expected } = cases[protocol] as ProtocolCase;
    const result = unpickle(hexToBytes(hex));
    if (!result.ok) throw new Error(result.error.message);
    const actual = result.value as Map<PickleValue, PickleValue>;
    for (const [key, want] of expected?.dict ?? []) {
      const got = actual.get(key as string) as PickleValue;
      if (key === 'floats') {
        expect(got).toEqual([0, -1.5, 3.141592653589793, 1e300]);
        continue;
      }
      if (key === 'sets') {
        const sets = (got as PickleValue[][]).map((s) =>
          [...s.map(canonical)].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
        );
        expect(sets).toEqual((want as { set: Canonical[] }[]).map((s) => normalize(s)));
        continue;
      }
      expect(canonical(got), `key ${String(key)}`).toEqual(want);
    }
  });

  test('memo: a list pickled twice by reference is one object (BINGET / MEMOIZE)', () => {
    const result = unpickle(hexToBytes((cases['4'] as ProtocolCase).hex));
    if (!result.ok) throw new Error(result.error.message);
    const memo = (result.value as Map<PickleValue, PickleValue>).get('memo') as PickleValue[];
    expect(memo[0]).toBe(memo[1]);
  });

  test('bytes at protocol 2 are a call (GLOBAL _codecs.encode + REDUCE) and are refused', () => {
    const result = unpickle(hexToBytes((cases['bytes-at-protocol-2'] as ProtocolCase).hex));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ opcode: 'GLOBAL', refused: true });
  });
});

describe('unpickle: refuses code', () => {
  test('the crafted snapshot (os.system via STACK_GLOBAL + REDUCE) is refused at the STACK_GLOBAL byte', () => {
    const bytes = fixtureBytes('snapshot-runs-code.pickle');
    const result = unpickle(bytes);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.opcode).toBe('STACK_GLOBAL');
    expect(result.error.refused).toBe(true);
    expect(bytes[result.error.offset]).toBe(0x93);
    expect(result.error.message).toMatch(/refused opcode STACK_GLOBAL \(0x93\) at byte \d+/);
  });

  // Opcode bytes from CPython Lib/pickletools.py.
  test.each([
    ['GLOBAL', 0x63],
    ['STACK_GLOBAL', 0x93],
    ['REDUCE', 0x52],
    ['INST', 0x69],
    ['OBJ', 0x6f],
    ['NEWOBJ', 0x81],
    ['NEWOBJ_EX', 0x92],
    ['BUILD', 0x62],
    ['EXT1', 0x82],
    ['EXT2', 0x83],
    ['EXT4', 0x84],
    ['PERSID', 0x50],
    ['BINPERSID', 0x51],
  ])('%s (0x%s) is refused by name at its offset', (name, op) => {
    const result = unpickle(new Uint8Array([0x80, 4, 0x4e, op, 0x2e]));
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ opcode: name, offset: 3, refused: true }) as unknown });
  });

  test('an unknown opcode is refused with its byte value and offset', () => {
    const result = unpickle(new Uint8Array([0x80, 4, 0xff]));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/unknown or unsupported opcode 0xff at byte 2/);
  });
});

describe('unpickle: hand-built opcodes CPython only writes for huge values', () => {
  test('BINUNICODE8 and BINBYTES8 (8-byte lengths) read like their short forms', () => {
    const text = [0x8d, 2, 0, 0, 0, 0, 0, 0, 0, 0x68, 0x69];
    const bytes = [0x8e, 1, 0, 0, 0, 0, 0, 0, 0, 0x07];
    const result = unpickle(new Uint8Array([0x80, 4, ...text, ...bytes, 0x86, 0x2e]));
    expect(result).toEqual({ ok: true, value: ['hi', new Uint8Array([7])] });
  });

  test('a length beyond the end of the file is reported as truncation, not allocated', () => {
    const result = unpickle(new Uint8Array([0x80, 4, 0x8d, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x61]));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/BINUNICODE8 at byte 2: needs \d+ more bytes/);
  });

  test('protocol 0/1 text INT and LONG read as numbers; a missing STOP is reported', () => {
    expect(unpickle(new Uint8Array([0x80, 2, ...Buffer.from('I42\nL-7L\n'), 0x86, 0x2e]))).toEqual({ ok: true, value: [42, -7] });
    const truncated = unpickle(new Uint8Array([0x80, 4, 0x4e]));
    expect(truncated.ok).toBe(false);
    if (!truncated.ok) expect(truncated.error.message).toMatch(/without a STOP/);
  });

  test('progress is reported with increasing byte counts up to the file size', () => {
    const bytes = fixtureBytes('snapshot-oom.pickle');
    const seen: number[] = [];
    expect(unpickle(bytes, { onProgress: (n) => seen.push(n), progressEveryBytes: 10_000 }).ok).toBe(true);
    expect(seen.length).toBeGreaterThan(5);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(seen[seen.length - 1]).toBe(bytes.length);
  });
});
