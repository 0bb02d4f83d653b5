/**
 * A data-only unpickler: reads Python pickles of protocols 2 to 5 made of None, bools, ints
 * (big ones too), floats, str, bytes, lists, tuples, dicts and sets, which is all that
 * `torch.cuda.memory._dump_snapshot()` writes (a dict of lists, dicts, str and int; see
 * `_snapshot` in torch/cuda/memory.py). Every opcode that imports, calls or builds an object
 * (GLOBAL, STACK_GLOBAL, REDUCE, INST, OBJ, NEWOBJ, NEWOBJ_EX, BUILD, EXT1/2/4, PERSID,
 * BINPERSID) is refused by name and offset, and so is any opcode this reader does not know.
 * Opcode values and semantics: CPython Lib/pickletools.py (the opcode table) and Lib/pickle.py.
 */
import { MIB } from '../base/bytes.ts';
import { wordCoded, type CodedSentence, type WordsOf } from '../base/coded-words.ts';

/** A value a data-only pickle can hold. Tuples and sets become arrays; dicts become Maps. */
export type PickleValue = null | boolean | number | bigint | string | Uint8Array | PickleValue[] | Map<PickleValue, PickleValue>;

/**
 * Why a pickle was not read, by code, in English: the CLI's words (a page words the code in its language). Counts of
 * bytes and offsets are numbers; an opcode is named as pickletools names it, or by its byte (`0xff`).
 */
export const PICKLE_PROBLEM_WORDS = {
  // The file as a whole.
  emptyFile: (): string => 'the file is empty',
  notProtocol2: (): string => 'not a pickle of protocol 2 or later (it does not start with the PROTO opcode 0x80)',
  noStop: (): string => 'the pickle ends without a STOP opcode (truncated file?)',
  unsupportedProtocol: (p: { protocol: number }): string =>
    `unsupported pickle protocol ${p.protocol} (this reader takes 2 to 5)`,
  // Opcodes this reader does not take.
  outOfBandBuffer: (p: { opcode: 'NEXT_BUFFER' | 'READONLY_BUFFER' }): string =>
    `out-of-band buffers (${p.opcode}) are not supported: a memory snapshot has none`,
  refusedOpcode: (p: { opcode: string; byte: string; offset: number }): string =>
    `refused opcode ${p.opcode} (${p.byte}) at byte ${p.offset}: it imports or runs code, which a memory snapshot never needs`,
  unknownOpcode: (p: { byte: string; offset: number }): string =>
    `unknown or unsupported opcode ${p.byte} at byte ${p.offset}: this reader only takes plain data (protocols 2 to 5)`,
  // An opcode's argument.
  truncated: (p: { needed: number; left: number }): string =>
    `needs ${p.needed} more bytes but the file ends after ${p.left} (truncated?)`,
  negativeLength: (p: { length: number }): string => `negative length ${p.length}`,
  invalidUtf8: (): string => 'the string is not valid UTF-8',
  noNewline: (): string => 'its text argument has no newline within 64 bytes',
  notAnInteger: (p: { text: string }): string => `"${p.text}" is not an integer`,
  notAFloat: (p: { text: string }): string => `"${p.text}" is not a float`,
  notAMemoIndex: (p: { text: string }): string => `"${p.text}" is not a memo index`,
  // The stack and the memo.
  emptyStack: (): string => 'the stack is empty',
  markForValue: (): string => 'found a MARK where a value was expected',
  noTopValue: (): string => 'there is no value on top of the stack',
  noMark: (): string => 'no MARK on the stack',
  notAList: (): string => 'the target is not a list or set',
  notADict: (): string => 'the target is not a dict',
  oddPairs: (): string => 'odd number of items for key/value pairs',
  memoMissing: (p: { index: number }): string => `memo slot ${p.index} was never stored`,
  // The JavaScript engine gave up (an allocation too large): its own words, as it gave them.
  engineStopped: (p: { reason: string }): string => `could not read the pickle: ${p.reason}`,
};

