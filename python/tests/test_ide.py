"""weir.ide: IDE problems loaded, built and generated from Python, solved with
the reference solver, and their values as arrays."""
import gc
import os
import re
import subprocess

import numpy as np
import pytest

import weir

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
EXAMPLES = os.path.join(ROOT, "examples")
# The CLI next to the package in the build tree (build/python/weir -> build/weir).
CLI = os.environ.get("WEIR_CLI") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(weir.__file__)))), "weir")

# docs/ide-format.md, "A first example": what `weir ide examples/lcp.ide` prints.
LCP_RESULT = """weir-ide-result 1
path-edges 14
holds 14
0 0 bot
1 0 bot
1 1 5
2 0 bot
2 1 5
2 2 10
3 0 bot
3 1 5
3 2 10
3 3 6
4 0 bot
4 3 5
5 0 bot
5 3 5
"""


def cli():
    if not os.access(CLI, os.X_OK):
        pytest.skip(f"no weir CLI at {CLI} (set WEIR_CLI)")
    return CLI


# ---- the documented examples ---------------------------------------------------

def test_lcp_gives_the_documented_values():
    p = weir.ide.load(os.path.join(EXAMPLES, "lcp.ide"))
    assert (p.family, p.states, p.facts, p.procs, p.nodes, p.seeds) == ("linear", (), 4, 2, 6, 1)
    assert (p.calls, p.edges) == (1, 3)
    r = p.solve()
    assert r.text() == LCP_RESULT and r.path_edges == 14 and len(r) == 14
    assert r.nodes.dtype == np.uint32 and r.facts.dtype == np.uint32
    assert r.values.dtype == np.int64 and r.kinds.dtype == np.uint32
    d = r.to_dict()
    assert d[(1, 1)] == 5 and d[(2, 2)] == 10 and d[(3, 3)] == 6 and d[(0, 0)] == "bot"
    # the kinds say which constants mean something
    const = r.kinds == weir.ide.CONST
    assert (r.kinds[~const] == weir.ide.BOT).all() and (r.values[~const] == 0).all()
    assert sorted(set(r.values[const].tolist())) == [5, 6, 10]
    assert list(zip(r.nodes.tolist(), r.facts.tolist())) == [(n, d) for n, d, _ in r]
    assert [r.format(i) for i in range(3)] == ["bot", "bot", "5"]
    assert r.stats["path_edges"] == 14 and r.stats["jump_updates"] >= 14


def test_files_gives_the_documented_states():
    p = weir.ide.load(os.path.join(EXAMPLES, "files.ide"))
    assert p.family == "typestate" and p.states == ("init", "opened", "closed", "error")
    r = p.solve()
    d = r.to_dict()
    assert d[(4, 1)] == {"error"}  # "the last line of main says `4 1 {error}`"
    assert d[(1, 1)] == {"opened"} and d[(5, 2)] == {"opened", "closed"}
    assert r.values.dtype == np.uint32 and (r.kinds == weir.ide.STATES).all()
    i = list(zip(r.nodes.tolist(), r.facts.tolist())).index((6, 2))
    assert r.values[i] == (1 << 2) | (1 << 3) and r.format(i) == "{closed|error}"
    assert p.format_value({"closed", "opened"}) == "{opened|closed}"
    assert p.format_value(set()) == "{}" and p.format_value("opened|error") == "{opened|error}"


@pytest.mark.parametrize("name", ["lcp.ide", "files.ide"])
def test_results_match_the_cli(name):
    path = os.path.join(EXAMPLES, name)
    out = subprocess.run([cli(), "ide", path], capture_output=True, text=True, check=True).stdout
    assert weir.ide.load(path).solve().text() == out


def test_write_round_trips(tmp_path):
    for name in ("lcp.ide", "files.ide"):
        p = weir.ide.load(os.path.join(EXAMPLES, name))
        text = p.write()
        assert str(p) == text and text.startswith("weir-ide 1\n") and text.endswith("\n")
        assert weir.ide.loads(text) == p and weir.ide.loads(text).write() == text
        p.write(tmp_path / "again.ide")
        q = weir.ide.load(str(tmp_path / "again.ide"))
        assert q == p and q.solve().text() == p.solve().text()
    lin = weir.ide.load(os.path.join(EXAMPLES, "lcp.ide"))
    assert lin.format_value(-17) == "-17" and lin.format_value("top") == "top"


