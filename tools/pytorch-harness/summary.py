"""Prints fixtures as Markdown tables in MiB (2^20 B): one row per moment, peak and end with their categories."""
import glob
import json
import os
import sys

SHORT = {"weights": "W", "gradients": "G", "optimizer": "O", "activations": "A"}


def mib(n):
    return f"{n / 2**20:.3f}"


def cats(by):
    return " ".join(f"{SHORT[k]} {mib(v)}" for k, v in by.items() if v)


def main(paths):
    for path in paths:
        fx = json.load(open(path))
        if "steps" not in fx:
            continue
        name = os.path.basename(path)
        if fx["unavailable"]:
            print(f"\n### {name}: unavailable: {'; '.join(fx['unavailable'])}")
            continue
        print(f"\n### {name} (params {fx['params']:,}, trainable {fx['trainableParams']:,})\n")
        print("| step | moment | peak MiB | at peak | end MiB |")
        print("| --- | --- | --- | --- | --- |")
        for st in fx["steps"]:
            for m in st["moments"]:
                label = m["phase"] + (f" {m['microBatch']}" if "microBatch" in m else "")
                print(f"| {st['step']} | {label} | {mib(m['peakBytes'])} | {cats(m['byCategory'])} | {mib(m['endBytes'])} |")


if __name__ == "__main__":
    main(sys.argv[1:] or sorted(glob.glob("tests/fixtures/pytorch/*.json")))
