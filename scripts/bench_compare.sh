#!/usr/bin/env bash
# Side-by-side benchmarks (issues 19 and 39), interleaved ROUNDS times, then one table of medians and ratios:
# microtorch_bench at 1 thread (MT_NUM_THREADS=1), at its default, at its default under `taskset -c 0` (one CPU
# allowed), and at its default with OpenBLAS forced to the SSE3 kernels it picks on a CPU model it does not know
# (OPENBLAS_CORETYPE=Prescott); the same binary of an earlier build when MT_BENCH_BEFORE names one (plain and
# forced); the libtorch yardstick at 1 and 2 threads; JAX jit (scripts/jax_bench.py) on 1 and 2 CPUs.
#   scripts/bench_compare.sh [--rounds N] [--busy] [--filter REGEX]
# --busy runs a competing CPU-bound process (normal priority) for the whole measurement, as a compile would.
# Yardstick: libtorch 2.x from a pip wheel when TORCH_WHEEL_DIR is set or TORCH_VENV (default /tmp/tvenv) has
# torch (../shared/yardstick/get_torch_wheel.sh installs it), else Debian's libtorch 1.13, else none; JAX when
# that venv has jax (pip install jax). Peers count at the better of their two thread counts.
# Optional tooling: nothing in the library or its tests depends on it.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3
busy=0
filter='^BM_(MLPTrainStep|MLPInference|Matmul|AddLarge|SumLarge|AddSmallNoGrad|AddSmallInferenceMode|DispatchNoopUnboxed|DispatchNoopBoxed|PerSampleGradsVmap)(/|$)'
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --busy) busy=1; shift ;;
    --filter) filter=$2; shift 2 ;;
    *) echo "usage: $0 [--rounds N] [--busy] [--filter REGEX]" >&2; exit 2 ;;
  esac
done

build=${BUILD_DIR:-build}
if [ ! -f "$build/build.ninja" ] && [ ! -f "$build/Makefile" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" --target microtorch_bench >/dev/null
mt_bench=$(find "$build" -name microtorch_bench -type f -perm -u+x | head -n 1)

wheel=${TORCH_WHEEL_DIR:-}
venv=${TORCH_VENV:-/tmp/tvenv}
if [ -z "$wheel" ] && [ -x "$venv/bin/python" ]; then
  # The folder itself, not `import torch`: the wheel may be installed without its Python dependencies.
  wheel=$(ls -d "$venv"/lib/python3*/site-packages/torch 2>/dev/null | head -n 1)
fi
yardstick=""
if [ -n "$wheel" ]; then
  ybuild=${YARDSTICK_BUILD:-build-yardstick-wheel}
  cmake -S ../shared/yardstick -B "$ybuild" -DCMAKE_BUILD_TYPE=Release -DTORCH_WHEEL_DIR="$wheel" >/dev/null
elif [ -d /usr/share/libtorch ] || dpkg-query -W libtorch-dev >/dev/null 2>&1; then
  ybuild=${YARDSTICK_BUILD:-build-yardstick}
  cmake -S ../shared/yardstick -B "$ybuild" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
if [ -n "${ybuild:-}" ]; then
  cmake --build "$ybuild" --target libtorch_bench >/dev/null
  yardstick="$ybuild/libtorch_bench"
else
  echo "no libtorch found (see ../shared/yardstick/README.md): microtorch only" >&2
fi

jax_python=""
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import jax' 2>/dev/null; then jax_python=$venv/bin/python; fi

out=$(mktemp -d)
busy_pid=""
cleanup() {
  [ -n "$busy_pid" ] && kill "$busy_pid" 2>/dev/null || true
  rm -rf "$out"
}
trap cleanup EXIT
if [ "$busy" = 1 ]; then
  sh -c 'while :; do :; done' &
  busy_pid=$!
fi

min_time=${BENCH_MIN_TIME:-0.3}
for round in $(seq "$rounds"); do
  for config in 1 default taskset prescott ${MT_BENCH_BEFORE:+before beforeprescott}; do
    bench=$mt_bench
    case "$config" in
      1) launch=(env MT_NUM_THREADS=1) ;;
      default) launch=(env -u MT_NUM_THREADS) ;;
      taskset) launch=(env -u MT_NUM_THREADS taskset -c 0) ;;
      prescott) launch=(env -u MT_NUM_THREADS OPENBLAS_CORETYPE=Prescott) ;;
      before) launch=(env -u MT_NUM_THREADS); bench=$MT_BENCH_BEFORE ;;
      beforeprescott) launch=(env -u MT_NUM_THREADS OPENBLAS_CORETYPE=Prescott); bench=$MT_BENCH_BEFORE ;;
    esac
    "${launch[@]}" "$bench" --benchmark_filter="$filter" --benchmark_min_time="$min_time" \
      --benchmark_format=json >"$out/mt-$config-$round.json" 2>/dev/null
  done
  if [ -n "$jax_python" ]; then
    for cpus in 0 0,1; do
      taskset -c "$cpus" "$jax_python" scripts/jax_bench.py --repeats 3 >"$out/jax-${cpus//,/}-$round.txt"
    done
  fi
  if [ -n "$yardstick" ]; then
    for threads in 1 2; do
      YARDSTICK_THREADS=$threads OMP_NUM_THREADS=$threads "$yardstick" --benchmark_filter="$filter" \
        --benchmark_min_time="$min_time" --benchmark_format=json >"$out/lt-$threads-$round.json" 2>/dev/null
    done
  fi
  echo "round $round of $rounds done" >&2