# ---- the builder ---------------------------------------------------------------

def build_lcp():
    b = weir.ide.Builder("linear", facts=4, procs=2, nodes=6)
    b.proc(0, 0, 3, "main")
    b.proc(1, 4, 5, "f")
    b.edge(0, 1, b.flow(pairs=[(0, 1)]), {(0, 1): 5})                       # x = 5
    b.call(1, 2, b.flow(kills=[2]))                                          # y = f(x)
    b.callee(1, 1, b.flow(identity=False, pairs=[(1, 3)]),
             b.flow(identity=False, pairs=[(3, 2)]), return_fns={(3, 2): (2, 0)})
    b.edge(2, 3, b.flow(pairs=[(1, 3)]), {(1, 3): (1, 1)})                   # z = x + 1
    b.edge(4, 5, b.flow())
    b.seed(0, 0, "bot")
    return b.build()


def build_files():
    b = weir.ide.Builder("typestate", facts=3, procs=2, nodes=7,
                         states=["init", "opened", "closed", "error"])
    b.proc(0, 0, 4, "main")
    b.proc(1, 5, 6, "close")
    b.edge(0, 1, b.flow(pairs=[(0, 1)]), {(0, 1): {"*": "opened"}})        # f = fopen(...)
    for site in (1, 3):                                                      # close(f) twice
        b.call(site, site + 1, b.flow(kills=[1]))
        b.callee(site, 1, b.flow(identity=False, pairs=[(1, 2)]),
                 b.flow(identity=False, pairs=[(2, 1)]))
    b.edge(2, 3, b.flow())
    b.edge(5, 6, b.flow(), {(2, 2): {"opened": "closed", "closed": "error"}})  # fclose(h)
    b.seed(0, 0, {"init"})
    return b.build()


@pytest.mark.parametrize("name,build", [("lcp.ide", build_lcp), ("files.ide", build_files)])
def test_built_problem_equals_the_loaded_text(name, build):
    loaded = weir.ide.load(os.path.join(EXAMPLES, name))
    built = build()
    assert built.source == "builder"
    assert built == loaded and str(built) == str(loaded)
    assert built.solve().text() == loaded.solve().text()
    assert built.states == loaded.states


def test_builder_functions_and_values_in_every_spelling():
    b = weir.ide.Builder("linear", facts=3, procs=1, nodes=6)
    b.proc(0, 0, 5, "main")
    b.edge(0, 1, b.flow(pairs=[(0, 1), (0, 2)]), {(0, 1): 7, (0, 2): "bot"})
    b.edge(1, 2, b.flow(), {(1, 1): (3, -1), (2, 2): "top"})
    b.edge(2, 3, b.flow(), {(1, 1): "id"})          # the identity: dropped, as documented
    b.edge(3, 4, b.flow())
    b.pair_fn("edge", 3, 4, 1, 1, (-1, 0))
    b.edge(4, 5, b.flow(), {(1, 1): (2**62, 2**63 - 1)})
    b.seed(0, 0, 0)
    p = b.build()
    assert "1>1=3*x-1" in str(p) and "2>2=top" in str(p) and "0>2=bot" in str(p)
    assert "1>1=-1*x+0" in str(p) and "id 1>1=id" not in str(p)
    d = p.solve().to_dict()
    assert d[(1, 1)] == 7 and d[(2, 1)] == 20 and d[(4, 1)] == -20
    assert d[(5, 1)] == (-20 * 2**62 + 2**63 - 1 + 2**63) % 2**64 - 2**63  # wraps
    assert d[(1, 2)] == "bot" and d[(2, 2)] == "top"
    assert weir.ide.loads(str(p)) == p

    t = weir.ide.Builder("typestate", facts=2, procs=1, nodes=4, states=3)
    assert t.states == ("s0", "s1", "s2")
    t.state(2, "done")
    t.proc(0, 0, 3, "main")
    t.edge(0, 1, t.flow(pairs=[(0, 1)]), {(0, 1): {"*": {}}})
    t.edge(1, 2, t.flow(), {(1, 1): {0: "s1|done", "s1": 2}})
    t.edge(2, 3, t.flow(), {(1, 1): "top"})
    t.seed(0, 0, "{s0}")
    t.seed(0, 1, [0, "s1"])
    q = t.build()
    assert q.states == ("s0", "s1", "done")
    d = q.solve().to_dict()
    assert d[(1, 1)] == {"s0", "s1"} and d[(2, 1)] == {"s1", "done"} and d[(3, 1)] == set()


