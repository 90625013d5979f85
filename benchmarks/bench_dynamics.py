"""One RK4 step of self-attention dynamics against four bare softmax-attention evaluations.

Run: ``python benchmarks/bench_dynamics.py`` (``B = 64`` systems, ``N = 32`` tokens,
``d = 64``, float64, ``β = 1``, ``Q = K = V = I``). The floor is what any RK4 step must do:
four evaluations of ``softmax(β X Xᵀ) X`` on the same arrays, written as bare numpy (row
maximum subtracted, in-place exponential and normalization). Ours is
``integrate(SelfAttention(β), x, t_final=steps·dt, dt=dt)`` per step: four velocities (each
the floor plus the tangent projection), the stage combinations and the projection onto the
sphere after every stage. Prints the median per-step times and their ratio (target: within
1.5× of the floor), recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from laws import SelfAttention, integrate  # noqa: E402
from manifolds import Sphere  # noqa: E402


def bare_attention(x, beta):
    s = np.matmul(x, np.swapaxes(x, -1, -2))
    s *= beta
    s -= s.max(axis=-1, keepdims=True)
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return np.matmul(s, x)


def median_per_step(fn, steps, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) / steps)
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=64)
    parser.add_argument("--tokens", type=int, default=32)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--beta", type=float, default=1.0)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    sphere = Sphere(args.dim - 1)
    x = sphere.random_point(args.systems * args.tokens, rng=rng).reshape(args.systems, args.tokens, args.dim)
    sa = SelfAttention(args.beta)
    dt = 0.01

    def floor():
        for _ in range(args.steps):
            for _ in range(4):
                bare_attention(x, args.beta)

    def ours():
        integrate(sa, x, t_final=args.steps * dt, dt=dt, record_every=args.steps)

    floor(), ours()  # warm up
    t_floor = median_per_step(floor, args.steps, args.repeat)
    t_ours = median_per_step(ours, args.steps, args.repeat)
    print(f"B = {args.systems}, N = {args.tokens}, d = {args.dim}, float64, β = {args.beta}; "
          f"median of {args.repeat} runs of {args.steps} steps\n")
    print("| per RK4 step | time (ms) | ratio to floor |")
    print("|---|---|---|")
    print(f"| floor: 4 × softmax(βXXᵀ)X | {1e3 * t_floor:.3f} | 1.00× |")
    print(f"| integrate(SelfAttention, method='rk4') | {1e3 * t_ours:.3f} | {t_ours / t_floor:.2f}× |")
    met = t_ours / t_floor <= 1.5
    print(f"\ntarget (within 1.5× of the floor): {'met' if met else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
