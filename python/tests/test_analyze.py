"""weir.analyze: the LLVM frontend's analyses from Python (findings read
from its SARIF), built-in and plugin, and its errors."""
import json
import os
import shutil
import subprocess

import pytest

import weir

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
BUILT = os.path.dirname(os.path.dirname(os.path.abspath(weir.__file__)))  # build/python
HELPER = os.path.join(os.path.dirname(BUILT), "weir-analyze")
TEMPLATE = os.path.join(os.path.dirname(BUILT), "analyses", "libsecret-log.so")


@pytest.fixture(scope="module")
def compile_c(tmp_path_factory):
    clang = shutil.which("clang-14")
    if not clang or not os.access(HELPER, os.X_OK):
        pytest.skip("needs clang-14 and the LLVM frontend (weir-analyze) in the build tree")
    work = tmp_path_factory.mktemp("analyze")

    def compile_one(source, level=0):
        out = work / (os.path.basename(source) + ".O%d.bc" % level)
        subprocess.run([clang, "-g", "-O%d" % level, "-w", "-emit-llvm", "-c", source, "-o", str(out)], check=True)
        return out
    return compile_one


def test_taint_finding_with_code_flow(compile_c):
    bc = compile_c(os.path.join(SOURCE, "tests", "llvm", "programs", "taint_direct.c"))
    found = weir.analyze([bc], analysis="taint", backend="cpu", source_root=SOURCE)
    assert len(found) == 1
    f = found[0]
    assert isinstance(f, weir.Finding)
    assert (f.rule, f.file, f.line) == ("weir-taint-command-injection", "tests/llvm/programs/taint_direct.c", 6)
    assert f.level == "error" and f.column > 0 and "system" in f.message
    assert f.sources == ("getenv",)
    assert f.code_flow[0].message == "tainted by 'getenv'" and f.code_flow[0].line == 5
    assert f.code_flow[-1].line == 6
    # The reference solver gives the same findings as the engine.
    assert weir.analyze(bc, analysis="taint", backend="reference", source_root=SOURCE) == found


def test_plugin_analysis(compile_c):
    if not os.path.exists(TEMPLATE):
        pytest.skip("the template plugin was not built (frontends/llvm/api/template)")
    program = os.path.join(SOURCE, "tests", "analysis_api", "programs", "secret_basic.c")
    for level in (0, 2):
        found = weir.analyze(compile_c(program, level), analysis="plugin:" + TEMPLATE)
        assert [(f.rule, f.line) for f in found] == [("secret-to-output", 10), ("secret-to-output", 20),
                                                     ("secret-to-output", 22)]
        assert found[0].sources == ("getpass",) and found[2].sources == ("getenv",)
        assert found[0].code_flow[0].message == "secret from 'getpass'"


def test_errors_say_what_to_fix(compile_c, tmp_path):
    bc = compile_c(os.path.join(SOURCE, "tests", "llvm", "programs", "taint_direct.c"))
    with pytest.raises(weir.AnalyzeError) as e:
        weir.analyze(bc, analysis="tiant")
    assert e.value.returncode == 2 and "unknown analysis 'tiant'" in str(e.value) and "Fix:" in str(e.value)
    junk = tmp_path / "junk.ll"
    junk.write_text("this is not LLVM IR\n")
    with pytest.raises(weir.AnalyzeError) as e:
        weir.analyze(junk)
    assert e.value.returncode == 2 and "Fix:" in str(e.value)
    with pytest.raises(weir.AnalyzeError):
        weir.analyze([])


def test_bad_utf8_never_raises_unicode_errors(compile_c, tmp_path, monkeypatch):
    # weir's message quotes a plugin path that is not UTF-8: AnalyzeError, the byte replaced.
    bc = compile_c(os.path.join(SOURCE, "tests", "llvm", "programs", "taint_direct.c"))
    with pytest.raises(weir.AnalyzeError) as e:
        weir.analyze(bc, analysis="plugin:" + os.fsdecode(b"/nonexistent/lib\xff.so"))
    assert e.value.returncode == 2 and "does not exist" in str(e.value) and "\ufffd" in str(e.value)
    # A SARIF file with a byte that is not UTF-8 (an older weir wrote them): read with U+FFFD.
    fake = tmp_path / "fake-analyze"
    fake.write_text("#!%s\nimport sys\nargs = sys.argv[1:]\n"
                    "out = next(a[len('--sarif='):] for a in args if a.startswith('--sarif='))\n"
                    "open(out, 'wb').write(open(%r, 'rb').read())\n" % (shutil.which("python3"), str(tmp_path / "in.sarif")))
    fake.chmod(0o755)
    result = {"ruleId": "r", "message": {"text": "bad \xff"}, "locations": [{"physicalLocation": {
        "artifactLocation": {"uri": "a.c"}, "region": {"startLine": 3}}}]}
    text = json.dumps({"runs": [{"results": [result]}]}, ensure_ascii=False)
    (tmp_path / "in.sarif").write_bytes(text.replace("\xff", "@@").encode().replace(b"@@", b"\xff"))
    monkeypatch.setenv("WEIR_ANALYZE", str(fake))
    [f] = weir.analyze(bc)
    assert f.message == "bad \ufffd" and f.line == 3
    (tmp_path / "in.sarif").write_bytes(b"not json \xff")
    with pytest.raises(weir.AnalyzeError) as e:
        weir.analyze(bc)
    assert "cannot read the SARIF" in str(e.value) and "Fix:" in str(e.value)


def test_arguments_that_look_like_options(compile_c, tmp_path, monkeypatch):
    bc = compile_c(os.path.join(SOURCE, "tests", "llvm", "programs", "taint_direct.c"))
    for bad in (None, "", "--help", "-x", 3):
        with pytest.raises(ValueError) as e:
            weir.analyze(bc, analysis=bad)
        assert "Fix:" in str(e.value)
    with pytest.raises(ValueError):
        weir.analyze(bc, backend="--help")
    # A module whose name starts with '-' is a module (after "--"), not an option.
    monkeypatch.chdir(tmp_path)
    shutil.copy(bc, tmp_path / "-x.bc")
    assert weir.analyze("-x.bc", analysis="taint") == weir.analyze(bc, analysis="taint")
    with pytest.raises(weir.AnalyzeError) as e:
        weir.analyze("--help.bc", analysis="taint")
    assert e.value.returncode == 2 and "'--help.bc'" in str(e.value)
