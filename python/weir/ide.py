"""weir.ide: IDE problems and the reference solver (include/weir/ide.h).

    p = weir.ide.load("examples/lcp.ide")        # or loads(text), generate(...), Builder
    r = p.solve()                                # the serial reference solver
    r.nodes, r.facts                             # uint32 arrays: the (node, fact) holds
    r.values                                     # linear: int64 constants; typestate: uint32 bitsets
    r.kinds                                      # uint32: TOP, CONST, BOT (linear), STATES (typestate)
    list(r)                                      # [(node, fact, value), ...]: 5, "top", "bot",
                                                 #   or frozenset({"opened"})
    r.format(i), str(p)                          # a value / the problem as the format spells it

The arrays are numpy arrays (read-only) over the solver's own memory: no copy
is made, and the memory lives as long as any of them does (without numpy
they are host weir.Arrays). Errors are weir.Error subclasses carrying weir's
message ("NAME:LINE:COL: error: ... Fix: ..."). docs/ide-format.md has the
format, docs/python.md the tour.
"""
from ._weir import IdeBuilder as _CBuilder, IdeProblem as _CProblem
from ._weir import _ide_load, _ide_loads, _ide_generate, InvalidArgument

# Kinds of a value (weir_ide_value.kind).
TOP, CONST, BOT, STATES = 0, 1, 2, 3
# Kinds of a linear function (weir_ide_linear_fn.kind).
_LIN_TOP, _LIN_BOT, _LIN_CONST, _LIN_AFFINE = 0, 1, 2, 3
_SITES = {"edge": 0, "call": 1, "callee_call": 2, "callee_return": 3}
_INT64 = (-(2**63), 2**63 - 1)


def _invalid(message):
    """weir.InvalidArgument with .fix set, as the extension's own errors have it."""
    e = InvalidArgument(message)
    e.fix = message.split("Fix: ", 1)[1] if "Fix: " in message else None
    return e


def _readonly(a):
    try:
        import numpy
    except ImportError:  # weir.Arrays then (memoryview(a) reads them)
        return a
    n = numpy.asarray(a)  # shares the weir.Array's memory (buffer protocol)
    n.flags.writeable = False
    return n


class Problem:
    """An IDE problem: load(path), loads(text), generate(...) or Builder(...).build().

    family ("linear" or "typestate"), states (typestate: the state names in
    order), facts, procs, nodes, calls, seeds, edges, functions (interned
    edge functions), annotated (pairs with a function), source."""

    __slots__ = ("_p",)

    def __init__(self, c_problem):
        if not isinstance(c_problem, _CProblem):
            raise TypeError("weir.ide.Problem is made by weir.ide.load, loads, generate or "
                            "Builder.build")
        self._p = c_problem

    family = property(lambda self: self._p.family)
    states = property(lambda self: self._p.states)
    facts = property(lambda self: self._p.facts)
    procs = property(lambda self: self._p.procs)
    nodes = property(lambda self: self._p.nodes)
    calls = property(lambda self: self._p.calls)
    seeds = property(lambda self: self._p.seeds)
    edges = property(lambda self: self._p.edges)
    functions = property(lambda self: self._p.functions)
    annotated = property(lambda self: self._p.annotated)
    source = property(lambda self: self._p.source)

    def solve(self, solver="reference", backend=None):
        """solver "reference" (the serial solver, weir_ide_solve_reference; no
        backend) or "engine" (the resident engine, weir_ide_solve_engine, on
        `backend`: a spec string or weir.Backend, default "auto"; one device).
        A backend alone means the engine. Both give the same result."""
        if backend is not None and solver == "reference":
            solver = "engine"
        if solver not in ("reference", "engine"):
            raise _invalid(f'unknown IDE solver "{solver}" (expected "reference" or "engine"). '
                           'Fix: solver="reference" or solver="engine".')
        device = (backend if backend is not None else "auto") if solver == "engine" else None
        nodes, facts, kinds, states, constants, path_edges, stats = self._p._solve(device)
        return Result(self, nodes, facts, kinds,
                      constants if self.family == "linear" else states, path_edges, stats)

    def write(self, file=None):
        """The canonical text (weir_ide_write_problem); also written to `file`
        (a path or a text file object) when given."""
        text = self._p.text()
        if file is not None:
            if hasattr(file, "write"):
                file.write(text)
            else:
                with open(file, "w") as f:
                    f.write(text)
        return text

    text = write

    def __str__(self):
        return self._p.text()

    def __eq__(self, other):
        if not isinstance(other, Problem):
            return NotImplemented
        return self is other or self._p.text() == other._p.text()

    __hash__ = None

    def format_value(self, value):
        """A value (5, "top", "bot", a set of states by name or number) as the
        format spells it: "5", "top", "{opened|closed}"."""
        kind, states, constant = _value(self.family, _state_ids(self.states), value)
        return self._p.format_value(kind, states, constant)

    def __repr__(self):
        extra = f" {len(self.states)} states" if self.family == "typestate" else ""
        return (f"<weir.ide.Problem {self.family}{extra}, {self.facts} facts, {self.procs} procs,"
                f" {self.nodes} nodes, {self.seeds} seeds>")


