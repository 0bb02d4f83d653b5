"""Two optimizer steps of a Trainer-like loop, with the live bytes of every moment."""
import contextlib
import inspect

import torch

from models import LlamaRMSNorm, build_model
from tracker import Tracker, storage_key


class Unavailable(Exception):
    """This torch (or device) cannot run the requested option."""


def decay_groups(model, weight_decay):
    """Trainer.create_optimizer / get_decay_parameter_names: no weight decay on biases and norm weights.
    Two parameter groups matter for memory: foreach AdamW makes its temporaries one group at a time."""
    no_decay = set()
    for mname, module in model.named_modules():
        for pname, p in module.named_parameters(recurse=False):
            if pname == "bias" or isinstance(module, (torch.nn.LayerNorm, LlamaRMSNorm)):
                no_decay.add(id(p))
    trainable = [p for p in model.parameters() if p.requires_grad]
    return [{"params": [p for p in trainable if id(p) not in no_decay], "weight_decay": weight_decay},
            {"params": [p for p in trainable if id(p) in no_decay], "weight_decay": 0.0}]


def make_optimizer(model, kind, impl):
    """torch.optim.AdamW (or, for the lab's MLP, plain SGD: no state) with the requested implementation, or Unavailable."""
    kwargs = {"foreach": {"foreach": True}, "for-loop": {"foreach": False}, "fused": {"fused": True}}[impl]
    if kind == "sgd":
        # No momentum and no weight decay: SGD keeps no state and steps in place (torch/optim/sgd.py).
        return torch.optim.SGD(model.parameters(), lr=1e-2, **kwargs)
    params = inspect.signature(torch.optim.AdamW.__init__).parameters
    for key in kwargs:
        if key not in params:
            raise Unavailable(f"optimizerImpl={impl}: torch {torch.__version__} AdamW has no '{key}' argument")
    groups = [g for g in decay_groups(model, 0.01) if g["params"]]
    try:
        return torch.optim.AdamW(groups, lr=1e-4, **kwargs)
    except (RuntimeError, ValueError, TypeError) as err:
        raise Unavailable(f"optimizerImpl={impl}: {err}".splitlines()[0])


def categories(model, optimizer):
    """{storage pointer: category} for parameters and buffers, their .grad, and optimizer.state tensors."""
    cats = {}
    for t in optimizer.state.values() if optimizer is not None else ():
        for v in t.values():
            if torch.is_tensor(v):
                cats[storage_key(v)[0]] = "optimizer"
    for p in model.parameters():
        if p.grad is not None:
            cats[storage_key(p.grad)[0]] = "gradients"
    for t in list(model.parameters()) + list(model.buffers()):
        cats[storage_key(t)[0]] = "weights"
    return cats


def python_visible_bytes(model, optimizer, tensors, unit):
    """Bytes of the distinct storages reachable from Python: parameters, buffers, grads, state, batch,
    each rounded up to `unit` (1 on CPU; 512 on CUDA, the caching allocator's block granularity)."""
    seen = {}
    objs = list(model.parameters()) + list(model.buffers()) + list(tensors)
    objs += [p.grad for p in model.parameters() if p.grad is not None]
    for st in optimizer.state.values():
        objs += [v for v in st.values() if torch.is_tensor(v)]
    for t in objs:
        ptr, n = storage_key(t)
        seen[ptr] = -(-n // unit) * unit
    return sum(seen.values())


def autocast_ctx(cfg, device):
    if cfg["precision"] == "amp-bf16":
        return torch.autocast(device_type=device.type, dtype=torch.bfloat16)
    return contextlib.nullcontext()


def _moment(seg, phase, micro=None):
    m = {"phase": phase}
    if micro is not None:
        m["microBatch"] = micro
    m.update(peakBytes=seg["peakBytes"], endBytes=seg["endBytes"], byCategory=seg["byCategory"],
             endByCategory=seg["endByCategory"])
    if seg["cuda"] is not None:
        m["cuda"] = seg["cuda"]
    return m


def make_batch(cfg, device):
    """A language model's token ids (their own labels), or the lab MLP's h features and one class per example."""
    if cfg["arch"] == "mlp":
        features = torch.randn(cfg["microBatch"], cfg["hidden"], device=device)
        return features, torch.randint(cfg["vocab"], (cfg["microBatch"],), device=device)
    ids = torch.randint(cfg["vocab"], (cfg["microBatch"], cfg["seq"]), device=device)
    return ids, ids.clone()


def run_training(cfg, device, steps=2):
    """Builds the model inside the tracker, runs `steps` optimizer steps; returns the fixture body."""
    device = torch.device(device)
    if cfg["attention"] == "sdpa" and not hasattr(torch.nn.functional, "scaled_dot_product_attention"):
        raise Unavailable(f"attention=sdpa: torch {torch.__version__} has no F.scaled_dot_product_attention")
    torch.manual_seed(0)
    with Tracker(device) as tr:
        model = build_model(cfg).to(device)
        model.train()
        optimizer = make_optimizer(model, cfg["optimizer"], cfg["optimizerImpl"])
        ids, labels = make_batch(cfg, device)
        mark = lambda name: tr.mark(name, categories(model, optimizer))
        mark("setup")
        for step in range(1, steps + 1):
            mark(f"{step}:start")
            for mb in range(1, cfg["gradAccum"] + 1):
                with autocast_ctx(cfg, device):
                    loss = model(ids, labels=labels)
                if cfg["gradAccum"] > 1:
                    loss = loss / cfg["gradAccum"]  # Trainer.training_step
                mark(f"{step}:{mb}:forward")
                loss.backward()
                mark(f"{step}:{mb}:backward")
                del loss
            optimizer.step()
            mark(f"{step}:optimizer")
            optimizer.zero_grad(set_to_none=cfg["grads"] == "free")
            mark(f"{step}:zeroGrad")
        visible = python_visible_bytes(model, optimizer, (ids, labels), 512 if device.type == "cuda" else 1)
    steps_out = []
    for step in range(1, steps + 1):
        moments = [_moment(tr.segment(f"{step}:start"), "start")]
        moments[0]["peakBytes"] = moments[0]["endBytes"]  # a point in time, not a window
        moments[0]["byCategory"] = moments[0]["endByCategory"]
        for mb in range(1, cfg["gradAccum"] + 1):
            moments.append(_moment(tr.segment(f"{step}:{mb}:forward"), "forward", mb))
            moments.append(_moment(tr.segment(f"{step}:{mb}:backward"), "backward", mb))
        moments.append(_moment(tr.segment(f"{step}:optimizer"), "optimizer"))
        moments.append(_moment(tr.segment(f"{step}:zeroGrad"), "zeroGrad"))
        steps_out.append({"step": step, "moments": moments})
    final = tr.segment(f"{steps}:zeroGrad")["endBytes"]
    return {
        "params": sum(p.numel() for p in model.parameters()),
        "trainableParams": sum(p.numel() for p in model.parameters() if p.requires_grad),
        "paramBytes": sum(storage_key(p)[1] for p in {id(p): p for p in model.parameters()}.values()),
        "bufferBytes": sum(storage_key(b)[1] for b in model.buffers()),
        "inputBytes": storage_key(ids)[1] + storage_key(labels)[1],
        "steps": steps_out,
        "checks": {
            "liveAtEnd": final,
            "pythonVisibleAtEnd": visible,
            "untrackedStorages": sum(tr.untracked_at_mark),
            "unknownFrees": tr.unknown_frees,
        },
    }
