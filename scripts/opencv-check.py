#!/usr/bin/python3
"""opencv-check.py - OpenCV's OpenCL paths (the T-API: cv2.UMat) on one
OpenCL device, each result compared with OpenCV's own CPU path on the same
input, and timed.

    OCL_ICD_VENDORS=... OPENCV_OPENCL_DEVICE='cpucl:CPU:' scripts/opencv-check.py

Debian: python3-opencv (OpenCV 4.6). One line per operation: ok or FAIL,
the largest difference from the CPU path, and the best of REPS (default 8)
runs on the device, in ms (the first runs build OpenCV's programs; cpucl
compiles a launch copy at a kernel's third launch, so the best of a few is
the steady state). OPS=name runs the operations whose name contains it.
Exit status: the number of failures.

Tolerances: OpenCV's OpenCL kernels are not its CPU code; where they round
differently the bound says by how much (PoCL's CPU device shows the same
differences on these inputs): warpAffine interpolates in float where the
CPU path uses 5-bit fixed point (up to 4 levels), matchTemplate normalises
in float where the CPU path uses double. remap gets whole-pixel maps and
cartToPolar is checked for its magnitude only, for the same reason (the
CPU path's 1/32-pixel interpolation and fastAtan2 angle).
"""
import os
import sys
import time

import cv2
import numpy as np

cv2.ocl.setUseOpenCL(True)
device = cv2.ocl.Device.getDefault()
if not cv2.ocl.useOpenCL() or not device.name():
    sys.exit("OpenCV finds no OpenCL device (OPENCV_OPENCL_DEVICE, OCL_ICD_VENDORS?)")
print(f"device: {device.name()} | {device.vendorName()} | {device.version()}")

rng = np.random.default_rng(1)
image = cv2.GaussianBlur(rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8), (5, 5), 2)
gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
floats = rng.random((1024, 1024), dtype=np.float32)
rotation = cv2.getRotationMatrix2D((960, 540), 17, 0.9)
template = gray[300:364, 500:564].copy()
square3, square5 = np.ones((3, 3), np.uint8), np.ones((5, 5), np.uint8)
sharpen = np.array([[0, 0, -1, 0, 0], [0, -1, -2, -1, 0], [-1, -2, 17, -2, -1],
                    [0, -1, -2, -1, 0], [0, 0, -1, 0, 0]], np.float32)
taps = np.array([1, 4, 6, 4, 1], np.float32) / 16
ys, xs = np.indices((1080, 1920), dtype=np.float32)
# whole-pixel offsets that vary: OpenCV's CPU path interpolates at 1/32 of a
# pixel, its OpenCL kernel in float, so only whole pixels compare exactly
map_x, map_y = xs + np.round(8 * np.sin(ys / 30)), ys + np.round(6 * np.cos(xs / 40))
clahe = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8))
lut = (255 * (np.arange(256) / 255.0) ** 0.6).astype(np.uint8)


def same_kind(m, array):
    """array as a UMat when m is one (OpenCV wants both operands alike)."""
    return cv2.UMat(array) if isinstance(m, cv2.UMat) else array


def transposed(m):
    return cv2.transpose(m) if isinstance(m, cv2.UMat) else m.T.copy()


