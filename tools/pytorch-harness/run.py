"""Regenerates every PyTorch memory fixture:

    /usr/bin/python3 tools/pytorch-harness/run.py --out tests/fixtures/pytorch [--device cuda]

Writes one JSON per training configuration ({device}-{arch}-{precision}-{variant}.json), one per-block file
({device}-blocks.json) and {device}-index.json. Plain torch + stdlib; Python 3.9+; torch 1.13 or newer.
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from blocks import fit_block  # noqa: E402
from models import has_sdpa  # noqa: E402
from selftest import run_selftest  # noqa: E402
from step import Unavailable, run_training  # noqa: E402

SMALL = {"hidden": 256, "layers": 2, "heads": 4, "positions": 128, "seq": 128, "microBatch": 2, "vocab": 4096}
ARCHS = {
    # GPT-2: f = 4h, MHA, dropout 0.1 everywhere (GPT2Config resid/embd/attn_pdrop), tied LM head.
    "gpt2": dict(SMALL, arch="gpt2", kvHeads=4, ffn=1024, dropout=True),
    # Llama: GQA (2 K/V heads for 4), SwiGLU f ≈ 8h/3 rounded to 16, no dropout, untied LM head.
    "llama": dict(SMALL, arch="llama", kvHeads=2, ffn=688, dropout=False),
}
DEFAULTS = {"precision": "fp32", "optimizer": "adamw", "optimizerImpl": "foreach", "grads": "free", "gradAccum": 1,
            "recompute": "none", "checkpointEvery": None, "attention": "eager", "kernels": "eager",
            "dropoutKernel": "default", "finetune": "full", "loraRank": None, "loraTargets": None}
# One factor at a time from the defaults, plus accumulation with kept gradients.
VARIANTS = {
    "base": {},
    "forloop": {"optimizerImpl": "for-loop"},
    "fused-adamw": {"optimizerImpl": "fused"},
    "keep": {"grads": "keep"},
    "accum2": {"gradAccum": 2},
    "accum2-keep": {"gradAccum": 2, "grads": "keep"},
    "recompute": {"recompute": "full"},
    "recompute2": {"recompute": "full", "checkpointEvery": 2},  # both blocks in one segment
    "sdpa": {"attention": "sdpa"},
    "lora-all": {"finetune": "lora", "loraRank": 8, "loraTargets": "all-linear"},
    "lora-attn": {"finetune": "lora", "loraRank": 8, "loraTargets": "attention"},
    "fused-kernels": {"kernels": "fused", "dropoutKernel": "native"},  # GPT-2 only: Megatron-like GELU and masks
    "native-dropout": {"dropoutKernel": "native"},  # GPT-2 only: the HF path with CUDA's dropout kernel
}
GPT2_ONLY = ("fused-kernels", "native-dropout")
PRECISIONS = ("fp32", "amp-bf16")
# LoRA as it is run: the base loaded in bf16 (from_pretrained(torch_dtype=torch.bfloat16)), fp32 adapters, either
# under bf16 autocast (Trainer(bf16=True): precision amp-bf16) or without it (precision bf16). Llama only: its
# HF path has no dropout of its own, so lora_dropout's cost stands alone. lora_dropout 0.05: the QLoRA paper's
# value for 33B/65B and LLaMA-Factory's and axolotl's examples.
BF16_BASE_VARIANTS = {
    f"lora-{name}-bf16base{'-dropout' if p else ''}": {
        "finetune": "lora", "loraRank": 8, "loraTargets": targets, "baseDtype": "bf16", "loraDropout": p}
    for name, targets in (("all", "all-linear"), ("qv", "q,v")) for p in (0.0, 0.05)
}
BF16_BASE_PRECISIONS = ("amp-bf16", "bf16")

# The lab's MLP (src/graphs/mlp.ts) at the gradient-checkpointing experiment's shape: width 128, 8 blocks, 10
# classes, batch 128, fp32, one plain SGD step per step (no optimizer state, as the engine's `--optimizer sgd`).
# Checkpoint segments of 1, 2 and 3 blocks (3 = round(√8), the lab's default: src/graphs/segments.ts).
MLP = {"arch": "mlp", "hidden": 128, "layers": 8, "vocab": 10, "microBatch": 128, "dropout": False,
       "optimizer": "sgd", "optimizerImpl": "for-loop"}
MLP_VARIANTS = {
    "base": {},
    "recompute1": {"recompute": "full", "checkpointEvery": 1},
    "recompute2": {"recompute": "full", "checkpointEvery": 2},
    "recompute3": {"recompute": "full", "checkpointEvery": 3},
}


def full_config(arch, precision, variant):
    """The fixture's `config` (engine option names) and the private keys the models read."""
    if arch == "mlp":
        cfg = dict(DEFAULTS, **MLP)
        cfg.update(MLP_VARIANTS[variant])
        return cfg, cfg
    cfg = dict(ARCHS[arch], **DEFAULTS)
    cfg["precision"] = precision
    cfg.update(VARIANTS.get(variant) or BF16_BASE_VARIANTS[variant])
    p = 0.1 if cfg["dropout"] else 0.0
    private = {"attnDropout": p, "residDropout": p, "embdDropout": p, "loraAlpha": 8}  # PEFT lora_alpha default
    return cfg, dict(cfg, **private)