done

python3 - "$out" "$busy" <<'EOF'
import glob, json, os, statistics, sys
out, busy = sys.argv[1], sys.argv[2] == "1"
scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
runs = {}  # (config, name) -> [microseconds]; config: mt-default, lt-2, jax-01...
for path in glob.glob(os.path.join(out, "*.json")):
    config = "-".join(os.path.basename(path).split("-")[:2])
    for b in json.load(open(path))["benchmarks"]:
        name = b["name"].removesuffix("/real_time")
        runs.setdefault((config, name), []).append(b["real_time"] * scale[b["time_unit"]])
for path in glob.glob(os.path.join(out, "jax-*.txt")):
    config = "-".join(os.path.basename(path).split("-")[:2])
    for line in open(path):
        name, us = line.split()
        runs.setdefault((config, name), []).append(float(us))
names = sorted({n for c, n in runs if c.startswith("mt-")},
               key=lambda n: (n.split("/")[0], int(n.split("/")[1]) if "/" in n else 0))
med = lambda c, n: statistics.median(runs[(c, n)]) if (c, n) in runs else None
best = lambda *vs: min((v for v in vs if v is not None), default=None)
fmt = lambda v: "" if v is None else f"{v:.1f}" if v >= 10 else f"{v:.3g}"
ratio = lambda a, b: f"{a / b:.2f}x" if a is not None and b is not None else ""
before = any(c == "mt-before" for c, _ in runs)
print(f"medians (us per iteration) of {len(glob.glob(os.path.join(out, 'mt-1-*.json')))} rounds, "
      f"{'with' if busy else 'without'} a competing busy process")
columns = ["mt 1 thread", "mt default", "default / 1 thread", "mt taskset -c 0", "mt OpenBLAS forced Prescott"]
columns += ["before, default", "before, forced Prescott"] if before else []
columns += ["libtorch 1", "libtorch 2", "JAX jit 1 CPU", "JAX jit 2 CPUs", "mt default / best peer"]
print("| benchmark | " + " | ".join(columns) + " |")
print("|---" * (len(columns) + 1) + "|")
for n in names:
    m1, md, mt, mp, b, bp = (med(f"mt-{c}", n) for c in ("1", "default", "taskset", "prescott", "before", "beforeprescott"))
    l1, l2, j1, j2 = med("lt-1", n), med("lt-2", n), med("jax-0", n), med("jax-01", n)
    cells = [fmt(m1), fmt(md), ratio(md, m1), fmt(mt), fmt(mp)] + ([fmt(b), fmt(bp)] if before else [])
    cells += [fmt(l1), fmt(l2), fmt(j1), fmt(j2), ratio(md, best(l1, l2, j1, j2))]
    print(f"| {n} | " + " | ".join(cells) + " |")
EOF