class Result:
    """The (node, fact) pairs that hold, sorted, with their values.

    nodes, facts: uint32 arrays; kinds: uint32 (TOP, CONST, BOT; STATES for
    typestate); values: int64 constants (linear; 0 where the kind is TOP or
    BOT) or uint32 state sets (typestate, bit s for state s); path_edges and
    stats (the solver's figures); problem."""

    def __init__(self, problem, nodes, facts, kinds, values, path_edges, stats):
        self.problem = problem
        self.nodes, self.facts = _readonly(nodes), _readonly(facts)
        self.kinds, self.values = _readonly(kinds), _readonly(values)
        self.path_edges, self.stats = path_edges, stats
        # for value() and format(): with or without numpy, one element at a time
        self._k, self._v = memoryview(kinds), memoryview(values)

    def __len__(self):
        return len(self._k)

    def value(self, i):
        """Hold i's value: an int, "top" or "bot" (linear); a frozenset of
        state names (typestate)."""
        kind, v = self._k[i], self._v[i]
        if kind == STATES:
            return frozenset(n for s, n in enumerate(self.problem.states) if v >> s & 1)
        return {TOP: "top", BOT: "bot"}.get(kind, v)

    def format(self, i):
        """Hold i's value as `weir ide` prints it: "5", "bot", "{opened}"."""
        kind, v = self._k[i], self._v[i]
        return self.problem._p.format_value(kind, v if kind == STATES else 0,
                                            v if kind == CONST else 0)

    def __iter__(self):
        nodes = memoryview(self.nodes).tolist()
        facts = memoryview(self.facts).tolist()
        return ((n, d, self.value(i)) for i, (n, d) in enumerate(zip(nodes, facts)))

    def to_dict(self):
        """{(node, fact): value}."""
        return {(n, d): v for n, d, v in self}

    def text(self):
        """The result file, as `weir ide` writes it (docs/ide-format.md)."""
        nodes = memoryview(self.nodes).tolist()
        facts = memoryview(self.facts).tolist()
        lines = ["weir-ide-result 1", f"path-edges {self.path_edges}", f"holds {len(nodes)}"]
        lines += [f"{n} {d} {self.format(i)}" for i, (n, d) in enumerate(zip(nodes, facts))]
        return "\n".join(lines) + "\n"

    def __repr__(self):
        return (f"<weir.ide.Result {self.problem.family}, {len(self)} holds, "
                f"{self.path_edges} path edges>")


def load(path, *, strict=False):
    """Loads and validates a .ide file (docs/ide-format.md)."""
    return Problem(_ide_load(path, strict=strict))


def loads(text, name="<string>", *, strict=False):
    """The same from a str; `name` stands for the file name in messages."""
    return Problem(_ide_loads(text, name, strict=strict))


def solve(problem, solver="reference", backend=None):
    """problem.solve(solver, backend)."""
    return problem.solve(solver, backend=backend)


def generate(preset, family="linear", *, states=4, procs=0, nodes_per_proc=0, facts=0,
             seeds=0, seed=1):
    """weir_ide_generate_problem: the problem `weir gen PRESET --ide FAMILY`
    writes (0: the preset's default; seed 1 as the CLI's default)."""
    return Problem(_ide_generate(preset, family, states if family == "typestate" else 0,
                                 procs, nodes_per_proc, facts, seeds, seed))


# ---- values and functions written as Python objects -------------------------

