#!/usr/bin/python3
"""Writes golden values for the LAMB optimiser test (tests/train/tst_lamb_golden.cpp).

The update is computed here independently of the C++ code, from the published algorithm (You et al. 2019,
"Large Batch Optimization for Deep Learning: Training BERT in 76 minutes") with the conventions of
torch_optimizer.Lamb that sahajBERT used:

    m_t = beta1 * m + (1 - beta1) * g
    v_t = beta2 * v + (1 - beta2) * g^2
    update = m_t / (sqrt(v_t) + eps) + weight_decay * p          (eps outside the square root, moments raw)
    step_size = lr * sqrt(1 - beta2^t) / (1 - beta1^t)          if debias, else lr
    phi = min(||p||, clamp_value)
    trust = phi / ||update||, or 1 when phi == 0 or ||update|| == 0, or always 1 with adam=True
    p = p - step_size * trust * update

A parameter without a gradient in a step is skipped entirely (its step count does not advance).
Everything is computed in float64 so that the golden values carry no float32 rounding.

Usage: /usr/bin/python3 scripts/lamb-golden.py [OUTPUT]   (default tests/train/data/lamb-golden.json)
Needs Debian's python3-torch (not a project dependency).
"""

import json
import math
import os
import sys

import torch

STEPS = 5


def lamb_step(param, grad, state, lr, beta1, beta2, eps, weight_decay, clamp_value, adam, debias):
    """One LAMB update of one tensor, written element-wise from the formulas above."""
    state["step"] += 1
    t = state["step"]
    m = beta1 * state["exp_avg"] + (1.0 - beta1) * grad
    v = beta2 * state["exp_avg_sq"] + (1.0 - beta2) * grad * grad
    state["exp_avg"] = m
    state["exp_avg_sq"] = v
    update = m / (torch.sqrt(v) + eps)
    if weight_decay != 0.0:
        update = update + weight_decay * param
    step_size = lr
    if debias:
        step_size = lr * math.sqrt(1.0 - beta2**t) / (1.0 - beta1**t)
    weight_norm = min(math.sqrt(float((param * param).sum())), clamp_value)
    update_norm = math.sqrt(float((update * update).sum()))
    if adam or weight_norm == 0.0 or update_norm == 0.0:
        trust = 1.0
    else:
        trust = weight_norm / update_norm
    return param - step_size * trust * update


def flat(tensor):
    return [float(x) for x in tensor.reshape(-1).tolist()]


def make_case(name, options, generator):
    """Builds the tensors of one case and runs STEPS updates on them."""
    # name, group, shape, initial values, steps (1-based) at which the gradient is absent
    specs = [
        ("encoder.dense.weight", "decay", (3, 4), torch.randn(3, 4, generator=generator, dtype=torch.float64), []),
        ("encoder.dense.bias", "no_decay", (4,), torch.randn(4, generator=generator, dtype=torch.float64), []),
        # weight norm 0: the trust ratio falls back to 1
        ("zero.weight", "decay", (2, 3), torch.zeros(2, 3, dtype=torch.float64), []),
        # norm about 14000: above sahajBERT's clamp_value of 10000
        ("large.weight", "decay", (4, 2), 5000.0 + torch.rand(4, 2, generator=generator, dtype=torch.float64), []),
        # no gradient in step 3: the tensor and its state stay untouched in that step
        ("LayerNorm.weight", "no_decay", (5,), 1.0 + 0.1 * torch.randn(5, generator=generator, dtype=torch.float64), [3]),
    ]
    groups = {"decay": options["weight_decay"], "no_decay": 0.0}
    params = []
    for pname, group, shape, initial, missing in specs:
        grads = []
        for step in range(1, STEPS + 1):
            if step in missing:
                grads.append(None)
            else:
                grads.append(0.5 * torch.randn(*shape, generator=generator, dtype=torch.float64))
        state = {"step": 0, "exp_avg": torch.zeros(shape, dtype=torch.float64),
                 "exp_avg_sq": torch.zeros(shape, dtype=torch.float64)}
        value = initial.clone()
        history = []
        for grad in grads:
            if grad is not None:
                value = lamb_step(value, grad, state, options["lr"], options["beta1"], options["beta2"],
                                  options["eps"], groups[group], options["clamp_value"], options["adam"],
                                  options["debias"])
            history.append(flat(value))
        params.append({
            "name": pname,
            "group": group,
            "shape": list(shape),
            "initial": flat(initial),
            "grads": [None if g is None else flat(g) for g in grads],
            "expected": history,
            "final_step": state["step"],
            "final_exp_avg": flat(state["exp_avg"]),
            "final_exp_avg_sq": flat(state["exp_avg_sq"]),
        })
    return {"name": name, "options": options, "groups": groups, "params": params}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "train", "data", "lamb-golden.json")
    generator = torch.Generator().manual_seed(20240611)
    sahajbert = dict(lr=1.76e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.01, clamp_value=10000.0,
                     adam=False, debias=True)
    cases = [
        make_case("sahajbert", sahajbert, generator),
        # torch_optimizer's defaults: clamp at 10 (the large tensor is clamped hard), no debiasing
        make_case("clamp10-nodebias", dict(sahajbert, lr=0.01, clamp_value=10.0, debias=False), generator),
        # adam=True: trust ratio forced to 1
        make_case("adam", dict(sahajbert, lr=0.01, weight_decay=0.1, adam=True), generator),
    ]
    golden = {
        "generator": "scripts/lamb-golden.py",
        "torch_version": torch.__version__,
        "steps": STEPS,
        "cases": cases,
    }
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(golden, f, indent=1)
        f.write("\n")
    print(f"wrote {out}: {len(cases)} cases, {STEPS} steps each")


if __name__ == "__main__":
    main()
