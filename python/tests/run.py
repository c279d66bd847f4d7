"""CTest's entry for the Python suite: runs pytest on this folder, or exits
77 (CTest: skipped) saying what is missing. torch is optional (its tests
skip themselves)."""
import sys

missing = []
for name, package in (("pytest", "python3-pytest"), ("numpy", "python3-numpy")):
    try:
        __import__(name)
    except ImportError:
        missing.append(f"{name} (Debian {package})")
if missing:
    print(f"SKIP python tests: {sys.executable} lacks {', '.join(missing)}. "
          "Fix: install them, or configure with -DPython3_EXECUTABLE=<a python that has them>.")
    sys.exit(77)

import pytest  # noqa: E402

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-rs", sys.argv[1]]))