def meta(argv, device):
    return {
        "command": "/usr/bin/python3 tools/pytorch-harness/run.py " + " ".join(shlex.quote(a) for a in argv),
        "torch": torch.__version__,
        "device": torch.cuda.get_device_name(0) if device == "cuda" else f"cpu ({platform.machine()})",
        "python": platform.python_version(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "threads": torch.get_num_threads(),
    }


def write(path, obj):
    with open(path, "w") as fh:
        json.dump(obj, fh, indent=1, sort_keys=False)
        fh.write("\n")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="fixture folder")
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("--threads", type=int, default=1, help="CPU threads (1 keeps the allocation log reproducible)")
    ap.add_argument("--only", default="", help="comma list of fixture stems to run (default: all)")
    args = ap.parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        print("run.py: --device cuda but torch.cuda.is_available() is False", file=sys.stderr)
        return 2
    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    m = meta(argv, args.device)
    print(f"tracker self-test: {run_selftest(args.device)} checks passed", flush=True)
    only = set(filter(None, args.only.split(",")))
    index = []
    grid = [(arch, precision, variant) for arch in ARCHS for precision in PRECISIONS for variant in VARIANTS
            if variant not in GPT2_ONLY or arch == "gpt2"]
    grid += [("llama", precision, variant) for precision in BF16_BASE_PRECISIONS for variant in BF16_BASE_VARIANTS]
    grid += [("mlp", "fp32", variant) for variant in MLP_VARIANTS]
    for arch, precision, variant in grid:
        stem = f"{args.device}-{arch}-{precision}-{variant}"
        if only and stem not in only:
            continue
        config, cfg = full_config(arch, precision, variant)
        t0 = time.time()
        body = {"meta": m, "config": config, "unavailable": []}
        try:
            body.update(run_training(cfg, args.device))
        except Unavailable as why:
            body.update(params=None, trainableParams=None, steps=[])
            body["unavailable"].append(str(why))
        write(os.path.join(args.out, stem + ".json"), body)
        checks = body.get("checks", {})
        if checks and checks["liveAtEnd"] != checks["pythonVisibleAtEnd"]:
            print(f"  WARNING {stem}: replayed live bytes differ from Python-visible storages", flush=True)
        index.append({"file": stem + ".json", "ran": not body["unavailable"],
                      "unavailable": body["unavailable"]})
        print(f"{stem}: {'unavailable' if body['unavailable'] else 'ok'} ({time.time() - t0:.1f} s)",
              flush=True)
    if not only or f"{args.device}-blocks" in only:
        blocks = {"meta": m, "units": "bytes", "unavailable": [], "families": []}
        # GPT-2 eager with native_dropout: the HF path as CUDA runs it (F.dropout → native_dropout there).
        for arch, kernels, dropout_kernel in (("gpt2", "eager", "default"), ("gpt2", "eager", "native"),
                                              ("gpt2", "fused", "native"), ("llama", "eager", "default")):
            for precision in PRECISIONS:
                for attention in ("eager", "sdpa"):
                    fam = {"arch": arch, "kernels": kernels, "dropoutKernel": dropout_kernel,
                           "precision": precision, "attention": attention, "dropout": arch == "gpt2"}
                    if attention == "sdpa" and not has_sdpa():
                        blocks["unavailable"].append(f"{arch} {kernels}/{dropout_kernel} {precision} attention=sdpa: torch "
                                                     f"{torch.__version__} has no F.scaled_dot_product_attention")
                        continue
                    p = 0.1 if arch == "gpt2" else 0.0
                    cfg = dict(fam, recompute="none", attnDropout=p, residDropout=p, embdDropout=p)
                    fam.update(fit_block(cfg, args.device))
                    blocks["families"].append(fam)
                    print(f"blocks {arch}/{kernels}/{dropout_kernel}/{precision}/{attention}: {fam['closedForm']}"
                          f" (checks hold: {fam['checksHold']})", flush=True)
        write(os.path.join(args.out, f"{args.device}-blocks.json"), blocks)
    index_path = os.path.join(args.out, f"{args.device}-index.json")
    if only and os.path.exists(index_path):
        # A partial run updates its own entries and keeps the others' (and the meta of the run that made them).
        with open(index_path) as fh:
            previous = json.load(fh)
        ran = {entry["file"] for entry in index}
        index = [entry for entry in previous["fixtures"] if entry["file"] not in ran] + index
        m = previous["meta"]
    write(index_path, {"meta": m, "fixtures": index})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