/** What wording the problems take: one function per code, with that code's parameters. */
export type PickleProblemWords = WordsOf<typeof PICKLE_PROBLEM_WORDS>;

/** Why a pickle was not read, as data: its code and, where its sentence has any, its parameters. */
export type PickleProblem = CodedSentence<PickleProblemWords>;

/** The opcode a problem's sentence begins with, and its byte offset ("BININT at byte 12: …"). */
export interface PickleOpcodeAt {
  readonly opcode: string;
  readonly offset: number;
}

/** What stopped the reader, as data a page words in its language (`wordPickleFault`). */
export interface PickleFault {
  readonly problem: PickleProblem;
  /** The opcode named before the problem, or null when there is none or the problem's sentence names it itself. */
  readonly at: PickleOpcodeAt | null;
}

/** How a language words a `PickleFault`: its problems' words, and a worded problem after the opcode that met it. */
export interface PickleWords {
  readonly problems: PickleProblemWords;
  readonly at: (at: PickleOpcodeAt, problem: string) => string;
}

/** The English words of a `PickleFault`: what the CLI prints. */
export const PICKLE_WORDS: PickleWords = {
  problems: PICKLE_PROBLEM_WORDS,
  at: ({ opcode, offset }, problem) => `${opcode} at byte ${offset}: ${problem}`,
};

/** The sentence of `fault` in `words` (English by default). */
export function wordPickleFault(fault: PickleFault, words: PickleWords = PICKLE_WORDS): string {
  const problem = wordCoded(fault.problem, words.problems);
  return fault.at === null ? problem : words.at(fault.at, problem);
}

/** Why a pickle was not read: the fault as data, and its English sentence, which names the opcode and its byte offset where there is one. */
export interface PickleError extends PickleFault {
  /** The fault in English (the CLI's words). */
  message: string;
  /** Byte offset of the opcode that stopped the reader, or -1 when the problem is the whole file. */
  offset: number;
  /** Name of the opcode (pickletools' name), when one was the reason. */
  opcode: string | null;
  /** True when the pickle asked for code to be imported or run: the file may be malicious. */
  refused: boolean;
}

/** What `unpickle` returns: the value, or the reason it was not read. */
export type UnpickleResult = { ok: true; value: PickleValue } | { ok: false; error: PickleError };

/** Options for `unpickle`. */
export interface UnpickleOptions {
  /** Called with bytes read so far, about every `progressEveryBytes`, so a worker can report progress. */
  onProgress?: (bytesRead: number) => void;
  /** Bytes between two progress calls (default 4 MiB). */
  progressEveryBytes?: number;
}

/** Opcodes that import, call or construct objects, by byte value, named as in pickletools. */
export const REFUSED_OPCODES: ReadonlyMap<number, string> = new Map([
  [0x63, 'GLOBAL'],
  [0x93, 'STACK_GLOBAL'],
  [0x52, 'REDUCE'],
  [0x69, 'INST'],
  [0x6f, 'OBJ'],
  [0x81, 'NEWOBJ'],
  [0x92, 'NEWOBJ_EX'],
  [0x62, 'BUILD'],
  [0x82, 'EXT1'],
  [0x83, 'EXT2'],
  [0x84, 'EXT4'],
  [0x50, 'PERSID'],
  [0x51, 'BINPERSID'],
]);

