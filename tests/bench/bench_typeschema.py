"""Type hints → JSON Schema and coercion: the hand-written code against pydantic and msgspec.

    uv run --group bench python tests/bench/bench_typeschema.py [--rounds 3000] [--imports 9]

Issue 19 asks whether a well-kept library should replace ``_typeschema`` / ``_signature``. This
measures the three side by side, in one run, on:

1. correctness, on the test corpus (``tests/python/test_signature.py``: its ``TYPES``, the
   types it refuses, its coercion cases) and on 300 generated types of the same grammar as its
   property test (scalars, enums, literals, lists, dicts, optionals, tuples, a dataclass, a
   TypedDict, an attrs class): does the library build a schema, is it the same, does it pass
   tooldrop's load-time check (``schema_problem``) and keep strict export where ours has it,
   does it accept and refuse the same values, does coercion give the same Python values, and
   which messages the model sees for bad arguments (``validate_args`` on each schema);
2. import time, each in a fresh process: ``import tooldrop`` against what importing and first
   using each library adds to it (the hand-written modules' own share from ``-X importtime``);
3. cost: one coercion per call, a whole call's arguments, ``validate_args`` on each schema,
   and the one-time build of a function's schema (new types each round: nothing cached).

Not collected by pytest. msgspec is in the ``bench`` dependency group only.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
import types
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, Optional

import attrs
import jsonschema

from tooldrop import CancelToken, Origin, Tool, ToolSpec, to_spec, validate_args, why_not_strict
from tooldrop.pytools._signature import coerce, function_schema
from tooldrop.pytools._typeschema import type_schema
from tooldrop.schemas._schemacheck import schema_problem

try:
    import pydantic
except ImportError:  # pragma: no cover - pydantic comes with mcp
    pydantic = None  # type: ignore[assignment]
try:
    import msgspec
except ImportError:
    msgspec = None  # type: ignore[assignment]

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "python" / "test_signature.py"
MISSING = object()


def load_corpus() -> Any:
    """The type hints tests/python/test_signature.py asserts on (imported by path)."""
    spec = importlib.util.spec_from_file_location("corpus_test_signature", CORPUS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


T = load_corpus()
REFUSED = [
    case[0]
    for mark in T.test_types_without_a_json_schema_say_which_and_where.pytestmark
    if mark.name == "parametrize"
    for case in mark.args[1]
]
COERCIONS = [
    case for mark in T.test_coerce.pytestmark if mark.name == "parametrize" for case in mark.args[1]
]


# -- the three implementations ----------------------------------------------------------


class Impl:
    """One way to derive a schema and coerce a value; ``None`` fields: not installed."""

    def __init__(self, name: str, schema: Callable[[Any], Any], convert: Callable[..., Any]):
        self.name, self.schema, self.convert = name, schema, convert


def _pydantic_adapter(tp: Any, cache: dict[Any, Any] = {}) -> Any:  # noqa: B006 - a cache
    key = repr(tp), id(tp)
    if key not in cache:
        cache[key] = pydantic.TypeAdapter(tp)
    return cache[key]


IMPLS = [Impl("ours", type_schema, coerce)]
if pydantic is not None:
    IMPLS.append(
        Impl(
            "pydantic",
            lambda tp: _pydantic_adapter(tp).json_schema(),
            lambda value, tp: _pydantic_adapter(tp).validate_python(value),
        )
    )
if msgspec is not None:
    IMPLS.append(
        Impl("msgspec", lambda tp: msgspec.json.schema(tp), lambda v, tp: msgspec.convert(v, tp))
    )


def attempt(fn: Callable[[], Any]) -> tuple[bool, Any]:
    try:
        return True, fn()
    except Exception as exc:  # noqa: BLE001 - a failure is a result here
        return False, f"{type(exc).__name__}: {str(exc).splitlines()[0][:100]}"


def as_parameter(schema: dict[str, Any]) -> dict[str, Any]:
    """A type's schema as a tool's only parameter, ``$defs`` hoisted to the root."""
    inner = dict(schema)
    defs = inner.pop("$defs", None)
    root: dict[str, Any] = {
        "type": "object",
        "properties": {"value": inner},
        "required": ["value"],
        "additionalProperties": False,
    }
    if defs:
        root["$defs"] = defs
    return root


def same_value(a: Any, b: Any) -> bool:
    """Equal, and of the same Python types all the way down (``1.0`` is not ``1``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if dataclasses.is_dataclass(a) or attrs.has(type(a)):
        fields = dataclasses.asdict(a) if dataclasses.is_dataclass(a) else attrs.asdict(a)  # type: ignore[arg-type]
        other = dataclasses.asdict(b) if dataclasses.is_dataclass(b) else attrs.asdict(b)  # type: ignore[arg-type]
        return same_value(fields, other)
    return bool(a == b)


# -- generated types and values (the grammar of test_signature's property test) ---------

LEAVES: list[Any] = [str, int, float, bool, T.Color, Literal["x", "y"], T.Point, T.Options, T.Box]


def random_type(rng: random.Random, depth: int = 0) -> Any:
    if depth >= 3 or rng.random() < 0.35:
        return rng.choice(LEAVES)
    kind = rng.randrange(4)
    inner = random_type(rng, depth + 1)
    if kind == 0:
        return list[inner]  # type: ignore[valid-type]
    if kind == 1:
        return dict[str, inner]  # type: ignore[valid-type]
    if kind == 2:
        return Optional[inner]  # noqa: UP045 - the spelling users write
    return tuple[inner, random_type(rng, depth + 1)]  # type: ignore[misc]


def random_value(rng: random.Random, tp: Any) -> Any:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is str:
        return rng.choice(["", "a", "héllo", "12"])
    if tp is int:
        return rng.randint(-5, 10**12)
    if tp is float:
        return rng.choice([0.5, -2.25, 3, 10**20])
    if tp is bool:
        return rng.random() < 0.5
    if tp is T.Color:
        return rng.choice(["red", "green"])
    if origin is Literal:
        return rng.choice(args)
    if tp is T.Point:
        value: dict[str, Any] = {"x": random_value(rng, float)}
        if rng.random() < 0.5:
            value["label"] = ["a"]
        return value
    if tp is T.Options:
        return {"depth": rng.randint(0, 3), **({"tags": ["t"]} if rng.random() < 0.5 else {})}
    if tp is T.Box:
        return {"width": rng.randint(0, 3), **({"secret": "s2"} if rng.random() < 0.5 else {})}
    if origin is list:
        return [random_value(rng, args[0]) for _ in range(rng.randrange(3))]
    if origin is dict:
        return {f"k{i}": random_value(rng, args[1]) for i in range(rng.randrange(3))}
    if origin is tuple:
        return [random_value(rng, a) for a in args]
    if origin is typing.Union and len(args) == 2 and args[1] is type(None):
        return None if rng.random() < 0.3 else random_value(rng, args[0])
    raise LookupError(tp)  # a corpus type the generator does not draw values of


def with_extra_key(value: Any) -> Any:
    """``value`` with an unknown key in every object (what a model invents)."""
    if isinstance(value, dict):
        return {**{k: with_extra_key(v) for k, v in value.items()}, "zz": 1}
    if isinstance(value, list):
        return [with_extra_key(v) for v in value]
    return value


# -- 1. correctness ---------------------------------------------------------------------


def correctness(count: int) -> None:
    rng = random.Random(19)
    generated = [random_type(rng) for _ in range(count)]
    corpus = [("corpus TYPES", [tp for tp, _ in T.TYPES]), (f"{count} generated", generated)]
    print(
        "\n1. correctness: schemas (tooldrop's check = schema_problem on the type as a parameter)"
    )
    print(
        "   values: drawn of the type, of other types, and with an unknown key in each object;\n"
        "   looser = the library's schema accepts what ours refuses, stricter = the reverse"
    )
    head = ("types", "impl", "built", "same", "passes check", "strict kept", "values agree")
    print(
        "{:>14} {:>9} {:>7} {:>6} {:>13} {:>12} {:>13} {:>7} {:>9}".format(
            *head, "looser", "stricter"
        )
    )
    for label, hints in corpus:
        for impl in IMPLS:
            built = same = checked = strict_kept = strict_ours = agree = tried = 0
            looser = stricter = 0
            for tp in hints:
                ok_ours, ours = attempt(lambda tp=tp: type_schema(tp))
                ok, schema = attempt(lambda tp=tp, impl=impl: impl.schema(tp))
                if not ok:
                    continue
                built += 1
                same += schema == ours
                wrapped = as_parameter(schema)
                checked += schema_problem(wrapped) is None
                if ok_ours and not why_not_strict(as_parameter(ours)):
                    strict_ours += 1
                    strict_kept += not why_not_strict(wrapped)
                for _ in range(5):  # values of this type and of other types: same verdicts?
                    drawn = attempt(lambda tp=tp: random_value(rng, tp))
                    others = (random_value(rng, random_type(rng)),)
                    if drawn[0]:
                        others += (with_extra_key(drawn[1]),)
                    for value in (drawn[1], *others) if drawn[0] else others:
                        tried += 1
                        theirs = jsonschema.Draft202012Validator(schema).is_valid(value)
                        mine = jsonschema.Draft202012Validator(ours).is_valid(value)
                        agree += theirs == mine
                        looser += theirs and not mine
                        stricter += mine and not theirs
            print(
                f"{label:>14} {impl.name:>9} {built:>3}/{len(hints):<3} {same:>6} "
                f"{checked:>13} {strict_kept:>6}/{strict_ours:<5} {agree:>6}/{tried:<6}"
                f" {looser:>7} {stricter:>9}"
            )
    print("\n   what each says of the types the corpus refuses (ours: a SchemaError naming where)")
    for tp in REFUSED:
        verdicts = []
        for impl in IMPLS[1:]:
            ok, schema = attempt(lambda tp=tp, impl=impl: impl.schema(tp))
            verdicts.append(
                f"{impl.name}: " + (f"ACCEPTS {json.dumps(schema)}" if ok else "refuses")
            )
        print(f"   {T.__name__ and repr(tp)[:40]:<42} " + "; ".join(verdicts))
    differences(generated)
    coercions(generated, rng)


def differences(generated: list[Any]) -> None:
    print("\n   where the corpus TYPES' schemas differ (ours → library)")
    for tp, ours in T.TYPES:
        for impl in IMPLS[1:]:
            ok, schema = attempt(lambda tp=tp, impl=impl: impl.schema(tp))
            if not ok:
                print(f"   {impl.name:>8} {tp!r:.45}: FAILS {schema}")
            elif schema != ours:
                print(f"   {impl.name:>8} {tp!r:.45}: {json.dumps(schema)[:150]}")


def coercions(generated: list[Any], rng: random.Random) -> None:
    print("\n   coercion of schema-valid values (same Python value and types as ours)")
    for impl in IMPLS[1:]:
        same = fails = differs = 0
        notes: dict[str, int] = {}
        cases = [(v, tp) for v, tp, _ in COERCIONS]
        cases += [(random_value(rng, tp), tp) for tp in generated for _ in range(3)]
        for value, tp in cases:
            want = coerce(value, tp)
            ok, got = attempt(lambda v=value, tp=tp, impl=impl: impl.convert(v, tp))
            if not ok:
                fails += 1
                notes[got[:70]] = notes.get(got[:70], 0) + 1
            elif same_value(got, want):
                same += 1
            else:
                differs += 1
                notes[f"{want!r:.30} became {got!r:.30}"] = 1
        print(f"   {impl.name:>8}: {same} same, {differs} different, {fails} fail of {len(cases)}")
        for note, times in sorted(notes.items(), key=lambda kv: -kv[1])[:4]:
            print(f"            {times:>4} x {note}")


# -- the messages the model sees ---------------------------------------------------------


def sample(
    city: str,
    days: int = 3,
    unit: Literal["c", "f"] = "c",
    color: T.Color = T.Color.RED,  # type: ignore[name-defined]
    size: T.Point | None = None,  # type: ignore[name-defined]
    pair: tuple[int, int] | None = None,
    tags: set[str] | None = None,
    cancel: CancelToken | None = None,
) -> str:
    """A tool with the parameter kinds tools use (no Path: msgspec has no schema for it)."""
    return city


BAD_ARGS: list[dict[str, Any]] = [
    {"city": 3},
    {"city": "a", "days": "3"},
    {"city": "a", "unit": "k"},
    {"city": "a", "color": "blue"},
    {"city": "a", "size": {"x": "s"}},
    {"city": "a", "size": {"y": 1}},
    {"city": "a", "size": {"x": 1, "z": 2}},
    {"city": "a", "pair": [1]},
    {"city": "a", "tags": ["x", "x"]},
    {"city": "a", "size": None, "pair": None},
]


@contextmanager
def schemas_from(impl: Impl) -> Iterator[dict[str, Any]]:
    """``function_schema`` with ``impl`` deriving each parameter's type schema (the function
    level — required, defaults, docstring, cancel — stays ours: no library does it)."""
    import tooldrop.pytools._signature as signature

    defs: dict[str, Any] = {}

    def derive(tp: Any, where: str = "value") -> dict[str, Any]:
        schema = dict(impl.schema(tp))
        defs.update(schema.pop("$defs", {}))
        return schema

    saved = signature.type_schema
    signature.type_schema = derive if impl.name != "ours" else saved  # type: ignore[assignment]
    try:
        yield defs
    finally:
        signature.type_schema = saved


def function_spec(impl: Impl, fn: Callable[..., Any]) -> ToolSpec | str:
    with schemas_from(impl) as defs:
        ok, derived = attempt(lambda: function_schema(fn))
    if not ok:
        return derived  # type: ignore[no-any-return]
    schema = {**derived.schema, **({"$defs": defs} if defs else {})}
    made = attempt(lambda: Tool.from_function(fn, name="sample", input_schema=schema))
    if not made[0]:
        return f"refused at load time: {made[1]}"
    return to_spec(made[1], origin=Origin(source="bench", scope="plugin"))


def messages() -> None:
    print("\n   messages the model sees for bad arguments (validate_args on each derived schema)")
    specs = {impl.name: function_spec(impl, sample) for impl in IMPLS}
    for name, spec in specs.items():
        if isinstance(spec, str):
            print(f"   {name}: {spec}")
    for args in BAD_ARGS:
        print(f"   {json.dumps(args)}")
        for name, spec in specs.items():
            if not isinstance(spec, str):
                said = validate_args(spec, args) or ["(accepted: the call goes on to coercion)"]
                if said[0].startswith("(accepted") and name != "ours":
                    ok, why = attempt(lambda s=spec, a=args: s.payload(a, CancelToken()))
                    said = [said[0] + ("" if ok else f" → {why}")]
                print(f"      {name:>8}: {' | '.join(said)[:150]}")


# -- 2. import time ----------------------------------------------------------------------

IMPORT_PROBE = """
import time, json
t0 = time.perf_counter()
import tooldrop
t1 = time.perf_counter()
{imports}
t2 = time.perf_counter()
{use}
t3 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1, t3 - t2]))
"""
#: What each library costs to import, and to use once (pydantic imports much on first use).
LIBRARIES = {
    "pydantic": (
        "from pydantic import TypeAdapter",
        "a = TypeAdapter(list[int]); a.json_schema(); a.validate_python([1])",
    ),
    "msgspec": (
        "import msgspec",
        "msgspec.json.schema(list[int]); msgspec.convert([1], list[int])",
    ),
}
OURS = ("_tool", "_signature", "_typeschema", "_docstring", "_toolcheck")


def python(*argv: str) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter that reads and writes bytecode caches, as an installed tooldrop
    does (some shells export PYTHONDONTWRITEBYTECODE=1, and uv installs without .pyc files:
    without this, every run would compile the libraries from source)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, check=True, env=env
    )