def test_builder_errors_carry_the_c_message():
    b = weir.ide.Builder("linear", facts=2, procs=1, nodes=3)
    b.proc(0, 0, 2, "main")
    b.edge(0, 1, b.flow())
    b.pair_fn("edge", 0, 2, 1, 1, 5)        # no edge 0 -> 2: refused by build
    b.seed(0, 0, 0)
    with pytest.raises(weir.InvalidArgument,
                       match=r"builder: edge function 0 \(edge 0 2, pair 1>1\): edge function on "
                             r"an element the problem does not have .*Fix:"):
        b.build()
    with pytest.raises(weir.InvalidArgument, match="built already"):
        b.seed(0, 0, 1)
    b = weir.ide.Builder("linear", facts=2, procs=1, nodes=3)
    with pytest.raises(weir.InvalidArgument, match="Fix:"):
        b.seed(0, 5, 1)                      # fact out of range (the C builder's message)
    with pytest.raises(weir.InvalidArgument, match="not a linear edge function") as e:
        b.pair_fn("edge", 0, 1, 0, 0, "x+1")
    assert e.value.fix == "pass one of those."
    with pytest.raises(weir.InvalidArgument, match="unknown site"):
        b.pair_fn("nowhere", 0, 1, 0, 0, 1)
    with pytest.raises(weir.InvalidArgument, match="out of range.*Fix:"):
        b.pair_fn("edge", 0, 1, 0, 0, 2**63)
    with pytest.raises(weir.InvalidArgument, match="not a linear value"):
        b.seed(0, 0, {"s0"})
    with pytest.raises(weir.InvalidArgument, match="unknown IDE family"):
        weir.ide.Builder("lcp", 1, 1, 2)
    with pytest.raises(weir.InvalidArgument, match="without states"):
        weir.ide.Builder("typestate", 1, 1, 2)
    with pytest.raises(weir.InvalidArgument, match="Fix:"):
        weir.ide.Builder("typestate", 1, 1, 2, states=33)  # the C builder: 1..32
    t = weir.ide.Builder("typestate", 2, 1, 2, states=["a", "b"])
    with pytest.raises(weir.InvalidArgument, match='unknown state "c"'):
        t.seed(0, 0, {"c"})
    with pytest.raises(weir.InvalidArgument, match="not a state set"):
        t.seed(0, 0, "top")
    with pytest.raises(weir.InvalidArgument, match="state 2 out of range"):
        t.pair_fn("edge", 0, 1, 0, 0, {2: "a"})
    with pytest.raises(weir.InvalidArgument, match="Fix:"):
        t.state(1, "a")                     # a repeated name: the C builder's message
    with pytest.raises(weir.InvalidArgument, match="Fix:"):
        t.state(0, "top")
    with pytest.raises(OverflowError, match="out of range"):
        t.seed(0, -1, {"a"})


# ---- errors from the loader ------------------------------------------------------