/** Names of the opcodes this reader takes, for messages (pickletools' names). */
const OPCODE_NAMES: ReadonlyMap<number, string> = new Map([
  [0x80, 'PROTO'],
  [0x95, 'FRAME'],
  [0x2e, 'STOP'],
  [0x4e, 'NONE'],
  [0x88, 'NEWTRUE'],
  [0x89, 'NEWFALSE'],
  [0x4a, 'BININT'],
  [0x4b, 'BININT1'],
  [0x4d, 'BININT2'],
  [0x49, 'INT'],
  [0x4c, 'LONG'],
  [0x8a, 'LONG1'],
  [0x8b, 'LONG4'],
  [0x46, 'FLOAT'],
  [0x47, 'BINFLOAT'],
  [0x58, 'BINUNICODE'],
  [0x8c, 'SHORT_BINUNICODE'],
  [0x8d, 'BINUNICODE8'],
  [0x54, 'BINSTRING'],
  [0x55, 'SHORT_BINSTRING'],
  [0x42, 'BINBYTES'],
  [0x43, 'SHORT_BINBYTES'],
  [0x8e, 'BINBYTES8'],
  [0x96, 'BYTEARRAY8'],
  [0x5d, 'EMPTY_LIST'],
  [0x29, 'EMPTY_TUPLE'],
  [0x7d, 'EMPTY_DICT'],
  [0x8f, 'EMPTY_SET'],
  [0x28, 'MARK'],
  [0x6c, 'LIST'],
  [0x74, 'TUPLE'],
  [0x91, 'FROZENSET'],
  [0x85, 'TUPLE1'],
  [0x86, 'TUPLE2'],
  [0x87, 'TUPLE3'],
  [0x64, 'DICT'],
  [0x61, 'APPEND'],
  [0x65, 'APPENDS'],
  [0x90, 'ADDITEMS'],
  [0x73, 'SETITEM'],
  [0x75, 'SETITEMS'],
  [0x30, 'POP'],
  [0x31, 'POP_MARK'],
  [0x32, 'DUP'],
  [0x70, 'PUT'],
  [0x71, 'BINPUT'],
  [0x72, 'LONG_BINPUT'],
  [0x94, 'MEMOIZE'],
  [0x67, 'GET'],
  [0x68, 'BINGET'],
  [0x6a, 'LONG_BINGET'],
  [0x97, 'NEXT_BUFFER'],
  [0x98, 'READONLY_BUFFER'],
]);

const MARK = Symbol('mark');
type StackItem = PickleValue | typeof MARK;

/** Thrown inside the reader and caught by `unpickle`: a `PickleError` built from its fault, so every error has its data. */
class PickleStop extends Error {
  readonly detail: PickleError;

  constructor(fault: PickleFault, offset: number, opcode: string | null) {
    const message = wordPickleFault(fault);
    super(message);
    this.detail = { ...fault, message, offset, opcode, refused: fault.problem.code === 'refusedOpcode' };
  }
}

const hex = (byte: number): string => `0x${byte.toString(16).padStart(2, '0')}`;

/** Reads a pickle from `bytes` without running anything; never throws. */
export function unpickle(bytes: Uint8Array, options: UnpickleOptions = {}): UnpickleResult {
  try {
    return { ok: true, value: new Reader(bytes, options).run() };
  } catch (error) {
    if (error instanceof PickleStop) return { ok: false, error: error.detail };
    // A RangeError from an allocation too large for this engine is still the file's fault.
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: new PickleStop({ problem: { code: 'engineStopped', params: { reason } }, at: null }, -1, null).detail,
    };
  }
}

class Reader {
  private pos = 0;
  private readonly stack: StackItem[] = [];
  private readonly memo = new Map<number, PickleValue>();
  private readonly view: DataView;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  private opStart = 0;
  private op = -1;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly options: UnpickleOptions,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  run(): PickleValue {
    if (this.bytes.length === 0) this.fail({ code: 'emptyFile' }, -1);
    if (this.bytes[0] !== 0x80) this.fail({ code: 'notProtocol2' }, 0);
    const every = this.options.progressEveryBytes ?? 4 * MIB;
    let nextProgress = every;
    // Each opcode consumes at least one byte, so this loop ends within bytes.length iterations.
    while (this.pos < this.bytes.length) {
      if (this.pos >= nextProgress) {
        this.options.onProgress?.(this.pos);
        nextProgress = this.pos + every;
      }
      this.opStart = this.pos;
      const op = this.u8();
      if (op === 0x2e) return this.finish(); // STOP
      this.step(op);
    }
    this.fail({ code: 'noStop' }, this.bytes.length);
  }