def import_times(rounds: int) -> None:
    print(f"\n2. import time, fresh process each (best of {rounds}; bytecode cached)")
    available = [name for name in LIBRARIES if importlib.util.find_spec(name) is not None]
    probes = {name: IMPORT_PROBE.format(imports=i, use=u) for name, (i, u) in LIBRARIES.items()}
    for name in available:
        python("-c", probes[name])  # writes the bytecode caches
    base: list[float] = []
    added: dict[str, list[tuple[float, float]]] = {name: [] for name in available}
    own = []
    for _ in range(rounds):
        for name in available:
            first, imported, used = json.loads(python("-c", probes[name]).stdout)
            base.append(first)
            added[name].append((imported, used))
        total = 0
        for line in python("-X", "importtime", "-c", "import tooldrop").stderr.splitlines():
            parts = line.split("|")
            if len(parts) == 3 and parts[2].strip() in {f"tooldrop.pytools.{m}" for m in OURS}:
                total += int(parts[0].split(":")[1])  # self time, microseconds
        own.append(total / 1e6)
    floor = min(base)
    print(f"   {'import tooldrop (all of it)':<48}{floor * 1e3:7.1f} ms   1.00x")
    label = "of which the hand-written modules (self time)"
    print(f"   {label:<48}{min(own) * 1e3:7.1f} ms   {min(own) / floor:.2f}x")
    for name in available:
        imported = min(i for i, _ in added[name])
        used = min(u for _, u in added[name])
        print(f"   {'+ import ' + name:<48}{imported * 1e3:7.1f} ms   {imported / floor:.2f}x")
        label = "  + its first schema and coercion"
        print(f"   {label:<48}{used * 1e3:7.1f} ms   {used / floor:.2f}x")