def c_string(tokens, macros):
    """The bytes of a C string concatenation (literals and macro names)."""
    out = b""
    for lit, name in re.findall(r'"((?:[^"\\]|\\.)*)"|([A-Z_][A-Z_0-9]*)', tokens):
        if name:
            out += macros[name]
            continue
        out += re.sub(rb"\\(x[0-9A-Fa-f]{2}|.)",
                      lambda m: (bytes([int(m.group(1)[1:], 16)]) if m.group(1)[:1] == b"x"
                                 else {b"n": b"\n", b"t": b"\t", b"r": b"\r", b"0": b"\0",
                                       b"\\": b"\\", b'"': b'"'}[m.group(1)]),
                      lit.encode())
    return out


def error_cases():
    src = open(os.path.join(ROOT, "tests", "ide", "cases.inc")).read()
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    macros = {}
    for name, body in re.findall(r"^#define (\w+) (.*)$", src, flags=re.M):
        macros[name] = c_string(body, macros)
    cases = []
    for rule, body in re.findall(r"^CASE\((\w+),(.*?)\)\s*$", src, flags=re.M | re.S):
        parts = re.findall(r'"(?:[^"\\]|\\.)*"|[A-Z_][A-Z_0-9]*|,', body)
        comma = len(parts) - 1 - parts[::-1].index(",")  # the message is the last argument
        cases.append((rule, c_string(" ".join(parts[:comma]), macros),
                      c_string(" ".join(parts[comma + 1:]), macros).decode()))
    return cases


CASES = error_cases()


def test_every_documented_error_case_is_read():
    assert len(CASES) == open(os.path.join(ROOT, "tests", "ide", "cases.inc")).read().count("\nCASE(")


@pytest.mark.parametrize("rule,text,message", CASES, ids=[c[0] for c in CASES])
def test_bad_text_raises_with_the_message(rule, text, message):
    try:
        s = text.decode("utf-8")
    except UnicodeDecodeError:
        pytest.skip("not UTF-8: loads takes a str")
    with pytest.raises(weir.ParseError) as e:
        weir.ide.loads(s, "bad.ide")
    assert message in str(e.value)
    assert e.value.fix and message.endswith(e.value.fix)


def test_load_errors():
    with pytest.raises(weir.IOFailure):
        weir.ide.load("/nonexistent.ide")
    with pytest.raises(weir.ParseError, match=r"taint.ifds:\d+:\d+: error: an IFDS problem, not an IDE"):
        weir.ide.load(os.path.join(EXAMPLES, "taint.ifds"))
    with pytest.raises(weir.ParseError, match="an IDE problem, not an IFDS problem"):
        weir.ifds.load(os.path.join(EXAMPLES, "lcp.ide"))
    text = open(os.path.join(EXAMPLES, "lcp.ide")).read()
    with pytest.raises(weir.ParseError, match=r"mine.ide:\d+:\d+: error: .*Fix:"):
        weir.ide.loads(text.replace("seed 0 0 bot", "seed 0 0"), "mine.ide")
    p = weir.ide.loads(text)
    with pytest.raises(weir.InvalidArgument, match="unknown IDE solver.*Fix:"):
        p.solve("magic")
    with pytest.raises(TypeError):
        weir.ide.Problem("not a problem")


# ---- generated problems: the holds are IFDS's ----------------------------------------

GEN = [("chain", "linear", dict(procs=4)), ("recursive", "linear", dict(procs=5, seed=3)),
       ("realistic", "linear", dict(procs=12, seed=7)), ("loops", "typestate", dict(procs=4)),
       ("fanout", "typestate", dict(procs=5, states=7, seed=9)),
       ("wide-facts", "linear", dict(procs=2, facts=40))]


@pytest.mark.parametrize("preset,family,kw", GEN, ids=[g[0] for g in GEN])
def test_engine_gives_the_reference_result(preset, family, kw):
    """The resident engine (weir_ide_solve_engine) on cpu: the same text."""
    p = weir.ide.generate(preset, family, **kw)
    want = p.solve().text()
    for r in (p.solve("engine", backend="cpu"), weir.ide.solve(p, backend="cpu")):
        assert r.text() == want
        assert r.stats["rules"] >= r.stats["path_edges"] > 0 and r.stats["windows"] >= 1