# name, operation, input, tolerance (absolute; below 1.0 for float results:
# relative to the largest magnitude; None: fraction of differing elements)
OPERATIONS = [
    ("cvtColor BGR2GRAY", lambda m: cv2.cvtColor(m, cv2.COLOR_BGR2GRAY), image, 1),
    ("cvtColor BGR2HSV", lambda m: cv2.cvtColor(m, cv2.COLOR_BGR2HSV), image, 1),
    ("cvtColor BGR2Lab", lambda m: cv2.cvtColor(m, cv2.COLOR_BGR2Lab), image, 1),
    ("GaussianBlur 7x7", lambda m: cv2.GaussianBlur(m, (7, 7), 1.5), image, 1),
    ("blur 5x5", lambda m: cv2.blur(m, (5, 5)), image, 1),
    ("medianBlur 5", lambda m: cv2.medianBlur(m, 5), image, 0),
    ("bilateralFilter", lambda m: cv2.bilateralFilter(m, 9, 50, 50), image, 1),
    ("resize linear", lambda m: cv2.resize(m, (960, 540), interpolation=cv2.INTER_LINEAR), image, 1),
    ("resize area", lambda m: cv2.resize(m, (640, 360), interpolation=cv2.INTER_AREA), image, 1),
    ("resize cubic up", lambda m: cv2.resize(m, (2400, 1350), interpolation=cv2.INTER_CUBIC), gray, 1),
    ("warpAffine", lambda m: cv2.warpAffine(m, rotation, (1920, 1080)), image, 4),
    ("Sobel dx", lambda m: cv2.Sobel(m, cv2.CV_32F, 1, 0, ksize=3), gray, 1e-3),
    ("Laplacian", lambda m: cv2.Laplacian(m, cv2.CV_16S, ksize=3), gray, 0),
    ("Canny", lambda m: cv2.Canny(m, 50, 150), gray, None),
    ("threshold", lambda m: cv2.threshold(m, 127, 255, cv2.THRESH_BINARY)[1], gray, 0),
    ("adaptiveThreshold", lambda m: cv2.adaptiveThreshold(
        m, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 11, 2), gray, 0),
    ("dilate", lambda m: cv2.dilate(m, square5), image, 0),
    ("erode", lambda m: cv2.erode(m, square3), image, 0),
    ("morphologyEx open", lambda m: cv2.morphologyEx(m, cv2.MORPH_OPEN, square5), gray, 0),
    ("equalizeHist", lambda m: cv2.equalizeHist(m), gray, 1),
    ("pyrDown", lambda m: cv2.pyrDown(m), image, 1),
    ("pyrUp", lambda m: cv2.pyrUp(m), gray, 1),
    ("add", lambda m: cv2.add(m, m), image, 0),
    ("addWeighted", lambda m: cv2.addWeighted(m, 0.3, m, 0.5, 7), image, 1),
    ("absdiff", lambda m: cv2.absdiff(m, same_kind(m, np.full_like(image, 128))), image, 0),
    ("flip", lambda m: cv2.flip(m, -1), image, 0),
    ("transpose", lambda m: cv2.transpose(m), gray, 0),
    ("normalize to float", lambda m: cv2.normalize(m, None, 0, 1, cv2.NORM_MINMAX, cv2.CV_32F),
     gray, 1e-5),
    ("integral", lambda m: cv2.integral(m), gray, 0),
    ("matchTemplate", lambda m: cv2.matchTemplate(m, same_kind(m, template), cv2.TM_CCOEFF_NORMED),
     gray, 0.1),
    ("cornerHarris", lambda m: cv2.cornerHarris(m, 2, 3, 0.04), floats, 1e-3),
    ("gemm", lambda m: cv2.gemm(m, m, 1.0, None, 0.0), floats, 1e-2),
    ("dft", lambda m: cv2.dft(m, flags=cv2.DFT_COMPLEX_OUTPUT), floats, 1e-1),
    ("exp", lambda m: cv2.exp(m), floats, 1e-5),
    ("log", lambda m: cv2.log(cv2.add(m, 1.0) if isinstance(m, cv2.UMat) else m + 1), floats, 1e-5),
    ("magnitude", lambda m: cv2.magnitude(m, m), floats, 1e-5),
    ("phase", lambda m: cv2.phase(m, transposed(m), angleInDegrees=True), floats, 0.5),
    ("filter2D 5x5", lambda m: cv2.filter2D(m, -1, sharpen), image, 1),
    ("sepFilter2D", lambda m: cv2.sepFilter2D(m, cv2.CV_32F, taps, taps), gray, 1e-4),
    ("Scharr dy", lambda m: cv2.Scharr(m, cv2.CV_16S, 0, 1), gray, 0),
    ("boxFilter 9x9", lambda m: cv2.boxFilter(m, cv2.CV_32F, (9, 9)), gray, 1e-4),
    ("remap", lambda m: cv2.remap(m, map_x, map_y, cv2.INTER_LINEAR), image, 0),
    ("resize nearest", lambda m: cv2.resize(m, (1280, 720), interpolation=cv2.INTER_NEAREST),
     image, 0),
    ("cvtColor BGR2YUV", lambda m: cv2.cvtColor(m, cv2.COLOR_BGR2YUV), image, 1),
    ("cvtColor BGR2BGRA", lambda m: cv2.cvtColor(m, cv2.COLOR_BGR2BGRA), image, 0),
    ("CLAHE", lambda m: clahe.apply(m), gray, 1),
    ("inRange", lambda m: cv2.inRange(m, (20, 40, 60), (200, 220, 240)), image, 0),
    ("bitwise_xor", lambda m: cv2.bitwise_xor(m, cv2.flip(m, 1)), image, 0),
    ("compare", lambda m: cv2.compare(m, cv2.transpose(cv2.transpose(m)), cv2.CMP_GE), gray, 0),
    ("LUT", lambda m: cv2.LUT(m, same_kind(m, lut)), image, 0),
    ("split channel", lambda m: cv2.split(m)[1], image, 0),
    ("sqrt", lambda m: cv2.sqrt(m), floats, 1e-6),
    ("pow 2.5", lambda m: cv2.pow(m, 2.5), floats, 1e-5),
    ("cartToPolar magnitude", lambda m: cv2.cartToPolar(m, transposed(m))[0], floats, 1e-5),
    ("reduce rows", lambda m: cv2.reduce(m, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32F), floats, 1e-5),
    ("goodFeaturesToTrack", lambda m: np.sort(np.asarray(host(cv2.goodFeaturesToTrack(
        m, 100, 0.01, 10))).reshape(-1, 2), axis=0), gray, 1),
]
REDUCTIONS = [
    ("sumElems", lambda m: cv2.sumElems(m), image),
    ("mean", lambda m: cv2.mean(m), image),
    ("minMaxLoc", lambda m: cv2.minMaxLoc(m)[:2], gray),
    ("countNonZero", lambda m: cv2.countNonZero(m), gray),
]