# -- 3. cost -----------------------------------------------------------------------------


def row(label: str, took: float, base: float) -> None:
    print(f"      {label:<46}{took * 1e6:8.2f}    {took / base:.2f}x")


def per_call(fn: Callable[[], object], rounds: int) -> float:
    samples = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(rounds):
            fn()
        samples.append((time.perf_counter() - start) / rounds)
    return statistics.median(samples)


def coercion_cost(rounds: int) -> None:
    print(f"\n3. cost per call (median of 7 x {rounds}, microseconds; ratio to ours)")
    names = [impl.name for impl in IMPLS]
    print("   {:<44}".format("coerce(value, type)") + "".join(f"{n:>16}" for n in names))
    for value, tp, _ in COERCIONS[::2]:
        cells = []
        ours = 0.0
        for impl in IMPLS:
            ok, _ = attempt(lambda v=value, tp=tp, impl=impl: impl.convert(v, tp))
            if not ok:
                cells.append(f"{'n/a':>16}")
                continue
            took = per_call(lambda v=value, tp=tp, impl=impl: impl.convert(v, tp), rounds)
            ours = ours or took
            cells.append(f"{took * 1e6:>8.2f} {took / ours:>5.2f}x ")
        print(f"   {json.dumps(value)[:18]:<18} {tp!r:.24}".ljust(47) + "".join(cells))