@pytest.mark.parametrize("preset,family,kw", GEN, ids=[g[0] for g in GEN])
def test_generated_holds_are_the_ifds_holds(preset, family, kw, tmp_path):
    p = weir.ide.generate(preset, family, **kw)
    assert p.family == family and p.annotated > 0
    r = p.solve()
    # the same bytes as the CLI, and weir.ifds on the same graph
    args = [cli(), "gen", preset]
    for k in ("procs", "facts", "seed"):
        if k in kw:
            args += [f"--{k}", str(kw[k])]
    ifds_text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    ide_args = args + ["--ide", family] + (["--states", str(kw["states"])] if "states" in kw else [])
    ide_text = subprocess.run(ide_args, capture_output=True, text=True, check=True).stdout
    assert ide_text.split("\n", 1)[1] == str(p)  # after the comment line with the options
    q = weir.ifds.loads(ifds_text)
    for solver in ("reference", "engine"):
        holds = weir.ifds.solve(q, solver=solver, backend=None if solver == "reference" else "cpu")
        assert np.array_equal(np.asarray(holds.nodes), r.nodes)
        assert np.array_equal(np.asarray(holds.facts), r.facts)
    if family == "typestate":
        assert len(p.states) == kw.get("states", 4) and (r.kinds == weir.ide.STATES).all()
        assert (r.values < (1 << len(p.states))).all()
    else:
        assert set(np.unique(r.kinds).tolist()) <= {weir.ide.TOP, weir.ide.CONST, weir.ide.BOT}


def test_generate_refuses_bad_options():
    with pytest.raises(weir.InvalidArgument, match="Fix:"):
        weir.ide.generate("nosuch")
    with pytest.raises(weir.InvalidArgument, match="unknown IDE family"):
        weir.ide.generate("chain", "lcp")
    with pytest.raises(weir.InvalidArgument):
        weir.ide.generate("chain", "typestate", states=40)


# ---- who owns the arrays -------------------------------------------------------------

def test_arrays_are_read_only_and_outlive_the_result():
    p = weir.ide.generate("realistic", "linear", procs=20, seed=5)
    r = p.solve()
    nodes, facts, kinds, values = r.nodes, r.facts, r.kinds, r.values
    expect = [a.copy() for a in (nodes, facts, kinds, values)]
    for a in (nodes, facts, kinds, values):
        assert not a.flags.writeable
        with pytest.raises(ValueError):
            a[0] = 1
    # values and kinds are views of the solver's weir_ide_value array (no copy)
    assert values.strides == (16,) and kinds.strides == (16,)
    assert values.ctypes.data - kinds.ctypes.data == 8
    del r, p
    gc.collect()
    # reuse the freed heap: solving again allocates the same sizes
    for _ in range(3):
        weir.ide.generate("realistic", "linear", procs=20, seed=6).solve()
    gc.collect()
    for a, e in zip((nodes, facts, kinds, values), expect):
        assert np.array_equal(a, e)


def test_the_solvers_memory_goes_with_the_last_array():
    path = os.path.join(EXAMPLES, "files.ide")
    host = weir.ide.load(path).solve().values.base.obj.backend  # numpy -> memoryview -> weir.Array
    gc.collect()
    before = host.stats()["live_buffers"]
    r = weir.ide.load(path).solve()
    during = host.stats()["live_buffers"]
    values = r.values
    del r
    gc.collect()
    assert host.stats()["live_buffers"] == before + 1  # the value block, held by `values`
    assert values.tolist()[8] == 1 << 3
    del values
    gc.collect()
    assert host.stats()["live_buffers"] == before and during == before + 3  # nodes, facts, values


def test_no_seeds_no_holds():
    b = weir.ide.Builder("linear", 1, 1, 2)
    b.proc(0, 0, 1, "main")
    b.edge(0, 1, b.flow())
    r = b.build().solve()
    assert len(r) == 0 and list(r) == [] and r.path_edges == 0
    assert r.values.dtype == np.int64 and r.nodes.shape == (0,) and r.kinds.shape == (0,)
    assert r.text() == "weir-ide-result 1\npath-edges 0\nholds 0\n"
