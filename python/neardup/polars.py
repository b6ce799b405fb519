"""neardup in Polars: the core's kernels as expressions, and dedup of a frame.

``import neardup.polars`` registers the expression namespace ``neardup``:

* ``pl.col("text").neardup.sketch(**options)`` — each text's sketch bytes
  (``Binary``), the same bytes as :meth:`neardup.Stages.sketch` (SPEC.md §14);
* ``pl.col("sketch").neardup.keys(**options)`` — each sketch's bucket keys
  (``List(UInt64)``): two sketches are candidates exactly when they share one;
* ``pl.col("a").neardup.similarity(pl.col("b"), **options)`` — the
  similarity of each pair of sketches when it is a near-duplicate pair, else
  null (``Float64``, in [0, 1]).

and :func:`dedup` adds ``cluster`` and ``keep`` to a ``DataFrame`` or a
``LazyFrame``, with exactly the clusters of :func:`neardup.dedup` on the same
rows. Columns cross as Arrow (``Series.to_arrow``), read by the Rust kernels
from their buffers with no Python object per row, and every kernel works
with the GIL released. Options are those of :func:`neardup.dedup` (MinHash
LSH over character 5-grams by default; Broder 1997, Indyk & Motwani 1998);
an option is checked when the expression is built (``neardup.ConfigError``).
Null texts give null sketches; null sketches give null keys and
similarities. ``weights="tfidf"`` needs the whole collection's document
frequencies, so it is refused in the expressions (:func:`dedup` counts them).
Needs ``polars`` (``pip install "neardup[polars]"``).
"""

from typing import Any, Dict, Optional, Tuple, TypeVar, Union

import polars as pl
import pyarrow as pa

from ._neardup import ConfigError, InputError, Speller, Stages, dedup_batch

__all__ = ["dedup", "NeardupExpr"]

Frame = TypeVar("Frame", pl.DataFrame, pl.LazyFrame)

_CACHE: Dict[Tuple[Any, ...], Stages] = {}


def _stages(options: Dict[str, Any]) -> Stages:
    """The stages of ``options``, made (and checked) once per process."""
    key = tuple(sorted((k, id(v) if isinstance(v, Speller) else v) for k, v in options.items()))
    if key not in _CACHE:
        stages = Stages(**options)
        if stages.needs_frequencies:
            raise ConfigError(
                'weights="tfidf" needs the whole collection\'s document frequencies: '
                "use neardup.polars.dedup, or neardup.Stages(...).count and with_frequencies"
            )
        _CACHE[key] = stages
    return _CACHE[key]


def _nulls_back(out: pl.Series, valid: pl.Series) -> pl.Series:
    """``out`` with null where ``valid`` is false."""
    if valid.all():
        return out
    return pl.select(pl.when(valid).then(out).otherwise(None)).to_series().alias(out.name)


def _sketch(s: pl.Series, stages: Stages) -> pl.Series:
    valid = s.is_not_null()
    column = stages.sketch_batch(s.fill_null("").cast(pl.String).to_arrow())
    out = pl.from_arrow(column.cast(pa.large_binary()))
    assert isinstance(out, pl.Series)
    return _nulls_back(out.alias(s.name), valid)


def _keys(s: pl.Series, stages: Stages) -> pl.Series:
    valid = s.is_not_null()
    if not valid.all():
        # A null sketch has no keys; an empty sketch (of an empty text) has none either.
        empty = stages.sketch_batch(pa.array([""]))[0].as_py()
        s = s.fill_null(empty)
    out = pl.from_arrow(stages.keys_list_batch(s.to_arrow()))
    assert isinstance(out, pl.Series)
    return _nulls_back(out.alias(s.name), valid)


def _similarity(pairs: pl.Series, stages: Stages) -> pl.Series:
    a, b = pairs.struct.field("a"), pairs.struct.field("b")
    valid = a.is_not_null() & b.is_not_null()
    empty = stages.sketch_batch(pa.array([""]))[0].as_py()
    got = stages.verify_batch(a.fill_null(empty).to_arrow(), b.fill_null(empty).to_arrow())
    out = pl.from_arrow(got)
    assert isinstance(out, pl.Series)
    return _nulls_back(out.alias("similarity"), valid)


