"""neardup.Error and its kinds, and the GIL released (issue 36): each problem raises the kind a
caller can catch, every kind is a neardup.Error and a ValueError (so
``except ValueError`` keeps working), and wrong Python types stay TypeError.
The expectations are the kinds the issue names, not read from the code."""

import functools
import struct

import pytest

import neardup

ESSAY = " ".join(f"word{i % 97} phrase{i % 89} line{i % 13}" for i in range(400))


def kinds_of(err):
    return [c.__name__ for c in type(err).__mro__ if c.__module__ in ("neardup", "builtins")][:3]


def test_every_kind_is_a_neardup_error_and_a_value_error():
    for kind in (neardup.ConfigError, neardup.InputError, neardup.CorruptError, neardup.VersionError, neardup.LimitError):
        assert issubclass(kind, neardup.Error)
        assert issubclass(kind, ValueError)
    assert issubclass(neardup.Error, ValueError)


def test_a_bad_option_is_a_config_error_naming_it():
    with pytest.raises(neardup.ConfigError, match="threshold"):
        neardup.dedup(["a b c", "a b c"], threshold=2.0)
    with pytest.raises(neardup.ConfigError, match="num_perm"):
        neardup.dedup(["a b c", "a b c"], method="simhash", num_perm=64)
    with pytest.raises(neardup.ConfigError, match="word_k"):
        neardup.compare("a b c", "a b c", word_k=0)
    # Still a ValueError for code written before the kinds.
    with pytest.raises(ValueError):
        neardup.class_pairs(["a b c", "d e f"], stock_share=0.0)


def test_unusable_input_is_an_input_error_naming_where():
    with pytest.raises(neardup.InputError, match="ids\\[1\\]"):
        neardup.dedup(["one text here", "another text here"], ids=["x", "x"])
    with pytest.raises(neardup.InputError):
        neardup.compare("", "some text")
    with pytest.raises(neardup.InputError, match="surrogate"):
        neardup.dedup(["fine text", "bad \udc80 text"])