def call_cost(rounds: int) -> None:
    args = {"city": "Paris", "days": 2, "color": "green", "size": {"x": 1}, "pair": [1, 2]}
    specs = {impl.name: function_spec(impl, sample) for impl in IMPLS}
    print("   {:<44}".format("a whole call's arguments (sample tool)"))
    ours_payload = specs["ours"].payload  # type: ignore[union-attr]
    token = CancelToken()
    base = per_call(lambda: ours_payload(args, token), rounds)
    print(f"      ours (FunctionCall: coerce what needs it)     {base * 1e6:8.2f}    1.00x")
    if pydantic is not None:

        def plain(**kw: Any) -> None:
            return None

        params = {
            n: (h, ...)
            for n, h in typing.get_type_hints(sample).items()
            if n not in ("return", "cancel")
        }
        model = pydantic.create_model("Args", **{n: (h, None) for n, (h, _) in params.items()})  # type: ignore[call-overload]
        took = per_call(lambda: plain(**dict(model.model_validate(args))), rounds)
        row("pydantic (model_validate of the arguments)", took, base)
    if msgspec is not None:
        fields = [
            (n, h, None)
            for n, h in typing.get_type_hints(sample).items()
            if n not in ("return", "cancel", "where")
        ]
        struct = msgspec.defstruct("Args", fields)
        took = per_call(lambda: msgspec.structs.asdict(msgspec.convert(args, struct)), rounds)
        row("msgspec (convert to a Struct)", took, base)
    print("   validate_args on each derived schema (runs on every call, before coercion)")
    assert validate_args(specs["ours"], args) == []  # type: ignore[arg-type]
    base = 0.0
    for name, spec in specs.items():
        if isinstance(spec, str):
            print(f"      {name:<46}      n/a ({spec[:40]})")
            continue
        took = per_call(lambda spec=spec: validate_args(spec, args), rounds)
        base = base or took
        row(name, took, base)