def _state_ids(names):
    return {n: i for i, n in enumerate(names)}, len(names)


def _state(ids, s):
    by_name, count = ids
    if isinstance(s, bool) or not isinstance(s, (int, str)):
        raise _invalid(f"{s!r} is not a state (expected a state name or number). Fix: "
                              f"name one of {sorted(by_name, key=by_name.get)}.")
    if isinstance(s, int):
        if not 0 <= s < count:
            raise _invalid(f"state {s} out of range (expected 0..{count - 1}). Fix: use "
                                  "a state the family declares.")
        return s
    if s not in by_name:
        raise _invalid(f'unknown state "{s}" (expected one of '
                              f"{sorted(by_name, key=by_name.get)}). Fix: declare it with "
                              "states=[...] or Builder.state(id, name) first.")
    return by_name[s]


def _state_set(ids, value):
    """A set of states as a bitset: a name, "a|b" or "{a|b}" ("{}" none), a
    state number, or an iterable of names and numbers."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("{") and text.endswith("}"):
            text = text[1:-1]
        if text in ("top", "bot"):
            raise _invalid(f'"{value}" is not a state set (top and bot are linear values). '
                                  'Fix: write "{}" or set() for the empty set.')
        value = [t for t in text.split("|")] if text else []
    elif isinstance(value, int):
        value = [value]
    try:
        items = list(value)
    except TypeError:
        raise _invalid(f"{value!r} is not a set of states. Fix: pass a name, a number "
                              "or a set of them, e.g. {'opened'}.") from None
    bits = 0
    for s in items:
        bits |= 1 << _state(ids, s)
    return bits


def _int64(v, what):
    if isinstance(v, bool) or not isinstance(v, int):
        raise _invalid(f"{what} {v!r} is not an int. Fix: pass a Python int.")
    if not _INT64[0] <= v <= _INT64[1]:
        raise _invalid(f"{what} {v} is out of range (expected a 64-bit signed integer, "
                              f"{_INT64[0]}..{_INT64[1]}). Fix: reduce it modulo 2**64 into "
                              "that range (weir's arithmetic wraps).")
    return v


def _value(family, ids, value):
    """(kind, states, constant) for a seed value or format_value."""
    if family == "linear":
        if isinstance(value, str) and value in ("top", "bot"):
            return (TOP if value == "top" else BOT), 0, 0
        if isinstance(value, bool) or not isinstance(value, int):
            raise _invalid(f"{value!r} is not a linear value (expected an int, \"top\" "
                                  "or \"bot\"). Fix: pass one of those.")
        return CONST, 0, _int64(value, "the value")
    return STATES, _state_set(ids, value), 0


def _function(family, ids, fn):
    """The C tuple of a function written in Python.

    linear: "id", "top", "bot", an int c (λx.c) or a pair (a, b) (λx.a·x+b);
    typestate: "id", "top", or a mapping {state: states} that replaces the
    identity's rows ("*": every state first, as in the text format)."""
    if family == "linear":
        if isinstance(fn, str):
            table = {"id": (_LIN_AFFINE, 1, 0), "top": (_LIN_TOP, 0, 0), "bot": (_LIN_BOT, 0, 0)}
            if fn in table:
                return table[fn]
        elif isinstance(fn, int) and not isinstance(fn, bool):
            return (_LIN_CONST, 0, _int64(fn, "the constant"))
        elif isinstance(fn, tuple) and len(fn) == 2:
            return (_LIN_AFFINE, _int64(fn[0], "a"), _int64(fn[1], "b"))
        raise _invalid(f"{fn!r} is not a linear edge function (expected \"id\", \"top\", "
                              "\"bot\", an int c for λx.c or a pair (a, b) for λx.a·x+b). "
                              "Fix: pass one of those.")
    count = ids[1]
    identity = [1 << s for s in range(count)]
    if isinstance(fn, str) and fn in ("id", "top"):
        return (0, identity if fn == "id" else [0] * count)
    if not hasattr(fn, "items"):
        raise _invalid(f"{fn!r} is not a typestate edge function (expected \"id\", \"top\" "
                              "or a mapping {state: states}). Fix: pass e.g. "
                              "{'opened': 'closed', 'closed': 'error'}.")
    rows = dict(fn)
    if "*" in rows:
        identity = [_state_set(ids, rows.pop("*"))] * count
    seen = set()
    for s, to in rows.items():
        i = _state(ids, s)
        if i in seen:
            raise _invalid(f"repeated row for state {s!r}. Fix: give each state one row.")
        seen.add(i)
        identity[i] = _state_set(ids, to)
    return (0, identity)


