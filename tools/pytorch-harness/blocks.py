"""Bytes one transformer block saves for backward, and their closed form in s, b, h, a, f, kv.

Counted with torch.autograd.graph.saved_tensors_hooks: every tensor an autograd node saves passes the pack hook;
storages are deduplicated by data pointer and counted whole. Storages that existed before the block ran
(parameters, buffers, the rotary cos/sin and the causal mask shared by all layers) are not the block's and are
reported apart, except the block input, which the first norm saves and which belongs to the block.
The allocator cross-check: live bytes kept after the block's forward (tracker) = saved bytes created by the block
+ the output when it is not saved.
"""
from fractions import Fraction

import torch
from torch.autograd.graph import saved_tensors_hooks

from models import GPT2Block, LlamaDecoderLayer, LlamaRotaryEmbedding, llama_causal_mask
from step import autocast_ctx
from tracker import Tracker, storage_key


_VIEW_NODES = {"TBackward0", "ViewBackward0", "TransposeBackward0", "PermuteBackward0", "ExpandBackward0",
               "UnsqueezeBackward0", "AliasBackward0", "UnsafeViewBackward0"}


def _is_param_copy(t):
    """An autocast cast of a parameter: a ToCopyBackward node whose input is a leaf parameter's AccumulateGrad."""
    fn = t.grad_fn
    while fn is not None and type(fn).__name__ in _VIEW_NODES and fn.next_functions:
        fn = fn.next_functions[0][0]  # mm saves weight.t(): look through the view to the cast
    if fn is None or "ToCopy" not in type(fn).__name__:
        return False
    nxt = fn.next_functions[0][0] if fn.next_functions else None
    return nxt is not None and isinstance(getattr(nxt, "variable", None), torch.nn.Parameter)


