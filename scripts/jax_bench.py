#!/usr/bin/env python3
"""JAX jit yardstick for issue 19: the work of BM_MLPTrainStep/64 (784-128-10 MLP, ReLU, cross-entropy,
SGD 0.01) and of BM_PerSampleGradsVmap/64 (vmap(grad(loss)) over a batch of 64). Optional tooling: needs
`pip install jax` in some venv; microtorch never depends on it.

    python3 scripts/jax_bench.py [--repeats 5]

Prints one line per benchmark, `BM_name median_us`, the median of `repeats` timed runs of
at least 0.3 s each. XLA's CPU threads follow the machine; pin them with taskset to compare at 1 thread.
"""
import argparse
import statistics
import time

import jax
import jax.numpy as jnp

B, I, H, O = 64, 784, 128, 10


def init(key):
    k1, k2, k3, k4, k5 = jax.random.split(key, 5)
    bound1, bound2 = 1 / I**0.5, 1 / H**0.5
    params = (jax.random.uniform(k1, (H, I), minval=-bound1, maxval=bound1), jnp.zeros(H),
              jax.random.uniform(k2, (O, H), minval=-bound2, maxval=bound2), jnp.zeros(O))
    x = jax.random.normal(k3, (B, I))
    y = jax.random.randint(k4, (B,), 0, O)
    return params, x, y


def loss(params, x, y):
    w1, b1, w2, b2 = params
    logits = jax.nn.relu(x @ w1.T + b1) @ w2.T + b2
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, y[..., None], axis=-1))


@jax.jit
def train_step(params, x, y):
    grads = jax.grad(loss)(params, x, y)
    return tuple(p - 0.01 * g for p, g in zip(params, grads))


def sample_loss(params, xi, yi):
    return loss(params, xi[None], yi[None])


per_sample_grads = jax.jit(jax.vmap(jax.grad(sample_loss), in_axes=(None, 0, 0)))


def time_us(fn, repeats):
    jax.block_until_ready(fn())
    runs = []
    for _ in range(repeats):
        n, start = 0, time.perf_counter()
        while True:
            jax.block_until_ready(fn())
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed > 0.3:
                break
        runs.append(elapsed / n * 1e6)
    return statistics.median(runs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    params, x, y = init(jax.random.PRNGKey(0))
    state = {"params": params}

    def step():
        state["params"] = train_step(state["params"], x, y)
        return state["params"]

    print(f"BM_MLPTrainStep/64 {time_us(step, args.repeats):.1f}")
    print(f"BM_PerSampleGradsVmap/64 {time_us(lambda: per_sample_grads(params, x, y), args.repeats):.1f}")


if __name__ == "__main__":
    main()
