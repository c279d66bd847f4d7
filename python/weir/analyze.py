"""weir.analyze: the LLVM frontend's analyses (taint, uninit, uaf, or an
analysis plugin) on LLVM IR modules, findings as Python objects.

The frontend links LLVM and lives in its own program, weir-analyze (the C
extension does not load LLVM), so this runs that program and reads the
SARIF 2.1.0 it writes with `json`: the findings, their locations and code
flows come from that structured file, never from the text printed on
stdout. See docs/analysis-api.md and frontends/llvm/README.md.
"""
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from urllib.parse import unquote, urlparse

__all__ = ["analyze", "Finding", "Location", "AnalyzeError"]


class AnalyzeError(Exception):
    """weir analyze failed: `returncode` 2 is bad input (a module that is not
    LLVM 14 IR, an unknown analysis, a plugin that is refused), 1 anything
    else; the message is weir's, ending with its Fix."""

    def __init__(self, message, returncode):
        super().__init__(message)
        self.returncode = returncode


@dataclass(frozen=True)
class Location:
    file: str       # relative to source_root when inside it, else absolute
    line: int       # 0 when there is no debug info
    column: int
    message: str = ""


@dataclass(frozen=True)
class Finding:
    rule: str       # "weir-taint-command-injection", a plugin's rule id
    level: str      # "error", "warning", "note"
    file: str
    line: int
    column: int
    message: str
    code_flow: tuple  # Locations from the source to the sink (empty when no source was found)
    sources: tuple    # names of the sources that reach it ("getenv", ...)
    confidence: int   # 0..100


def _helper():
    """The command that runs the frontend: $WEIR_ANALYZE, the build tree's
    weir-analyze (build/weir-analyze, the package being build/python/weir),
    an installation's PREFIX/libexec/weir/weir-analyze above the package, or
    `weir analyze` from PATH."""
    if os.environ.get("WEIR_ANALYZE"):
        return [os.environ["WEIR_ANALYZE"]]
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.normpath(os.path.join(here, "..", "..", "weir-analyze"))
    if os.access(built, os.X_OK):
        return [built]
    up = here
    for _ in range(5):
        up = os.path.dirname(up)
        installed = os.path.join(up, "libexec", "weir", "weir-analyze")
        if os.access(installed, os.X_OK):
            return [installed]
    weir = shutil.which("weir")
    if weir:
        return [weir, "analyze"]
    raise AnalyzeError("weir.analyze: no weir-analyze next to the package and no weir on PATH. Fix: set "
                       "WEIR_ANALYZE to the weir-analyze program, or put the installed weir on PATH", 1)


def _location(loc, root, message=""):
    physical = loc.get("physicalLocation", {})
    artifact = physical.get("artifactLocation", {})
    uri = unquote(artifact.get("uri", ""))
    if artifact.get("uriBaseId") != "%SRCROOT%" and uri.startswith("file://"):
        uri = urlparse(uri).path
    region = physical.get("region", {})
    return Location(uri, region.get("startLine", 0), region.get("startColumn", 0), message)


def _finding(result, root):
    where = _location(result["locations"][0], root)
    flow = ()
    if result.get("codeFlows"):
        steps = result["codeFlows"][0]["threadFlows"][0]["locations"]
        flow = tuple(_location(s["location"], root, s["location"].get("message", {}).get("text", ""))
                     for s in steps)
    sources = tuple(r["message"]["text"][len("source: "):] for r in result.get("relatedLocations", []))
    return Finding(result["ruleId"], result.get("level", "warning"), where.file, where.line, where.column,
                   result["message"]["text"], flow, sources, result.get("properties", {}).get("confidence", 0))


def _check_name(what, value, expected):
    """A ValueError for an argument weir analyze would misread: not a string,
    empty, or one that starts with '-' (an option)."""
    if not isinstance(value, str) or not value or value.startswith("-"):
        raise ValueError("weir.analyze: %s=%r is not a name weir analyze takes. Fix: pass %s" %
                         (what, value, expected))


def _read_results(sarif, stderr):
    """The results of the SARIF weir wrote; AnalyzeError when it is missing
    or not SARIF (never a decoding error: invalid bytes become U+FFFD)."""
    try:
        with open(sarif, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
        return json.loads(text)["runs"][0]["results"]
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        raise AnalyzeError("weir.analyze: cannot read the SARIF weir analyze wrote (%s: %s)%s. Fix: report "
                           "it with the command's output" % (type(e).__name__, e, ": " + stderr if stderr else ""),
                           1) from e


def analyze(module_paths, analysis="taint", backend="cpu", *, config=None, source_root=None):
    """Runs `analysis` on the modules (.ll or .bc from clang-14 -emit-llvm;
    several are linked into one program) and returns its findings, a list
    of Finding, in source order.

    analysis: "taint", "uninit", "uaf", "plugin:/path/libmine.so", or the id
    of a plugin on WEIR_ANALYSIS_PATH. backend: the engine's backend ("cpu",
    "vulkan", "cuda", "auto", ...) or "reference" for the serial reference
    solver. config: a --config library table. Suppressed findings (`weir:
    ignore` comments) are left out. Raises ValueError for an analysis or
    backend that is not a name (None, "", "--help"), AnalyzeError when weir
    analyze fails (its message and exit code)."""
    _check_name("analysis", analysis, '"taint", "uninit", "uaf", "plugin:/path/libmine.so" or a plugin id')
    _check_name("backend", backend, '"cpu", "auto", "vulkan", "cuda", ... or "reference"')
    if isinstance(module_paths, (str, bytes, os.PathLike)):
        module_paths = [module_paths]
    paths = [os.fsdecode(p) for p in module_paths]
    if not paths:
        raise AnalyzeError("weir.analyze: no module given. Fix: pass the .bc or .ll files to analyse", 2)
    root = os.path.abspath(source_root or os.getcwd())
    with tempfile.TemporaryDirectory(prefix="weir-analyze-") as tmp:
        sarif = os.path.join(tmp, "findings.sarif")
        # Values as --opt=VALUE and the modules after "--": a module named
        # "-x.bc" is a module, never an option of weir analyze.
        cmd = _helper() + ["--analysis=" + analysis, "--sarif=" + sarif, "--quiet", "--source-root=" + root]
        cmd += ["--solver=reference"] if backend == "reference" else ["--backend=" + backend]
        if config is not None:
            cmd += ["--config=" + os.path.abspath(os.fsdecode(config))]
        cmd += ["--", *paths]
        # Bytes, decoded with replacement: a message may quote a file name or
        # a plugin's text that is not UTF-8, and must never become a
        # UnicodeDecodeError instead of weir's own error.
        run = subprocess.run(cmd, capture_output=True)
        stderr = run.stderr.decode("utf-8", errors="replace").strip()
        if run.returncode not in (0, 3):
            raise AnalyzeError(stderr or "weir analyze exited %d" % run.returncode, run.returncode)
        results = _read_results(sarif, stderr)
    return [_finding(r, root) for r in results if not r.get("suppressions")]