def host(value):
    if isinstance(value, cv2.UMat):
        return value.get()
    if isinstance(value, tuple):
        return tuple(host(v) for v in value)
    return value


def best_of(operation, argument, reps):
    best, result = float("inf"), None
    for _ in range(reps):
        start = time.perf_counter()
        result = host(operation(argument))
        best = min(best, time.perf_counter() - start)
    return result, best


def main():
    reps = int(os.environ.get("REPS", "8"))
    only = os.environ.get("OPS", "")
    failures = 0
    for name, operation, argument, tolerance in OPERATIONS:
        if only not in name:
            continue
        want = np.asarray(host(operation(argument)), dtype=np.float64)
        try:
            got, seconds = best_of(operation, cv2.UMat(argument), reps)
        except cv2.error as error:
            print(f"{name:22s} FAIL {str(error).splitlines()[0][:60]}")
            failures += 1
            continue
        got = np.asarray(got, dtype=np.float64)
        if got.shape != want.shape:
            print(f"{name:22s} FAIL shape {got.shape}, not {want.shape}")
            failures += 1
            continue
        difference = np.abs(got - want)
        if tolerance is None:
            share = np.count_nonzero(difference) / difference.size
            ok, what = share < 1e-4, f"{share:.4%} differ"
        else:
            bound = tolerance * max(1.0, np.abs(want).max()) if tolerance < 1 else tolerance
            ok, what = difference.max() <= bound, f"max difference {difference.max():.3g}"
        failures += not ok
        print(f"{name:22s} {'ok  ' if ok else 'FAIL'} {what:26s} {seconds * 1e3:8.2f} ms")
    for name, operation, argument in REDUCTIONS:
        if only not in name:
            continue
        want = np.asarray(operation(argument), dtype=np.float64)
        got, seconds = best_of(operation, cv2.UMat(argument), reps)
        ok = np.allclose(np.asarray(got, dtype=np.float64), want, rtol=1e-6)
        failures += not ok
        print(f"{name:22s} {'ok  ' if ok else 'FAIL'} {str(got)[:26]:26s} {seconds * 1e3:8.2f} ms")
    print(f"failures: {failures}")
    return failures


if __name__ == "__main__":
    sys.exit(main())
