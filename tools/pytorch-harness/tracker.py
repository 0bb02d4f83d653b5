"""Exact live-byte tracking from the allocator's own log.

Every allocation and free that goes through PyTorch's allocators (c10's DefaultCPUAllocator on CPU, the
caching allocator on CUDA) is reported to the profiler when `profile_memory=True`
(c10/core/CPUAllocator.cpp `ProfiledCPUMemoryReporter`, c10/cuda/CUDACachingAllocator.cpp
`reportMemoryUsageToProfiler`). We replay that log: the running sum of the sizes of allocations not yet freed
is exactly the live byte count, at every allocation and free. Moments are delimited by a marker op
(`aten::i0_` on a private 1-element CPU tensor: an in-place op that allocates nothing and that the models
never call), so the k-th `aten::i0_` event in the log is the k-th `mark()`.

On CUDA the phase peaks are also read from `torch.cuda.max_memory_allocated()` with
`torch.cuda.reset_peak_memory_stats()` at every mark, and recorded next to the replayed figures.
"""
import torch
from torch.profiler import ProfilerActivity, profile

CATEGORIES = ("weights", "gradients", "optimizer", "activations")
# When one storage plays two roles (it cannot in these loops), the first listed wins.
_PRIORITY = {c: i for i, c in enumerate(CATEGORIES)}
_MARK_OP = "aten::i0_"


def _name(event):
    """Profiler event name (a method in torch 1.13, a property in some later versions)."""
    return event.name() if callable(event.name) else event.name


def storage_key(t):
    """(data pointer, bytes) of the whole storage under a tensor, on torch 1.13 and 2.x."""
    s = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
    nbytes = s.nbytes() if callable(getattr(s, "nbytes", None)) else s.size() * t.element_size()
    return s.data_ptr(), int(nbytes)


class Tracker:
    """Runs a profiler session with memory events; `mark()` delimits moments; `segment()` reads them back."""

    def __init__(self, device):
        self.device = torch.device(device)
        self._marker = torch.zeros(1)  # allocated before profiling: never in the log
        self.marks = []  # [(name, {ptr: category}, cuda_stats or None)]
        self._prof = None

    def __enter__(self):
        if self.device.type == "cuda":
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
        self._cuda_base = torch.cuda.memory_allocated() if self.device.type == "cuda" else 0
        self._prof = profile(activities=[ProfilerActivity.CPU], profile_memory=True)
        self._prof.__enter__()
        return self

    def mark(self, name, categories=None):
        """Ends the current moment; `categories` maps storage data pointers to a category name."""
        cuda = None
        if self.device.type == "cuda":
            torch.cuda.synchronize()
            cuda = {"allocated": torch.cuda.memory_allocated() - self._cuda_base,
                    "maxAllocated": torch.cuda.max_memory_allocated() - self._cuda_base}
            torch.cuda.reset_peak_memory_stats()
        self.marks.append((name, dict(categories or {}), cuda))
        self._marker.i0_()

    def __exit__(self, *exc):
        self._prof.__exit__(*exc)
        if exc[0] is None:
            self._replay()
        return False

    def _events(self):
        """Allocation, free and marker events of our device, in time order (stable on ties)."""
        out = []
        stack = list(reversed(self._prof.profiler.kineto_results.experimental_event_tree()))
        order = 0
        while stack:
            ev = stack.pop()
            fields = ev.extra_fields
            if type(fields).__name__ == "_ExtraFields_Allocation":
                if torch.device(fields.device).type == self.device.type:
                    out.append((ev.start_time_ns, order, "a", fields.ptr, int(fields.alloc_size)))
            elif _name(ev) == _MARK_OP:
                out.append((ev.start_time_ns, order, "m", None, 0))
            order += 1
            stack.extend(reversed(ev.children))  # pre-order: chronological within a thread
        out.sort(key=lambda e: (e[0], e[1]))
        return out

    def _replay(self):
        events = self._events()
        n_marks = sum(1 for e in events if e[2] == "m")
        if n_marks != len(self.marks):
            raise RuntimeError(f"saw {n_marks} marker ops for {len(self.marks)} marks: another op used {_MARK_OP}")
        # Pass 1: give each allocation (not each address: addresses are reused) the role it has at the
        # marks where it is alive.
        live, sizes, tags, k = {}, [], {}, 0
        self.unknown_frees = 0
        self.untracked_at_mark = []
        for _, _, kind, ptr, size in events:
            if kind == "a":
                if size > 0:
                    live[ptr] = len(sizes)
                    sizes.append(size)
                elif live.pop(ptr, None) is None:
                    self.unknown_frees += 1
            else:
                missing = 0
                for p, cat in self.marks[k][1].items():
                    aid = live.get(p)
                    if aid is None:
                        missing += 1
                    elif aid not in tags or _PRIORITY[cat] < _PRIORITY[tags[aid]]:
                        tags[aid] = cat
                self.untracked_at_mark.append(missing)
                k += 1
        # Pass 2: running total and per-category totals; per segment (between consecutive marks) the peak,
        # the categories at the first instant of that peak, and the end state.
        live, total, k = {}, 0, 0
        by = {c: 0 for c in CATEGORIES}
        seg_peak, seg_by = 0, dict(by)
        self.segments = []
        aid = 0
        for _, _, kind, ptr, size in events:
            if kind == "a":
                if size > 0:
                    cat = tags.get(aid, "activations")
                    live[ptr] = (size, cat)
                    aid += 1
                    total += size
                    by[cat] += size
                    if total > seg_peak:
                        seg_peak, seg_by = total, dict(by)
                else:
                    entry = live.pop(ptr, None)
                    if entry is not None:
                        total -= entry[0]
                        by[entry[1]] -= entry[0]
            else:
                self.segments.append({"name": self.marks[k][0], "peakBytes": seg_peak, "byCategory": seg_by,
                                      "endBytes": total, "endByCategory": dict(by), "cuda": self.marks[k][2]})
                k += 1
                seg_peak, seg_by = total, dict(by)

    def segment(self, name):
        """The moment that ended at mark `name`: peak since the previous mark, and the state at the mark."""
        for s in self.segments:
            if s["name"] == name:
                return s
        raise KeyError(name)
