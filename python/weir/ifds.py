"""weir.ifds: IFDS problems and solvers (include/weir/ifds.h).

    p = weir.ifds.load("examples/taint.ifds")       # or loads(text), or Builder
    r = weir.ifds.solve(p)                          # resident engine on "auto"
    r = weir.ifds.solve(p, solver="reference")      # the serial oracle
    list(r)                                         # [(node, fact), ...] sorted

r.nodes and r.facts are uint32 weir.Arrays on the host (numpy.asarray shares
them); errors are weir.Error subclasses carrying weir's message.
"""
from ._weir import IfdsBuilder as Builder, IfdsProblem as Problem  # noqa: F401
from ._weir import _ifds_load, _ifds_loads, _ifds_solve


class Result:
    """The (node, fact) pairs that hold, sorted, and the solver's figures."""

    def __init__(self, nodes, facts, path_edges, stats):
        self.nodes, self.facts = nodes, facts
        self.path_edges, self.stats = path_edges, stats

    def __len__(self):
        return self.nodes.shape[0]

    def __iter__(self):
        # memoryview: no numpy needed to walk the holds
        return zip(memoryview(self.nodes).tolist(), memoryview(self.facts).tolist())

    def __repr__(self):
        return f"<weir.ifds.Result {len(self)} holds, {self.path_edges} path edges>"


def load(path, *, strict=False):
    """Loads and validates a .ifds file (docs/ifds-format.md)."""
    return _ifds_load(path, strict=strict)


def loads(text, name="<string>", *, strict=False):
    """The same from a str; `name` stands for the file name in messages."""
    return _ifds_loads(text, name, strict=strict)


def solve(problem, solver="engine", backend=None):
    """solver "engine" (resident fixed point on `backend`, default "auto": a
    spec string or weir.Backend; a list of them is one solve across those
    devices, docs/distributed.md) or "reference" (serial oracle; no backend)."""
    return Result(*_ifds_solve(problem, solver, backend=backend))