  private finish(): PickleValue {
    this.options.onProgress?.(this.pos);
    return this.pop();
  }

  private step(op: number): void {
    this.op = op;
    switch (op) {
      case 0x80: {
        const protocol = this.u8();
        if (protocol < 2 || protocol > 5) this.fail({ code: 'unsupportedProtocol', params: { protocol } });
        return;
      }
      case 0x95:
        this.length(8);
        return; // frame size: only a read-ahead hint
      case 0x4e:
        this.push(null);
        return; // NONE
      case 0x88:
        this.push(true);
        return; // NEWTRUE
      case 0x89:
        this.push(false);
        return; // NEWFALSE
      case 0x4a:
        this.push(this.int32());
        return;
      case 0x4b:
        this.push(this.u8());
        return;
      case 0x4d:
        this.push(this.uint16());
        return;
      case 0x49:
        this.push(this.textInt(this.line()));
        return;
      case 0x4c:
        this.push(this.textInt(this.line().replace(/L$/, '')));
        return;
      case 0x8a:
        this.push(this.littleEndianInt(this.u8()));
        return;
      case 0x8b:
        this.push(this.littleEndianInt(this.length(4, true)));
        return;
      case 0x46:
        this.push(this.textFloat(this.line()));
        return;
      case 0x47:
        this.push(this.float64());
        return;
      case 0x58:
        this.push(this.text(this.length(4)));
        return;
      case 0x8c:
        this.push(this.text(this.u8()));
        return;
      case 0x8d:
        this.push(this.text(this.length(8)));
        return;
      case 0x54:
        this.push(this.latin1(this.length(4, true)));
        return;
      case 0x55:
        this.push(this.latin1(this.u8()));
        return;
      case 0x42:
        this.push(this.raw(this.length(4)));
        return;
      case 0x43:
        this.push(this.raw(this.u8()));
        return;
      case 0x8e:
        this.push(this.raw(this.length(8)));
        return;
      case 0x96:
        this.push(this.raw(this.length(8)));
        return;
      case 0x5d:
        this.push([]);
        return; // EMPTY_LIST
      case 0x29:
        this.push([]);
        return; // EMPTY_TUPLE
      case 0x7d:
        this.push(new Map());
        return; // EMPTY_DICT
      case 0x8f:
        this.push([]);
        return; // EMPTY_SET
      case 0x28:
        this.stack.push(MARK);
        return; // MARK
      case 0x6c:
        this.push(this.popMark());
        return; // LIST
      case 0x74:
        this.push(this.popMark());
        return; // TUPLE
      case 0x91:
        this.push(this.popMark());
        return; // FROZENSET
      case 0x85:
        this.push([this.pop()]);
        return;
      case 0x86:
        {
          const b = this.pop();
          this.push([this.pop(), b]);
        }
        return;
      case 0x87:
        {
          const c = this.pop();
          const b = this.pop();
          this.push([this.pop(), b, c]);
        }
        return;
      case 0x64:
        this.push(this.pairsToMap(new Map(), this.popMark()));
        return;
      case 0x61:
        {
          const item = this.pop();
          this.list().push(item);
        }
        return;
      case 0x65:
        {
          const items = this.popMark();
          const list = this.list();
          for (const item of items) list.push(item);
        }
        return;
      case 0x90:
        {
          const items = this.popMark();
          const set = this.list();
          for (const item of items) set.push(item);
        }
        return;
      case 0x73:
        {
          const value = this.pop();
          const key = this.pop();
          this.dict().set(key, value);
        }
        return;
      case 0x75:
        {
          const items = this.popMark();
          this.pairsToMap(this.dict(), items);
        }
        return;
      case 0x30:
        this.popAny();
        return;
      case 0x31:
        this.popMark();
        return;
      case 0x32:
        this.push(this.top());
        return;
      case 0x70:
        this.memo.set(this.textIndex(this.line()), this.top());
        return;
      case 0x71:
        this.memo.set(this.u8(), this.top());
        return;
      case 0x72:
        this.memo.set(this.length(4), this.top());
        return;
      case 0x94:
        this.memo.set(this.memo.size, this.top());
        return;
      case 0x67:
        this.push(this.recall(this.textIndex(this.line())));
        return;
      case 0x68:
        this.push(this.recall(this.u8()));
        return;
      case 0x6a:
        this.push(this.recall(this.length(4)));
        return;
      case 0x97:
        this.fail({ code: 'outOfBandBuffer', params: { opcode: 'NEXT_BUFFER' } });
      case 0x98:
        this.fail({ code: 'outOfBandBuffer', params: { opcode: 'READONLY_BUFFER' } });
      default: {
        const refused = REFUSED_OPCODES.get(op);
        // These sentences name the opcode and its offset themselves, so nothing goes before them.
        if (refused !== undefined) {
          const problem = { code: 'refusedOpcode', params: { opcode: refused, byte: hex(op), offset: this.opStart } } as const;
          throw new PickleStop({ problem, at: null }, this.opStart, refused);
        }
        const problem = { code: 'unknownOpcode', params: { byte: hex(op), offset: this.opStart } } as const;
        throw new PickleStop({ problem, at: null }, this.opStart, hex(op));
      }
    }
  }

