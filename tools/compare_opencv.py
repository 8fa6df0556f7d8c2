#!/usr/bin/python3
"""convis's CPU engines against OpenCV's filter2D, the same filters on the same image, in one run.

Outside convis's tests: a comparison for the README's Performance section, run by
`./do.sh compare`. For each filter size K it runs `convis bench -k box:K` (cpu-simd and
cpu-par, the median of its timed runs after a warm-up), then OpenCV's filter2D with the
same K x K box weights on a float32 image of the same size, border replicate (convis's
clamp), on one thread and on as many threads as cpu-par has, the median of its calls.
Then the same box filters as two 1-D passes: convis's row-then-column passes (`convis apply
--separable`, one CPU thread, the median of five runs) against OpenCV's sepFilter2D on one
thread and on as many as cpu-par has, and cpu-par's 2-D loop beside them.
The two are not bit-compared here (OpenCV's summation order is its own); the figures are
times. Usage: tools/compare_opencv.py CONVIS [SIZE] [K,K,...]
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np


def convis_times(convis, k, size):
    out = subprocess.run([convis, "bench", "--json", "-k", "box:%d" % k, "--sizes", str(size),
                          "--engines", "cpu-simd,cpu-par", "--budget-ms", "1500"],
                         check=True, capture_output=True, text=True).stdout
    runs = json.loads(out)["runs"]
    return {r["engine"]: r for r in runs if r["engine"] in ("cpu-simd", "cpu-par")}


def opencv_median(img, kernel, threads, budget_s=1.5, call=None):
    cv2.setNumThreads(threads)
    call = call or (lambda: cv2.filter2D(img, -1, kernel, borderType=cv2.BORDER_REPLICATE))
    call()  # warm-up
    times, start = [], time.perf_counter()
    while len(times) < 200 and (len(times) < 5 or time.perf_counter() - start < budget_s):
        t0 = time.perf_counter()
        call()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), len(times)


def convis_separable(convis, k, png, out):
    """`convis apply --separable`: its two passes (the median of 5 runs after a warm-up), five times, and the engine's time."""
    two, direct = [], None
    for _ in range(5):
        text = subprocess.run([convis, "apply", png, "-k", "box:%d" % k, "-o", out, "--separable",
                               "--engine", "cpu-par", "--reps", "5"],
                              check=True, capture_output=True, text=True).stdout
        two.append(float(re.search(r"([0-9.]+) ms on one CPU thread", text).group(1)))
        direct = float(re.search(r"time: ([0-9.]+) ms", text).group(1))
    return statistics.median(two), direct


def separable_table(convis, img, size, sizes):
    threads = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        png, out = os.path.join(tmp, "in.png"), os.path.join(tmp, "out.pfm")
        cv2.imwrite(png, img.astype(np.uint8))
        grey = img.astype(np.uint8).astype(np.float32)
        print("\n| K | convis two passes (1 thread) | OpenCV sepFilter2D, 1 thread | OpenCV sepFilter2D, %d threads |"
              " cpu-par 2-D | two passes vs sepFilter2D, 1 thread |" % threads)
        print("|---|---|---|---|---|---|")
        for k in sizes:
            two, direct = convis_separable(convis, k, png, out)
            line = np.full(k, 1.0 / k, np.float32)
            sep = lambda: cv2.sepFilter2D(grey, -1, line, line, borderType=cv2.BORDER_REPLICATE)
            one, n1 = opencv_median(grey, None, 1, call=sep)
            many, n2 = opencv_median(grey, None, threads, call=sep)
            ratio = one / two
            verdict = ("%.2fx faster" % ratio) if ratio >= 1 else ("%.2fx slower" % (1 / ratio))
            print("| %d | %.3g ms | %.3g ms (%d calls) | %.3g ms (%d calls) | %.3g ms | %s |" %
                  (k, two, one, n1, many, n2, direct, verdict))
    print("\nconvis apply -k box:K --separable --engine cpu-par on a %d x %d 8-bit image (its two passes: the median "
          "of five runs; cpu-par: the median of 5 after a warm-up); OpenCV %s's sepFilter2D with rows of 1/K, float32, "
          "border replicate; one run." % (size, size, cv2.__version__))


def main():
    convis = sys.argv[1]
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 2048
    sizes = [int(k) for k in (sys.argv[3] if len(sys.argv) > 3 else "3,5,7,9,11,15").split(",")]
    rng = np.random.default_rng(1)
    img = (rng.random((size, size)) * 255).astype(np.float32)
    print("| K | cpu-simd (1 thread) | OpenCV filter2D, 1 thread | cpu-par | OpenCV, as many threads |"
          " cpu-par vs OpenCV |")
    print("|---|---|---|---|---|---|")
    for k in sizes:
        c = convis_times(convis, k, size)
        threads = c["cpu-par"].get("threads", 1)
        kernel = np.full((k, k), 1.0 / (k * k), np.float32)
        one, n1 = opencv_median(img, kernel, 1)
        many, n2 = opencv_median(img, kernel, max(threads, 1))
        par = c["cpu-par"]["median_ms"]
        ratio = many / par
        verdict = ("%.2fx faster" % ratio) if ratio >= 1 else ("%.2fx slower" % (1 / ratio))
        print("| %d | %.3g ms | %.3g ms (%d calls) | %.3g ms (%d threads) | %.3g ms (%d calls) | %s |" %
              (k, c["cpu-simd"]["median_ms"], one, n1, par, threads, many, n2, verdict))
    print("\nOpenCV %s's filter2D, %d x %d float32, border replicate; convis bench -k box:K (%s) on a square of "
          "the same size; one run." % (cv2.__version__, size, size, os.path.basename(convis)))
    separable_table(convis, img, size, sizes)


if __name__ == "__main__":
    main()
