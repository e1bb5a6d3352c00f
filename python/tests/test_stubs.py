"""The stubs (pixelhit/_pixelhit.pyi) against the module: every default a stub writes is the
one the module's own signature shows, and the defaults that stand for a library constant are
that constant (python/ci.sh runs mypy's stubtest too, which checks names, parameters and kinds)."""

import ast
import inspect
import os

import pixelhit
from pixelhit import _pixelhit

STUB = os.path.join(os.path.dirname(pixelhit.__file__), "_pixelhit.pyi")

# Parameters whose default is a constant the module exports.
CONSTANTS = {"max_step": "DEFAULT_MAX_STEP", "max_tests": "DEFAULT_MAX_TESTS"}


def stub_defaults():
    """(class, method, parameter, default) for every literal default in the stubs."""
    tree = ast.parse(open(STUB, encoding="utf-8").read())
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            args = fn.args
            positional = args.posonlyargs + args.args
            pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
            pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
            for arg, default in pairs:
                yield cls.name, fn.name, arg.arg, ast.literal_eval(default)


def test_every_stub_default_is_the_modules():
    seen = 0
    for cls, method, name, default in stub_defaults():
        runtime = getattr(getattr(_pixelhit, cls), method)
        if method == "__new__":
            runtime = getattr(_pixelhit, cls)
        params = inspect.signature(runtime).parameters
        if name not in params:
            # The deprecated names pass their keywords on (`**options`) to the new ones.
            assert any(p.kind is p.VAR_KEYWORD for p in params.values()), (cls, method, name)
            continue
        param = params[name]
        where = f"{cls}.{method}({name}=...)"
        assert param.default is not Ellipsis, f"{where}: the module's signature hides its default"
        assert param.default == default and type(param.default) is type(default), (
            f"{where}: the stub says {default!r}, the module {param.default!r}"
        )
        if name in CONSTANTS:
            assert default == getattr(pixelhit, CONSTANTS[name]), f"{where} is not {CONSTANTS[name]}"
        seen += 1
    assert seen > 90, seen  # the walk found the stubs' defaults


def test_the_constants_defaults_appear_in_the_stubs():
    names = {name for _, _, name, _ in stub_defaults()}
    assert set(CONSTANTS) <= names