  private fail(problem: PickleProblem, offset: number = this.opStart): never {
    const opcode = this.op < 0 ? null : (OPCODE_NAMES.get(this.op) ?? null);
    throw new PickleStop({ problem, at: offset >= 0 && opcode !== null ? { opcode, offset } : null }, offset, opcode);
  }

  private take(count: number): true {
    if (count > this.bytes.length - this.pos)
      this.fail({ code: 'truncated', params: { needed: count, left: this.bytes.length - this.pos } });
    this.pos += count;
    return true;
  }

  private int32(): number {
    this.take(4);
    return this.view.getInt32(this.pos - 4, true);
  }

  private uint16(): number {
    this.take(2);
    return this.view.getUint16(this.pos - 2, true);
  }

  /** BINFLOAT is big-endian (pickletools: float8). */
  private float64(): number {
    this.take(8);
    return this.view.getFloat64(this.pos - 8, false);
  }

  private u8(): number {
    this.take(1);
    return this.bytes[this.pos - 1] ?? 0;
  }

  /** An unsigned (or, for `signed`, non-negative signed) little-endian length, checked against what is left. */
  private length(width: 4 | 8, signed = false): number {
    this.take(width);
    const at = this.pos - width;
    let value: number;
    if (width === 4) value = signed ? this.view.getInt32(at, true) : this.view.getUint32(at, true);
    else {
      const big = this.view.getBigUint64(at, true);
      value = big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big);
    }
    if (value < 0) this.fail({ code: 'negativeLength', params: { length: value } });
    return value;
  }

  private raw(count: number): Uint8Array {
    this.take(count);
    return this.bytes.slice(this.pos - count, this.pos);
  }

  private text(count: number): string {
    this.take(count);
    // Most snapshot strings are short ASCII (keys, actions, paths): building them directly is
    // faster than a TextDecoder call each (why: see docs/PERFORMANCE.md § Diagnose).
    if (count <= 256) {
      let ascii = true;
      for (let i = this.pos - count; i < this.pos; i++) if ((this.bytes[i] ?? 0) >= 0x80) ascii = false;
      if (ascii) return String.fromCharCode.apply(null, this.bytes.subarray(this.pos - count, this.pos) as unknown as number[]);
    }
    try {
      return this.utf8.decode(this.bytes.subarray(this.pos - count, this.pos));
    } catch {
      return this.fail({ code: 'invalidUtf8' });
    }
  }

  private latin1(count: number): string {
    this.take(count);
    let out = '';
    for (let i = this.pos - count; i < this.pos; i++) out += String.fromCharCode(this.bytes[i] ?? 0);
    return out;
  }

  /** A newline-terminated ASCII argument of the text opcodes (INT, LONG, FLOAT, PUT, GET). */
  private line(): string {
    const end = this.bytes.indexOf(0x0a, this.pos);
    if (end < 0 || end - this.pos > 64) this.fail({ code: 'noNewline' });
    const out = this.latin1(end - this.pos);
    this.pos += 1;
    return out;
  }

  private textInt(text: string): PickleValue {
    if (text === '00') return false; // pickle protocol 0 spells bools as INT 00 / 01
    if (text === '01') return true;
    if (!/^[+-]?\d{1,40}$/.test(text)) this.fail({ code: 'notAnInteger', params: { text } });
    const big = BigInt(text);
    return this.narrow(big);
  }

  private textFloat(text: string): number {
    const value = Number(text);
    if (!/^[\d+\-.eEinfaINF]+$/.test(text) || (Number.isNaN(value) && !/nan/i.test(text)))
      this.fail({ code: 'notAFloat', params: { text } });
    return value;
  }

  private textIndex(text: string): number {
    if (!/^\d{1,10}$/.test(text)) this.fail({ code: 'notAMemoIndex', params: { text } });
    return Number(text);
  }

  /** LONG1/LONG4: `count` bytes of little-endian two's complement (pickletools `decode_long`). */
  private littleEndianInt(count: number): PickleValue {
    this.take(count);
    if (count === 0) return 0;
    let big = 0n;
    for (let i = this.pos - 1; i >= this.pos - count; i--) big = (big << 8n) | BigInt(this.bytes[i] ?? 0);
    if ((this.bytes[this.pos - 1] ?? 0) & 0x80) big -= 1n << BigInt(8 * count);
    return this.narrow(big);
  }

  /** Integers that fit a double exactly stay numbers; larger ones stay bigints. */
  private narrow(big: bigint): number | bigint {
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }

  private push(value: PickleValue): void {
    this.stack.push(value);
  }

  private popAny(): StackItem {
    if (this.stack.length === 0) this.fail({ code: 'emptyStack' });
    return this.stack.pop() as StackItem;
  }

  private pop(): PickleValue {
    const item = this.popAny();
    if (item === MARK) this.fail({ code: 'markForValue' });
    return item;
  }

  private top(): PickleValue {
    const item = this.stack[this.stack.length - 1];
    if (item === undefined || item === MARK) this.fail({ code: 'noTopValue' });
    return item;
  }

  /** Pops everything above the topmost MARK, in push order, and the MARK itself. */
  private popMark(): PickleValue[] {
    const at = this.stack.lastIndexOf(MARK);
    if (at < 0) this.fail({ code: 'noMark' });
    const items = this.stack.splice(at) as StackItem[];
    items.shift();
    return items as PickleValue[];
  }

  private list(): PickleValue[] {
    const target = this.top();
    if (!Array.isArray(target)) this.fail({ code: 'notAList' });
    return target;
  }

  private dict(): Map<PickleValue, PickleValue> {
    const target = this.top();
    if (!(target instanceof Map)) this.fail({ code: 'notADict' });
    return target;
  }

  private pairsToMap(map: Map<PickleValue, PickleValue>, items: PickleValue[]): Map<PickleValue, PickleValue> {
    if (items.length % 2 !== 0) this.fail({ code: 'oddPairs' });
    for (let i = 0; i < items.length; i += 2) map.set(items[i] ?? null, items[i + 1] ?? null);
    return map;
  }

  private recall(index: number): PickleValue {
    const value = this.memo.get(index);
    if (value === undefined) this.fail({ code: 'memoMissing', params: { index } });
    return value;
  }
}