def block_saved_bytes(cfg, shape, device):
    """{activations, weightCopies, shared, output, retained} in bytes for one block forward."""
    s, b, h, a, f, kv = shape
    bcfg = dict(cfg, hidden=h, heads=a, kvHeads=kv, ffn=f, positions=s, seq=s, microBatch=b)
    device = torch.device(device)
    torch.manual_seed(0)
    block = (GPT2Block(bcfg) if cfg["arch"] == "gpt2" else LlamaDecoderLayer(bcfg)).to(device).train()
    x = torch.randn(b, s, h, device=device, requires_grad=True)
    extra = ()
    if cfg["arch"] == "llama":
        rot = LlamaRotaryEmbedding(h // a).to(device)
        pos = torch.arange(s, device=device).unsqueeze(0)
        mask = llama_causal_mask(b, s, x.dtype, device) if cfg["attention"] == "eager" else None
        extra = (rot(x, pos), mask)
    before = {storage_key(t)[0] for t in list(block.parameters()) + list(block.buffers())}
    for t in extra:
        for u in (t if isinstance(t, tuple) else (t,)):
            if u is not None:
                before.add(storage_key(u)[0])
    input_ptr = storage_key(x)[0]
    saved, listing = {}, []

    def pack(t):
        ptr, n = storage_key(t)
        kind = "shared" if ptr in before else "weightCopies" if _is_param_copy(t) else "activations"
        if ptr not in saved:
            creator = "input" if ptr == input_ptr else type(t.grad_fn).__name__ if t.grad_fn else "leaf"
            listing.append({"kind": kind, "creator": creator, "dtype": str(t.dtype).replace("torch.", ""),
                            "shape": list(t.shape), "bytes": n})
        saved[ptr] = (n, kind)
        return t

    with Tracker(device) as tr:
        tr.mark("before")
        with saved_tensors_hooks(pack, lambda t: t), autocast_ctx(cfg, device):
            out = block(x, *extra)
        tr.mark("after")
    totals = {"activations": 0, "weightCopies": 0, "shared": 0}
    for ptr, (n, kind) in saved.items():
        totals[kind] += n
    out_ptr, out_n = storage_key(out)
    unit = 512 if device.type == "cuda" else 1  # the caching allocator's block granularity
    up = lambda n: -(-n // unit) * unit
    created = sum(up(n) for p, (n, k) in saved.items() if k != "shared" and p != input_ptr)
    totals["storages"] = listing  # in the order the block saved them; first occurrence of each storage
    totals["output"] = out_n
    totals["inputSaved"] = input_ptr in saved
    totals["retained"] = tr.segment("after")["endBytes"] - tr.segment("before")["endBytes"]
    totals["retainedMatches"] = totals["retained"] == created + (0 if out_ptr in saved else up(out_n))
    return totals


def _terms(shape, arch):
    s, b, h, a, f, kv = shape
    terms = {"sbh": s * b * h, "sbf": s * b * f, "as2b": a * s * s * b, "bs": b * s, "1": 1}
    if arch == "llama":
        terms["sbk"] = s * b * kv * (h // a)  # k = kvHeads · headDim, the K/V projection width
        terms["sbhGqa"] = s * b * h if kv < a else 0  # repeat_kv copies only when kvHeads < heads
    return terms


def _solve(rows, rhs):
    """Exact Gaussian elimination over the rationals (square, non-singular)."""
    n = len(rows)
    m = [[Fraction(v) for v in row] + [Fraction(r)] for row, r in zip(rows, rhs)]
    for col in range(n):
        piv = next(r for r in range(col, n) if m[r][col] != 0)
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0:
                fac = m[r][col] / m[col][col]
                m[r] = [x - fac * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


# (s, b, h, a, f, kv): the first len(terms) shapes fit the coefficients, the rest check them.
SHAPES = {
    "gpt2": [(64, 1, 64, 2, 256, 2), (64, 2, 96, 3, 160, 3), (128, 1, 64, 4, 192, 4), (32, 3, 128, 2, 320, 2),
             (16, 1, 32, 2, 64, 2), (96, 2, 128, 4, 512, 4), (128, 2, 256, 4, 1024, 4)],
    # kvHeads >= 2 throughout: with one K/V head the transposed K/V views are contiguous and skip a copy (MQA).
    "llama": [(64, 1, 64, 2, 172, 2), (64, 2, 96, 3, 160, 3), (128, 1, 64, 4, 192, 2), (32, 3, 128, 4, 320, 2),
              (48, 2, 128, 4, 200, 4), (16, 1, 64, 4, 64, 2), (24, 1, 96, 6, 100, 2),
              (96, 2, 128, 4, 344, 2), (128, 2, 256, 4, 688, 2)],
}


def _fmt(coef):
    return str(coef.numerator) if coef.denominator == 1 else f"{coef.numerator}/{coef.denominator}"


def fit_block(cfg, device):
    """Measures every shape, fits activations = Σ coef·term on the first shapes, checks the rest exactly."""
    arch = cfg["arch"]
    names = list(_terms(SHAPES[arch][0], arch))
    measured = []
    for shape in SHAPES[arch]:
        m = block_saved_bytes(cfg, shape, device)
        measured.append({"shape": dict(zip(("s", "b", "h", "a", "f", "kvHeads"), shape)), **m})
    n = len(names)
    coefs = _solve([[_terms(sh, arch)[t] for t in names] for sh in SHAPES[arch][:n]],
                   [m["activations"] for m in measured[:n]])
    for i, (shape, m) in enumerate(zip(SHAPES[arch], measured)):
        if i != len(measured) - 1:
            del m["storages"]  # the per-storage listing is kept for the last (largest) shape only
        predicted = sum(c * _terms(shape, arch)[t] for c, t in zip(coefs, names))
        m["predicted"] = int(predicted) if predicted.denominator == 1 else float(predicted)
        m["fitted"] = shape in SHAPES[arch][:n]
    form = " + ".join(f"{_fmt(c)}·{t}" for c, t in zip(coefs, names) if c != 0)
    return {"coefficients": {t: _fmt(c) for c, t in zip(coefs, names)}, "closedForm": form,
            "checksHold": all(m["predicted"] == m["activations"] for m in measured),
            "shapes": measured}
