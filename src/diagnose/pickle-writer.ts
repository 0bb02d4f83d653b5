/**
 * Writes plain data (what JSON can hold) as a protocol-2 pickle, the format `torch.cuda.memory._dump_snapshot()`
 * writes. The snapshot tool's example ships as JSON data (examples/snapshot-oom.json) and becomes a pickle in the
 * browser when the reader asks for it, so the page reads the example through the same unpickler as a reader's own
 * file. Written by hand: the opcodes plain data needs are eight, and the pickle packages on npm only read.
 * Opcodes and their argument layouts: CPython Lib/pickletools.py (`opcodes`).
 */

/** Plain data: what `JSON.parse` returns. */
export type PlainData = null | boolean | number | string | PlainData[] | { [key: string]: PlainData };

const PROTO = 0x80;
const STOP = 0x2e; // '.'
const NONE = 0x4e; // 'N'
const NEWTRUE = 0x88;
const NEWFALSE = 0x89;
const BININT = 0x4a; // 'J': 4-byte signed little-endian
const LONG1 = 0x8a; // 1-byte length, then a little-endian two's-complement integer
const BINFLOAT = 0x47; // 'G': 8-byte big-endian double
const BINUNICODE = 0x58; // 'X': 4-byte little-endian length, then UTF-8
const EMPTY_LIST = 0x5d; // ']'
const EMPTY_DICT = 0x7d; // '}'
const MARK = 0x28; // '('
const APPENDS = 0x65; // 'e'
const SETITEMS = 0x75; // 'u'

/** `value` as pickle bytes (protocol 2): integers up to 2^53 as integers, other numbers as doubles. Throws on NaN and infinities. */
export function writePickle(value: PlainData): Uint8Array<ArrayBuffer> {
  const out: number[] = [PROTO, 2];
  const utf8 = new TextEncoder();
  const uint32 = (n: number) => out.push(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff);
  const write = (v: PlainData): void => {
    if (v === null) out.push(NONE);
    else if (v === true) out.push(NEWTRUE);
    else if (v === false) out.push(NEWFALSE);
    else if (typeof v === 'number') writeNumber(v);
    else if (typeof v === 'string') {
      const bytes = utf8.encode(v);
      out.push(BINUNICODE);
      uint32(bytes.length);
      for (const b of bytes) out.push(b);
    } else if (Array.isArray(v)) {
      out.push(EMPTY_LIST, MARK);
      for (const item of v) write(item);
      out.push(APPENDS);
    } else {
      out.push(EMPTY_DICT, MARK);
      for (const [key, item] of Object.entries(v)) {
        write(key);
        write(item);
      }
      out.push(SETITEMS);
    }
  };
  const writeNumber = (n: number): void => {
    if (Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31) {
      out.push(BININT);
      uint32(n);
    } else if (Number.isSafeInteger(n)) {
      const bytes: number[] = [];
      let rest = BigInt(n);
      // Two's complement, least significant byte first, as short as keeps the sign (pickletools `encode_long`).
      do {
        bytes.push(Number(rest & 0xffn));
        rest >>= 8n;
      } while (!((rest === 0n && (bytes.at(-1)! & 0x80) === 0) || (rest === -1n && (bytes.at(-1)! & 0x80) !== 0)));
      out.push(LONG1, bytes.length, ...bytes);
    } else if (Number.isFinite(n)) {
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, n, false);
      out.push(BINFLOAT);
      for (let i = 0; i < 8; i++) out.push(view.getUint8(i));
    } else throw new RangeError(`cannot pickle ${n}`);
  };
  write(value);
  out.push(STOP);
  return Uint8Array.from(out);
}
