"""The stubs of the native module against the core: every keyword option the
core's configurations read (named in the core's own refusal of an unknown
option) is spelled out with a type in `_neardup.pyi`, and no other.
`mypy.stubtest` (run by `npm test`) checks the rest of the stubs against the
built module."""

import ast
import re
from pathlib import Path

import pytest

import neardup

STUB = Path(neardup.__file__).with_name("_neardup.pyi")


def stub_keywords(qualname):
    """The keyword-only options of a function (or a class's ``__new__``) in the stub, bar dictionary/reference."""
    tree = ast.parse(STUB.read_text())
    owner, _, name = qualname.rpartition(".")
    scope = tree.body
    if owner:
        scope = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == owner).body
    fn = next(n for n in scope if isinstance(n, ast.FunctionDef) and n.name == name)
    assert fn.args.kwarg is None, f"{qualname} still takes **options in the stub"
    kw = [a.arg for a in fn.args.kwonlyargs]
    return set(kw) - {"dictionary", "reference", "template", "exclude_a", "exclude_b"}


def core_options(call):
    """The option names the core reads, from its refusal of an unknown one."""
    with pytest.raises(TypeError) as e:
        call()
    return set(re.findall(r"`(\w+)`", str(e.value).split("expected one of", 1)[1]))


CASES = {
    "dedup": lambda: neardup.dedup(["a b c"], nope=1),
    "dedup_batch": lambda: neardup.dedup_batch(["a b c"], nope=1),
    "Stages.__new__": lambda: neardup.Stages(nope=1),
    "Deduplicator.__new__": lambda: neardup.Deduplicator(nope=1),
    "compare": lambda: neardup.compare("a b c", "a b c", nope=1),
    "class_pairs": lambda: neardup.class_pairs(["a b c", "d e f"], nope=1),
    "ClassLibrary.__new__": lambda: neardup.ClassLibrary(nope=1),
}


@pytest.mark.parametrize("qualname", list(CASES))
def test_every_option_of_the_core_is_spelled_out_in_the_stub(qualname):
    want = core_options(CASES[qualname])
    assert len(want) >= 10
    assert stub_keywords(qualname) == want
