/**
 * Files the snapshot reader refuses, one for each way a pickle can fail that a file can really cause, each built from
 * its bytes (opcode values from CPython Lib/pickletools.py), with the English sentence the CLI has always printed for it.
 */
import { writePickle } from '../../../src/diagnose/pickle-writer.ts';

/** A refused file: what it is, its bytes and the CLI's sentence for it. */
export interface BadPickle {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly english: string;
}

const pickle = (...ops: (number | string)[]): Uint8Array =>
  new Uint8Array(ops.flatMap((op) => (typeof op === 'string' ? [...Buffer.from(op, 'latin1')] : [op])));

export const BAD_PICKLES: readonly BadPickle[] = [
  { name: 'an empty file', bytes: pickle(), english: 'the file is empty' },
  {
    name: 'a text file',
    bytes: pickle('timestamp, index, memory.used [MiB]\n'),
    english: 'not a pickle of protocol 2 or later (it does not start with the PROTO opcode 0x80)',
  },
  {
    name: 'a pickle cut before its STOP',
    bytes: pickle(0x80, 4, 0x4e),
    english: 'NONE at byte 3: the pickle ends without a STOP opcode (truncated file?)',
  },
  {
    name: 'protocol 7',
    bytes: pickle(0x80, 7, 0x4e, 0x2e),
    english: 'PROTO at byte 0: unsupported pickle protocol 7 (this reader takes 2 to 5)',
  },
  {
    name: 'an out-of-band buffer',
    bytes: pickle(0x80, 5, 0x97, 0x2e),
    english: 'NEXT_BUFFER at byte 2: out-of-band buffers (NEXT_BUFFER) are not supported: a memory snapshot has none',
  },
  {
    name: 'an import',
    bytes: pickle(0x80, 4, 0x4e, 0x93, 0x2e),
    english: 'refused opcode STACK_GLOBAL (0x93) at byte 3: it imports or runs code, which a memory snapshot never needs',
  },
  {
    name: 'an unknown opcode',
    bytes: pickle(0x80, 4, 0xff),
    english: 'unknown or unsupported opcode 0xff at byte 2: this reader only takes plain data (protocols 2 to 5)',
  },
  {
    name: 'a string longer than the file',
    bytes: pickle(0x80, 4, 0x58, 5, 0, 0, 0, 0x61),
    english: 'BINUNICODE at byte 2: needs 5 more bytes but the file ends after 1 (truncated?)',
  },
  {
    name: 'a negative length',
    bytes: pickle(0x80, 4, 0x54, 0xff, 0xff, 0xff, 0xff),
    english: 'BINSTRING at byte 2: negative length -1',
  },
  {
    name: 'a string that is not UTF-8',
    bytes: pickle(0x80, 4, 0x8c, 2, 0xff, 0xfe, 0x2e),
    english: 'SHORT_BINUNICODE at byte 2: the string is not valid UTF-8',
  },
  {
    name: 'a text argument without its newline',
    bytes: pickle(0x80, 4, 'I12'),
    english: 'INT at byte 2: its text argument has no newline within 64 bytes',
  },
  { name: 'a text INT', bytes: pickle(0x80, 4, 'Iab\n'), english: 'INT at byte 2: "ab" is not an integer' },
  { name: 'a text FLOAT', bytes: pickle(0x80, 4, 'Fxyz\n'), english: 'FLOAT at byte 2: "xyz" is not a float' },
  { name: 'a text GET', bytes: pickle(0x80, 4, 'gab\n'), english: 'GET at byte 2: "ab" is not a memo index' },
  { name: 'a POP of nothing', bytes: pickle(0x80, 4, 0x30), english: 'POP at byte 2: the stack is empty' },
  {
    name: 'a MARK taken as a value',
    bytes: pickle(0x80, 4, 0x28, 0x85),
    english: 'TUPLE1 at byte 3: found a MARK where a value was expected',
  },
  {
    name: 'a MEMOIZE of nothing',
    bytes: pickle(0x80, 4, 0x94),
    english: 'MEMOIZE at byte 2: there is no value on top of the stack',
  },
  { name: 'a LIST without MARK', bytes: pickle(0x80, 4, 0x6c), english: 'LIST at byte 2: no MARK on the stack' },
  {
    name: 'an APPEND to None',
    bytes: pickle(0x80, 4, 0x4e, 0x4e, 0x61),
    english: 'APPEND at byte 4: the target is not a list or set',
  },
  {
    name: 'a SETITEM on None',
    bytes: pickle(0x80, 4, 0x4e, 0x4e, 0x4e, 0x73),
    english: 'SETITEM at byte 5: the target is not a dict',
  },
  {
    name: 'a DICT of one item',
    bytes: pickle(0x80, 4, 0x28, 0x4e, 0x64),
    english: 'DICT at byte 4: odd number of items for key/value pairs',
  },
  { name: 'a GET of an empty slot', bytes: pickle(0x80, 4, 0x68, 3), english: 'BINGET at byte 2: memo slot 3 was never stored' },
  {
    name: 'a pickle of a dict without segments',
    bytes: writePickle({ allocator: 'native', traces: [] }),
    english: 'the pickle holds no "segments" or "device_traces": it is not a torch.cuda.memory._dump_snapshot() file',
  },
];