FRESH = '''
import dataclasses, enum
from typing import Literal
class Color(enum.Enum):
    RED = "red"
    GREEN = "green"
@dataclasses.dataclass
class Point:
    """A point.

    Args:
        x: Across.
    """
    x: float
    y: float = 0.0
def fn(city: str, days: int = 3, unit: Literal["c", "f"] = "c", color: Color = Color.RED,
       size: Point | None = None, pair: tuple[int, int] | None = None) -> str:
    """A tool.

    Args:
        city: The city.
    """
    return city
'''


_FRESH = itertools.count()


def fresh() -> dict[str, Any]:
    """New classes and a new function each time: no library cache can answer."""
    module = types.ModuleType(f"bench_fresh_{next(_FRESH)}")
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(FRESH, module.__dict__)  # our own constant source
    return module.__dict__


def build_cost(rounds: int) -> None:
    """Each round makes new types (untimed), then times each implementation's build of them,
    in turn, so the machine's noise falls on all three alike; medians."""
    print(f"\n   one-time schema build of a function (new types each round, median of {rounds})")

    def ours(fn: Callable[..., Any]) -> None:
        function_schema(fn)

    builds: list[tuple[str, Callable[[Callable[..., Any]], None]]] = [
        ("ours (function_schema)", ours)
    ]
    if pydantic is not None:

        def with_pydantic(fn: Callable[..., Any]) -> None:
            pydantic.TypeAdapter(fn).json_schema()

        builds.append(("pydantic (TypeAdapter(fn) + json_schema)", with_pydantic))
    if msgspec is not None:

        def with_msgspec(fn: Callable[..., Any]) -> None:
            hints = typing.get_type_hints(fn)
            fields = [(n, h, None) for n, h in hints.items() if n != "return"]
            struct = msgspec.defstruct("Args", fields)
            msgspec.json.schema(struct)
            msgspec.convert({"city": "x"}, struct)

        builds.append(("msgspec (defstruct + schema + convert)", with_msgspec))
    times: list[list[float]] = [[] for _ in builds]
    for _ in range(rounds):
        for index, (_, build) in enumerate(builds):
            fn = fresh()["fn"]
            start = time.perf_counter()
            build(fn)
            times[index].append(time.perf_counter() - start)
    base = statistics.median(times[0])
    for (label, _), samples in zip(builds, times, strict=True):
        took = statistics.median(samples)
        print(f"      {label:<46}{took * 1e6:8.1f}    {took / base:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3000, help="calls per timing sample")
    parser.add_argument("--imports", type=int, default=9, help="fresh processes per import case")
    parser.add_argument("--generated", type=int, default=300, help="generated types")
    opts = parser.parse_args()
    versions = ", ".join(
        f"{m.__name__} {getattr(m, '__version__', getattr(m, 'VERSION', '?'))}"
        for m in (pydantic, msgspec)
        if m is not None
    )
    print(f"python {sys.version.split()[0]}; {versions or 'no library installed'}")
    if msgspec is None:
        print(
            "(msgspec is not installed: "
            "uv run --group bench python tests/bench/bench_typeschema.py)"
        )
    correctness(opts.generated)
    messages()
    import_times(opts.imports)
    coercion_cost(opts.rounds)
    call_cost(opts.rounds)
    build_cost(opts.rounds)


if __name__ == "__main__":
    main()
