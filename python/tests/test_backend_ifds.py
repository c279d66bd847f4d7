"""The dispatch interface (Backend.run) and IFDS from Python."""
import os
import struct

import numpy as np
import pytest

import weir

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


def test_devices_and_backend_info():
    devices = weir.devices()
    specs = [d["spec"] for d in devices if d["available"]]
    assert "cpu:0" in specs and "cpu:7" in specs
    with weir.Backend("cpu:1") as b:
        assert b.id == "cpu" and b.spec == "cpu:1" and b.info["dlpack_device"] == (1, 1)
        assert b.stats()["live_buffers"] == 0
    assert b.closed
    with pytest.raises(weir.InvalidArgument, match="Fix:"):
        weir.Backend("nosuch")


@pytest.mark.parametrize("spec", ["cpu", "vulkan"])
def test_run_a_sequence(spec):
    try:
        b = weir.Backend(spec)
    except weir.Unavailable as e:
        pytest.skip(str(e))
    a = weir.empty(1000, "uint32", device=b)
    before = b.stats()["host_syncs"]
    b.run([("fill_u32", [a], struct.pack("II", 5, 1000), None),
           ("add_u32", [a], struct.pack("II", 3, 1000), None)], repeat=2)
    assert b.stats()["host_syncs"] - before == 1  # one sequence, one synchronization
    assert (np.asarray(weir.asarray(a, device="cpu")) == 8).all()
    with pytest.raises(weir.InvalidArgument, match="no program"):
        b.run([("nope", [a], None, None)])
    with pytest.raises(weir.ForeignResource):
        b.run([("fill_u32", [weir.zeros(4, "uint32", device="cpu:3")], bytes(8), None)])


def test_ifds_load_and_both_solvers():
    p = weir.ifds.load(os.path.join(EXAMPLES, "taint.ifds"))
    assert (p.facts, p.procs, p.nodes) == (8, 2, 9)
    ref = weir.ifds.solve(p, solver="reference")
    eng = weir.ifds.solve(p, backend="cpu")
    assert list(ref) == list(eng) and (2, 2) in list(ref) and (4, 4) not in list(ref)
    assert ref.path_edges == eng.path_edges
    nodes = np.asarray(eng.nodes)
    assert nodes.dtype == np.uint32 and len(nodes) == len(eng)
    assert weir.ifds.loads(p.text()).text() == p.text()


def test_ifds_solve_across_devices():
    p = weir.ifds.load(os.path.join(EXAMPLES, "taint.ifds"))
    ref = weir.ifds.solve(p, solver="reference")
    with weir.Backend("cpu:2") as b:
        multi = weir.ifds.solve(p, backend=["cpu:0", "cpu:1", b])  # specs and Backends mixed
    assert list(multi) == list(ref) and multi.path_edges == ref.path_edges
    assert multi.stats["devices"] == 3 and multi.stats["rounds"] >= 1
    assert list(weir.ifds.solve(p, backend="cpu:0,cpu:1")) == list(ref)  # as in weir solve
    with pytest.raises(weir.InvalidArgument, match="Fix:"):
        weir.ifds.solve(p, backend=[])
    with pytest.raises(weir.InvalidArgument, match="reference solver runs on the host"):
        weir.ifds.solve(p, solver="reference", backend=["cpu:0", "cpu:1"])
    with pytest.raises(weir.InvalidArgument, match=r"backend\[0\] and backend\[1\] open the same"):
        weir.ifds.solve(p, backend=["cpu:0", "cpu:0"])
    with pytest.raises(weir.InvalidArgument, match="open the same device"):
        weir.ifds.solve(p, backend=["cpu", "cpu:0"])
    with pytest.raises(TypeError, match="is None"):
        weir.ifds.solve(p, backend=["cpu:0", None])
    with pytest.raises(weir.InvalidArgument, match="reference solver runs on the host"):
        weir.ifds.solve(p, solver="reference", backend="cpu:0,cpu:1")


def test_ifds_errors_carry_the_location():
    with pytest.raises(weir.ParseError, match=r"mine.ifds:2:.*Fix:"):
        weir.ifds.loads("weir-ifds 1\nfacts x\n", "mine.ifds")
    with pytest.raises(weir.IOFailure):
        weir.ifds.load("/nonexistent.ifds")
    with pytest.raises(weir.InvalidArgument, match="unknown solver"):
        weir.ifds.solve(weir.ifds.load(os.path.join(EXAMPLES, "taint.ifds")), solver="x")


def test_ifds_builder_matches_the_loader():
    b = weir.ifds.Builder(3, 1, 3)
    b.proc(0, 0, 2, "main")
    gen = b.flow(identity=True, pairs=[(0, 1)])
    kill = b.flow(identity=True, kills=[1], pairs=[(0, 2)])
    b.edge(0, 1, gen)
    b.edge(1, 2, kill)
    b.seed(0, 0)
    with pytest.raises(weir.InvalidArgument):
        b.edge(0, 7, gen)  # refused element; the builder goes on
    p = b.build()
    with pytest.raises(weir.InvalidArgument, match="built already"):
        b.seed(0, 0)
    assert p.source == "builder"
    holds = list(weir.ifds.solve(p, solver="reference"))
    assert (1, 1) in holds and (2, 2) in holds and (2, 1) not in holds
    assert list(weir.ifds.solve(weir.ifds.loads(p.text()))) == holds


def test_ifds_builder_refuses_out_of_range_ints():
    # "I" parsing wrapped silently: -1 became 4294967295 and 2**32 + 1 became 1.
    with pytest.raises(OverflowError, match="out of range"):
        weir.ifds.Builder(-1, 1, 2)
    with pytest.raises(OverflowError, match="out of range"):
        weir.ifds.Builder(2**32 + 3, 1, 2)
    b = weir.ifds.Builder(3, 1, 3)
    b.proc(0, 0, 2, "main")
    with pytest.raises(OverflowError, match="out of range"):
        b.seed(0, 2**32 + 1)
    with pytest.raises(OverflowError, match="out of range"):
        b.flow(kills=[2**32 + 1])
    with pytest.raises(TypeError, match="a pair is a tuple"):
        b.flow(pairs="ab")  # was a SystemError


def test_ifds_builder_errors_speak_the_api():
    # A Python caller never wrote a `proc 1 NAME FIRST LAST` line: the Fix:
    # names the call to make (issue 23).
    b = weir.ifds.Builder(3, 2, 6)
    b.proc(0, 0, 2, "main")
    with pytest.raises(weir.InvalidArgument) as e:
        b.seed(0, 0)
    fix = str(e.value).split("Fix: ", 1)[1]
    assert "weir_ifds_builder_proc(b, 1, FIRST, LAST, NAME)" in fix
    assert "`" not in fix and " line" not in fix
    with pytest.raises(weir.InvalidArgument, match="below the count given to weir_ifds_builder_create"):
        b.proc(2, 3, 5, "f")
    with pytest.raises(weir.InvalidArgument, match="pass identity 1 to weir_ifds_builder_flow"):
        b.flow(identity=False, kills=[1])