class Builder:
    """An IDE problem built in memory (weir_ide_builder_*).

        b = weir.ide.Builder("linear", facts=3, procs=1, nodes=3)
        b.proc(0, 0, 2, "main")
        b.edge(0, 1, b.flow(pairs=[(0, 1)]), {(0, 1): 5})        # x = 5
        b.edge(1, 2, b.flow(), {(1, 1): (2, 1)})                 # x = 2 * x + 1
        b.seed(0, 0, "bot")
        p = b.build()

    The graph calls are weir.ifds.Builder's (proc, flow, edge, call, callee);
    edge, call and callee also take the functions of their pairs as a
    mapping {(d1, d2): function} (pair_fn puts one on one pair). Functions:
    linear "id", "top", "bot", an int c (λx.c), a pair (a, b) (λx.a·x+b);
    typestate "id", "top" or {state: states} (the identity with these rows
    replaced; "*" for every state). Values: linear an int, "top" or "bot";
    typestate a set of states (names or numbers; "a|b" and "{}" as in the
    text). states: typestate only, the count or the names in order."""

    def __init__(self, family, facts, procs, nodes, states=None):
        if family == "typestate":
            if states is None:
                raise _invalid("a typestate Builder without states. Fix: pass states=N "
                                      "or states=['init', 'opened', ...].")
            names = [None] * states if isinstance(states, int) else list(states)
        elif family == "linear":
            if states:
                raise _invalid("states given to a linear Builder. Fix: drop states= "
                                      "(only family=\"typestate\" has states).")
            names = []
        else:
            names = []  # the C side names the families in its message
        self._b = _CBuilder(family, len(names), facts, procs, nodes)
        self.family = family
        self._names = [f"s{i}" for i in range(len(names))]
        for i, n in enumerate(names):
            if n is not None:
                self.state(i, n)

    @property
    def states(self):
        return tuple(self._names)

    def _ids(self):
        return _state_ids(self._names)

    def state(self, id, name):
        """Names state `id` (typestate)."""
        self._b.state(id, name)
        self._names[id] = name

    def proc(self, id, first, last, name):
        return self._b.proc(id, first, last, name)

    def flow(self, identity=True, kills=(), pairs=()):
        """A flow function (weir_ifds_builder_flow); returns its index."""
        return self._b.flow(identity=identity, kills=kills, pairs=pairs)

    def pair_fn(self, site, a, b, d1, d2, fn):
        """Pair d1>d2 of an element's flow carries `fn`. site: "edge" (edge
        a -> b), "call" (call-to-return flow of call a), "callee_call" or
        "callee_return" (callee b of call a)."""
        if site not in _SITES:
            raise _invalid(f"unknown site {site!r} (expected one of {list(_SITES)}). Fix: "
                                  "pass one of those.")
        self._b.pair_fn(_SITES[site], a, b, d1, d2, _function(self.family, self._ids(), fn))

    def _fns(self, site, a, b, fns):
        for pair, fn in (fns or {}).items():
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise _invalid(f"{pair!r} is not a pair (d1, d2). Fix: key the functions "
                                      "by (d1, d2) tuples.")
            self.pair_fn(site, a, b, pair[0], pair[1], fn)

    def edge(self, from_, to, flow, fns=None):
        self._b.edge(from_, to, flow)
        self._fns("edge", from_, to, fns)

    def call(self, site, ret, flow, fns=None):
        self._b.call(site, ret, flow)
        self._fns("call", site, 0, fns)

    def callee(self, site, proc, call_flow, return_flow, call_fns=None, return_fns=None):
        self._b.callee(site, proc, call_flow, return_flow)
        self._fns("callee_call", site, proc, call_fns)
        self._fns("callee_return", site, proc, return_fns)

    def seed(self, node, fact, value):
        """A seed: fact `fact` has `value` at `node`."""
        self._b.seed(node, fact, _value(self.family, self._ids(), value))

    def build(self):
        """The Problem (the builder is spent afterwards, success or not)."""
        return Problem(self._b.build())