@pl.api.register_expr_namespace("neardup")
class NeardupExpr:
    """The ``neardup`` expression namespace (module docs)."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def sketch(self, **options: Any) -> pl.Expr:
        """Each text's sketch bytes (``Binary``), row by row (module docs).

        ``ConfigError`` for a bad option, when the expression is built;
        ``InputError`` (a ``ValueError``) naming the row for a text over
        ``max_bytes``; ``TypeError`` for a column that is not a string."""
        stages = _stages(options)
        return self._expr.map_batches(lambda s: _sketch(s, stages), return_dtype=pl.Binary, is_elementwise=True)

    def keys(self, **options: Any) -> pl.Expr:
        """Each sketch's bucket keys (``List(UInt64)``), the same as
        :meth:`neardup.Stages.keys`; give the options that made the sketches.
        ``ValueError`` naming the row for a sketch of another configuration."""
        stages = _stages(options)
        return self._expr.map_batches(
            lambda s: _keys(s, stages), return_dtype=pl.List(pl.UInt64), is_elementwise=True
        )

    def similarity(self, other: Union[pl.Expr, str], **options: Any) -> pl.Expr:
        """The similarity (``Float64`` in [0, 1]) of this sketch and
        ``other``'s, row by row, when the pair is a near-duplicate pair under
        the options' threshold and method, else null
        (:meth:`neardup.Stages.verify`)."""
        stages = _stages(options)
        other = pl.col(other) if isinstance(other, str) else other
        return pl.struct(self._expr.alias("a"), other.alias("b")).map_batches(
            lambda s: _similarity(s, stages), return_dtype=pl.Float64, is_elementwise=True
        )


def dedup(
    frame: Frame,
    text: str = "text",
    id: str = "id",
    *,
    dictionary: Optional[Speller] = None,
    reference: Optional[str] = None,
    **options: Any,
) -> Frame:
    """``frame`` with two columns more, ``cluster`` (the id of the row's
    cluster's representative, its first row in the frame's order; a row in
    no cluster is its own, of ``id``'s type) and ``keep`` (``Boolean``: the
    row is its cluster's representative): exactly the clusters of
    :func:`neardup.dedup` on the same rows and options.

    A ``LazyFrame`` gives a ``LazyFrame`` (the work runs on ``collect``, on
    the whole column: clusters span batches). Options as
    :func:`neardup.dedup`, ``weights="tfidf"`` included; checked now
    (``neardup.ConfigError``). ``ValueError`` (``InputError``) for a missing
    column or one that exists already, when it is called; for a null or
    repeated id or a null text (naming the row) when the frame is computed.
    """
    kwargs: Dict[str, Any] = dict(options)
    if dictionary is not None:
        kwargs["dictionary"] = dictionary
    if reference is not None:
        kwargs["reference"] = reference
    Stages(**kwargs)  # checks the options now
    if text == id:
        raise InputError(f"text and id are both {id!r}: give two columns")
    schema = frame.collect_schema() if isinstance(frame, pl.LazyFrame) else frame.schema
    for name in (text, id):
        if name not in schema:
            raise InputError(f"the frame has no column {name!r} (columns: {list(schema.names())})")
    for name in ("cluster", "keep"):
        if name in schema:
            raise InputError(f"the frame has a column {name!r} already: dedup adds it (rename yours)")
    id_dtype = schema[id]

    def run(rows: pl.Series) -> pl.Series:
        texts, ids = rows.struct.field("t"), rows.struct.field("i")
        if ids.null_count():
            raise InputError(f"ids must not be null: a row has a null {id}")
        labels = dedup_batch(texts.cast(pl.String).to_arrow(), ids.cast(pl.String).to_arrow(), **kwargs)
        cluster = pl.from_arrow(labels.column("cluster"))
        keep = pl.from_arrow(labels.column("keep"))
        assert isinstance(cluster, pl.Series) and isinstance(keep, pl.Series)
        return pl.DataFrame({"cluster": ids.gather(cluster), "keep": keep}).to_struct("__neardup")

    out_type = pl.Struct({"cluster": id_dtype, "keep": pl.Boolean})
    return frame.with_columns(
        pl.struct(pl.col(text).alias("t"), pl.col(id).alias("i"))
        .map_batches(run, return_dtype=out_type)
        .alias("__neardup")
    ).unnest("__neardup")
