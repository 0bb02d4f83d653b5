/**
 * Reads the Python traceback that led to an OOM message: which phase of the job died (loading the model, forward,
 * backward, the optimizer step, generation, evaluation) and in which op. The frames are CPython's
 * (`  File "path", line N, in function` then the source line, `traceback.format_list`); only the frames above the
 * message and below the traceback's header belong to it, since a paste often holds a second traceback after.
 */

/** The part of a job that was running when memory ran out. */
export type OomPhase = 'loading' | 'forward' | 'backward' | 'optimizer-step' | 'generate' | 'evaluation';

/** One traceback frame as printed. */
export interface TracebackFrame {
  file: string;
  line: number;
  function: string;
  /** The source line under the frame, or '' when the paste lacks it. */
  code: string;
}

/** What the traceback says about where memory ran out. */
export interface OomTraceback {
  /** The phase, from the frames (rules in PHASE_RULES), or null when no frame names one. */
  phase: OomPhase | null;
  /** The PyTorch call that asked for the memory, nearest the message (`torch.cat`, `F.linear`), or null. */
  op: string | null;
  /** The innermost frame of the reader's own code (not under site-packages or the standard library), or null. */
  userFrame: TracebackFrame | null;
  /** How many frames were read above the message. */
  frames: number;
}

/** How a frame shows a phase: its function name, and optionally the file it sits in or the call on its line. */
interface PhaseRule {
  phase: OomPhase;
  test: (frame: TracebackFrame) => boolean;
}

const inFile = (frame: TracebackFrame, pattern: RegExp): boolean => pattern.test(frame.file.replace(/\\/g, '/'));

/**
 * Most decisive first: a backward that recomputes checkpointed forwards is still backward, generation and evaluation
 * run forwards of their own, and loading is only what runs outside all of them.
 */
const PHASE_RULES: readonly PhaseRule[] = [
  {
    phase: 'optimizer-step',
    test: (f) =>
      (inFile(f, /torch\/optim\//) && /^(?:step|_(?:single|multi)_tensor_\w+|_fused_\w+)$/.test(f.function)) ||
      /\b(?:optimizer|optim|opt|scaler)\w*\.step\(/.test(f.code),
  },
  {
    phase: 'backward',
    test: (f) =>
      (/^(?:backward|run_backward|_engine_run_backward|grad)$/.test(f.function) &&
        inFile(f, /torch\/(?:autograd|_tensor|tensor)/)) ||
      /\.backward\(|autograd\.grad\(/.test(f.code),
  },
  {
    phase: 'generate',
    test: (f) =>
      (inFile(f, /generation\//) &&
        /^(?:generate|_?sample|greedy_search|beam_search|beam_sample|_beam_search)$/.test(f.function)) ||
      /\.generate\(/.test(f.code),
  },
  {
    phase: 'evaluation',
    test: (f) =>
      /^(?:evaluate|evaluation_loop|prediction_step|validation_step|validate|test_step|predict|eval_\w+)$/.test(f.function),
  },
  {
    phase: 'loading',
    test: (f) =>
      /^(?:from_pretrained|load_state_dict|_load_pretrained_model|load_checkpoint)$/.test(f.function) ||
      /\btorch\.load\(/.test(f.code),
  },
  {
    phase: 'forward',
    test: (f) => f.function === 'forward' || (inFile(f, /torch\/nn\/modules\/module\.py/) && /call/.test(f.function)),
  },
];

/** A CPython frame line; the path may hold spaces (Windows), the function is what follows " in ". */
const FRAME = /^\s*File "([^"]{1,1000})", line (\d{1,7}), in (\S{1,200})\s*$/;
/** A traceback's header: frames above it belong to an earlier traceback. */
const HEADER = /^\s*Traceback \(most recent call last\):\s*$/;

/** Library code: an installed package or the standard library, as opposed to the reader's own files. */
const isLibrary = (frame: TracebackFrame): boolean => inFile(frame, /(?:site|dist)-packages\/|\/lib\/python\d[\d.]*\/|<frozen /);

/** A PyTorch call on a source line: `torch._foreach_sqrt(`, `F.linear(`, `_VF.threshold(`, `torch.autograd.backward(`. */
const TORCH_CALL = /\b((?:torch|F|_VF|nn\.functional)\.[\w.]{1,100})\(/;

/**
 * The op that asked for the memory: the PyTorch call nearest the message, searching from the innermost frame out
 * (the innermost line is often a wrapper's `func(*args)`); null when no line shows one.
 */
function opOf(frames: readonly TracebackFrame[]): string | null {
  for (let i = frames.length - 1; i >= 0; i--) {
    const call = TORCH_CALL.exec(frames[i]?.code ?? '')?.[1];
    if (call !== undefined) return call;
  }
  return null;
}

/**
 * Reads the traceback above the message that starts at line `messageLine` of `lines` (lines with a log prefix already
 * stripped); never throws. Null when no frame sits above the message.
 */
export function readOomTraceback(lines: readonly string[], messageLine: number): OomTraceback | null {
  const frames: TracebackFrame[] = [];
  let firstFrameLine = -1;
  for (let i = Math.min(messageLine, lines.length) - 1; i >= 0; i--) {
    const text = lines[i] ?? '';
    if (HEADER.test(text)) break;
    const match = FRAME.exec(text);
    if (!match) continue;
    firstFrameLine = i;
    const next = lines[i + 1] ?? '';
    frames.unshift({
      file: match[1] ?? '',
      line: Number(match[2]),
      function: match[3] ?? '',
      code: i + 1 < messageLine && !FRAME.test(next) ? next.trim() : '',
    });
  }
  // Excerpts start mid-traceback with the source line of a frame cut above (indented, as CPython prints source
  // lines): it still shows the call being made.
  const orphan = firstFrameLine > 0 ? (lines[firstFrameLine - 1] ?? '') : '';
  if (/^\s{2,}\S.*\(/.test(orphan)) frames.unshift({ file: '', line: 0, function: '', code: orphan.trim() });
  if (frames.length === 0) return null;
  const phase = PHASE_RULES.find((rule) => frames.some(rule.test))?.phase ?? null;
  const userFrame = [...frames].reverse().find((f) => f.file !== '' && !isLibrary(f)) ?? null;
  return {
    phase,
    op: opOf(frames),
    userFrame,
    frames: frames.filter((f) => f.file !== '').length,
  };
}
