"""Proves the tracker exact on tensors of known size: peaks, ends, categories, address reuse."""
import torch

from tracker import Tracker, storage_key


def _check(label, got, want):
    if got != want:
        raise AssertionError(f"tracker self-test {label}: got {got}, want {want}")


def run_selftest(device="cpu"):
    """Raises AssertionError on any mismatch; returns the number of checks passed."""
    dev = torch.device(device)
    checks = 0
    with Tracker(dev) as tr:
        tr.mark("base")
        a = torch.empty(1000, device=dev)                      # 4,000 B
        b = torch.empty(10, dtype=torch.uint8, device=dev)     # 10 B
        del a
        c = torch.empty(250, dtype=torch.float64, device=dev)  # 2,000 B, may reuse a's address
        tr.mark("first")
        w = torch.nn.Parameter(torch.empty(300, device=dev))   # 1,200 B of weights
        w.grad = torch.empty(300, device=dev)                  # 1,200 B of gradients
        state = torch.empty(600, device=dev)                   # 2,400 B of optimizer state
        view = state[100:]                                     # a view adds no bytes
        tmp = torch.empty(5000, device=dev)                    # 20,000 B transient
        del tmp
        cats = {storage_key(w)[0]: "weights", storage_key(w.grad)[0]: "gradients",
                storage_key(view)[0]: "optimizer"}
        tr.mark("second", cats)
        del b, c
        w.grad = None
        tr.mark("third", cats)
    base = tr.segment("base")["endBytes"]
    first, second, third = tr.segment("first"), tr.segment("second"), tr.segment("third")
    if dev.type == "cpu":
        _check("first.peak", first["peakBytes"] - base, 4010)
        _check("first.end", first["endBytes"] - base, 2010)
        unit = 1
    else:  # the CUDA caching allocator rounds blocks up to 512 B
        unit = 512
    r = lambda n: -(-n // unit) * unit
    checks += 2
    _check("second.peak", second["peakBytes"] - base, r(10) + r(2000) + r(1200) * 2 + r(2400) + r(20000))
    _check("second.end", second["endBytes"] - base, r(10) + r(2000) + r(1200) * 2 + r(2400))
    _check("second.weights", second["endByCategory"]["weights"], r(1200))
    _check("second.gradients", second["byCategory"]["gradients"], r(1200))
    _check("second.optimizer", second["byCategory"]["optimizer"], r(2400))
    _check("second.activations@peak", second["byCategory"]["activations"] - base, r(10) + r(2000) + r(20000))
    _check("third.end", third["endBytes"] - base, r(1200) + r(2400))
    _check("third.gradients", third["endByCategory"]["gradients"], 0)
    _check("unknown frees", tr.unknown_frees, 0)
    checks += 9
    del w, state, view
    return checks


if __name__ == "__main__":
    print(f"tracker self-test: {run_selftest()} checks passed")