def test_damaged_and_foreign_bytes_are_corrupt_and_version_errors():
    lib = neardup.ClassLibrary()
    lib.add(["a"], [ESSAY])
    data = lib.to_bytes()
    neardup.ClassLibrary.from_bytes(data)  # sound bytes read
    with pytest.raises(neardup.CorruptError, match="library"):
        neardup.ClassLibrary.from_bytes(data[: len(data) // 2])
    with pytest.raises(neardup.CorruptError):
        neardup.ClassLibrary.from_bytes(b"not a library at all")
    # Format 99 in the header (magic, u16 format, u16 spec version).
    foreign = data[:4] + struct.pack("<H", 99) + data[6:]
    with pytest.raises(neardup.VersionError, match="format version 99"):
        neardup.ClassLibrary.from_bytes(foreign)


def test_a_text_over_max_bytes_is_a_limit_error():
    with pytest.raises(neardup.LimitError):
        neardup.compare(ESSAY, ESSAY, max_bytes=100)


def test_wrong_types_stay_type_errors():
    with pytest.raises(TypeError):
        neardup.dedup([1, 2])
    with pytest.raises(TypeError):
        neardup.compare("a b c", "a b c", word_k="three")


def _native(f):
    """Whether a profiled ``c_call`` is into neardup's extension: a function
    of its module, a method of one of its objects, or a static method of
    one of its classes (which has neither: named by its qualified name)."""
    owner = getattr(f, "__module__", None) or getattr(getattr(f, "__self__", None), "__module__", None)
    if owner:
        return str(owner).startswith("neardup")
    cls = getattr(f, "__qualname__", "").partition(".")[0]
    return isinstance(getattr(neardup, cls, None), type)


def ran_during(call):
    """Whether another thread runs Python while ``call`` is under way, by
    events, not timing: a profile hook on the calling thread marks the
    moment it enters neardup's native code (its ``c_call``); the other
    thread, waiting for that mark, then records whether the call has
    returned. The switch interval is raised to a minute meanwhile, so the
    interpreter never takes the GIL from the calling thread: the other
    thread can run only when the call gives the GIL up itself (released
    around its work) or once it has returned."""
    import sys
    import threading

    entered, returned = threading.Event(), threading.Event()
    seen = {}

    def other():
        entered.wait()
        seen["during"] = not returned.is_set()

    def hook(frame, event, arg):
        if event == "c_call" and not entered.is_set() and _native(arg):
            entered.set()

    t = threading.Thread(target=other)
    t.start()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(60.0)
    try:
        sys.setprofile(hook)
        try:
            call()
        finally:
            sys.setprofile(None)
        returned.set()
    finally:
        entered.set()
        sys.setswitchinterval(interval)
        t.join()
    return seen["during"]


@functools.lru_cache(maxsize=1)
def gil_calls():
    import pyarrow as pa

    long = ESSAY * 2000  # 17.6 MB
    mid = ESSAY * 200
    legacy = long.replace("word", "w\u00e9rd").encode("cp1252")
    texts = [f"{ESSAY[: 2000 + 7 * i]} {i}" for i in range(3000)]
    column = pa.array(texts)
    stages = neardup.Stages()
    sketches = stages.sketch_batch(column)
    library = neardup.ClassLibrary()
    library.add(["source"], [mid])
    return {
        "SimHash.fingerprint": lambda: neardup.SimHash.fingerprint(long),
        "dedup": lambda: neardup.dedup(texts),
        "dedup_batch": lambda: neardup.dedup_batch(column),
        "Stages.sketch_batch": lambda: stages.sketch_batch(column),
        "Stages.keys_batch": lambda: [stages.keys_batch(sketches) for _ in range(20)],
        "compare": lambda: neardup.compare(mid, mid.replace("word1 ", "wordX ")),
        "class_pairs": lambda: neardup.class_pairs(texts[:400]),
        "ClassLibrary.check": lambda: library.check([mid, mid]),
        "shingles": lambda: neardup.shingles(long, "word:3"),
        # Windows-1252 bytes: decoded byte by byte (valid UTF-8 is only checked).
        "decode_text": lambda: neardup.decode_text(legacy),
    }


@pytest.mark.parametrize("name", list(gil_calls()))
def test_work_proportional_to_the_input_releases_the_gil_two_threads_overlap(name):
    """Issue 36: work proportional to the input runs without the GIL: while
    one thread is inside the call, another runs Python (``ran_during``:
    events, no timing; issue 51 item 6)."""
    assert ran_during(gil_calls()[name]), f"{name} held the GIL through its work"


def test_the_overlap_check_tells_a_call_that_holds_the_gil():
    """The check can fail: a neardup call that keeps the GIL (a Hamming
    distance, done at once) lets the other thread run only after it."""
    assert not ran_during(lambda: neardup.SimHash.hamming_distance(1, 2))


def test_the_batch_kernels_and_small_functions_raise_kinds_too():
    import pyarrow as pa

    words = neardup.Stages(shingle="word:2")
    chars = neardup.Stages()
    foreign = words.sketch_batch(pa.array(["one two three four"]))
    # A sketch of another configuration: the input is wrong, named by its row.
    for kernel in (chars.keys_batch, chars.keys_list_batch, chars.digest_batch):
        with pytest.raises(neardup.InputError, match=r"sketches\[0\]"):
            kernel(foreign)
    with pytest.raises(neardup.InputError, match=r"a\[0\]"):
        chars.verify_batch(foreign, foreign)
    # Damaged bytes: corrupt, named by their row.
    with pytest.raises(neardup.CorruptError, match=r"sketches\[0\]"):
        good = chars.sketch_batch(pa.array(["one two three four"])).cast(pa.binary())[0].as_py()
        chars.keys_batch(pa.array([good[:-5]]))
    with pytest.raises(neardup.VersionError, match=r"sketches\[0\]"):
        chars.keys_batch(pa.array([good[:4] + b"\x00\x00" + good[6:]]))
    with pytest.raises(neardup.CorruptError, match=r"pieces\[1\]"):
        neardup.merge_frequencies([neardup.Stages(method="simhash", weights="tfidf").count(["a b c"]), b"junk"])
    # Columns that do not pair, an argument out of range.
    with pytest.raises(neardup.InputError, match="as long"):
        chars.verify_batch(foreign, pa.array([], pa.binary()))
    with pytest.raises(neardup.InputError, match="ids has 1 values"):
        neardup.dedup(["a b c", "d e f"], ids=["x"])
    with pytest.raises(neardup.ConfigError, match="max_length"):
        neardup.double_metaphone("smith", max_length=0)
    with pytest.raises(neardup.ConfigError, match="distance"):
        neardup.SimHash.cosine_estimate(65)
