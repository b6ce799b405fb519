"""Dedup on Ray: the core's stage functions in a Ray Data pipeline.

``neardup.ray.dedup(ds, text_col="text", id_col="id", **options)`` returns a
Dataset of ``id``, ``cluster`` (the id of the cluster's representative: its
first row in the input's order) and ``keep`` (bool), one row per input row,
in the input's order, with exactly the clusters of :func:`neardup.dedup` on
the same rows:

1. positions in the input's order: each block of the materialised input
   (``to_arrow_refs``, in order) numbered from the rows of the blocks before
   it, by a task per block (``Dataset.zip``, deprecated, is not used);
   with ``weights="tfidf"``, the document frequencies of every block
   (:meth:`neardup.Stages.count`), merged (:func:`neardup.merge_frequencies`);
2. sketches and their digests by ``map_batches`` (the batch kernels
   :meth:`neardup.Stages.sketch_batch` and
   :meth:`neardup.Stages.digest_batch`);
3. copies: rows whose sketch equals an earlier row's, each paired with the
   first (:meth:`neardup.Stages.copies_batch` per digest), so a thousand
   copies of a text are a thousand candidate pairs, not half a million;
4. the other rows' bucket keys (:meth:`neardup.Stages.keys_batch`), one
   ``(key, pos)`` row per key, and their candidate pairs by ``groupby`` on
   the key (:meth:`neardup.Stages.bucket_pairs_batch`: MinHash takes the
   first 64 documents of a bucket, as the one-machine deduplicator does);
5. verification after joining each candidate with its two sketches
   (:meth:`neardup.Stages.verify_batch`): a sketch travels only with a
   candidate pair;
6. clusters by the core's components kernel
   (:func:`neardup.components_batch`) on the verified pairs, collected on
   the driver (16 bytes a pair): one label per position;
7. the representative's id of each cluster, and every row's, by joins.

Ids must be unique and neither ids nor texts null, as for
:func:`neardup.dedup` (``ValueError`` naming the id). Joins need
``polars`` (a dependency of the ``ray`` extra). Options are those of
:func:`neardup.dedup`; ``pip install "./python[ray]"``.
"""

from typing import Any, Dict, Optional

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import ray

from ._neardup import Stages, components_batch, merge_frequencies

_CACHE: Dict[Any, Stages] = {}


def _stages(options: Dict[str, Any], frequencies: Optional[bytes] = None) -> Stages:
    """The stages of ``options`` (and frequencies), made once per worker process."""
    key = (tuple(sorted(options.items())), frequencies)
    if key not in _CACHE:
        stages = Stages(**options)
        _CACHE[key] = stages.with_frequencies(frequencies) if frequencies is not None else stages
    return _CACHE[key]


@ray.remote
def _num_rows(block: pa.Table) -> int:
    return block.num_rows


@ray.remote
def _numbered(block: pa.Table, start: int) -> pa.Table:
    """A block's rows as ``pos`` (from ``start``), ``id`` (as strings) and ``text``."""
    return pa.table(
        {
            "pos": pa.array(np.arange(start, start + block.num_rows, dtype=np.int64)),
            "id": block.column("__neardup_id").cast(pa.string()),
            "text": block.column("__neardup_text"),
        }
    )


def _edges(a: list, b: list) -> pa.Table:
    return pa.table({"u": pa.array(a, pa.int64()), "v": pa.array(b, pa.int64())})


def dedup(
    ds: "ray.data.Dataset",
    text_col: str = "text",
    id_col: str = "id",
    num_partitions: Optional[int] = None,
    **options: Any,
) -> "ray.data.Dataset":
    """The near-duplicate clusters of ``ds``'s rows (module docs).

    ``num_partitions``: of each join (default twice the cluster's CPUs).
    Raises ``ValueError`` or ``TypeError`` for bad options, and
    ``ValueError`` for an empty dataset's missing columns, null or repeated
    ids or null texts, before the dedup work runs.
    """
    probe = Stages(**options)  # checks the options on the driver
    if id_col == text_col:
        raise ValueError(f"id_col and text_col are both {id_col!r}: give two columns")
    parts = num_partitions or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    n = ds.count()
    if n == 0:
        return ray.data.from_arrow(
            pa.table({"id": pa.array([], pa.string()), "cluster": pa.array([], pa.string()), "keep": pa.array([], pa.bool_())})
        )
    columns = ds.columns() or []
    missing = [c for c in (id_col, text_col) if c not in columns]
    if missing:
        raise ValueError(f"the dataset has no column {missing[0]!r} (columns: {columns})")
    # The user's columns under names of our own (theirs may be "pos" or "_pos").
    named = ds.select_columns([id_col, text_col]).rename_columns({id_col: "__neardup_id", text_col: "__neardup_text"})
    nulls = named.map_batches(
        lambda b: pa.table({"ids": [b.column("__neardup_id").null_count], "texts": [b.column("__neardup_text").null_count]}),
        batch_format="pyarrow",
    ).take_all()
    for which, col in (("ids", id_col), ("texts", text_col)):
        if any(r[which] for r in nulls):
            raise ValueError(f"{which} must not be null: a row has a null {col}")
    blocks = named.materialize().to_arrow_refs()
    sizes = ray.get([_num_rows.remote(b) for b in blocks])
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    rows = ray.data.from_arrow_refs([_numbered.remote(b, s) for b, s in zip(blocks, starts)]).materialize()
    dup = (
        rows.groupby("id")
        .count()
        .map_batches(lambda b: b.filter(pc.greater(b.column("count()"), 1)), batch_format="pyarrow")
        .take(1)
    )
    if dup:
        raise ValueError(f"ids must be unique: id {dup[0]['id']!r} is on more than one row")

    frequencies = None
    if probe.needs_frequencies:
        counted = rows.map_batches(
            lambda b: pa.table({"bytes": pa.array([_stages(options).count(b.column("text"))], pa.binary())}),
            batch_format="pyarrow",
        )
        frequencies = merge_frequencies([r["bytes"] for r in counted.take_all()])

    def sketch(b: pa.Table) -> pa.Table:
        stages = _stages(options, frequencies)
        column = stages.sketch_batch(b.column("text")).cast(pa.binary())
        return pa.table({"pos": b.column("pos"), "sketch": column, "digest": stages.digest_batch(column)})

    def copies(g: pa.Table) -> pa.Table:
        c = _stages(options, frequencies).copies_batch(g.column("pos"), g.column("sketch"))
        return pa.table({"u": c.column("holder"), "v": c.column("pos")})

    def keys(b: pa.Table) -> pa.Table:
        k = _stages(options, frequencies).keys_batch(b.column("sketch"))
        # The key's 64 bits as a signed long (a view, not a conversion).
        return pa.table({"key": k.column("key").view(pa.int64()), "pos": b.column("pos").combine_chunks().take(k.column("row"))})

    def buckets(g: pa.Table) -> pa.Table:
        p = _stages(options, frequencies).bucket_pairs_batch(g.column("key"), g.column("pos"))
        return pa.table({"u": p.column("a"), "v": p.column("b")})

    def verify(b: pa.Table) -> pa.Table:
        found = pc.is_valid(_stages(options, frequencies).verify_batch(b.column("su"), b.column("sv")))
        return pa.table({"u": b.column("u").filter(found), "v": b.column("v").filter(found)})

    sketches = rows.map_batches(sketch, batch_format="pyarrow").materialize()
    copied = (
        sketches.map_batches(lambda b: b.filter(pc.is_valid(b.column("digest"))), batch_format="pyarrow")
        .groupby("digest")
        .map_groups(copies, batch_format="pyarrow")
        .materialize()
    )
    # The holders (rows no copy of an earlier one) carry the bucket keys.
    marks = copied.map_batches(lambda b: pa.table({"pos": b.column("v"), "copy": pa.array([True] * b.num_rows)}), batch_format="pyarrow")
    holders = sketches.join(marks, "left_outer", parts, on=("pos",)).map_batches(
        lambda b: b.filter(pc.is_null(b.column("copy"))), batch_format="pyarrow"
    )
    keyed = holders.select_columns(["pos", "sketch"]).map_batches(keys, batch_format="pyarrow")
    # A pair sharing several keys may come from several buckets: verified
    # again, the same edge, harmless to the components.
    candidates = keyed.groupby("key").map_groups(buckets, batch_format="pyarrow").union(copied)
    # Verification joins the candidates with their two sketches only.
    su = sketches.select_columns(["pos", "sketch"]).rename_columns({"pos": "u", "sketch": "su"})
    sv = sketches.select_columns(["pos", "sketch"]).rename_columns({"pos": "v", "sketch": "sv"})
    joined = candidates.join(su, "inner", parts, on=("u",)).join(sv, "inner", parts, on=("v",))
    edges = [t for t in joined.map_batches(verify, batch_format="pyarrow").iter_batches(batch_format="pyarrow")]
    edges = pa.concat_tables(edges) if edges else _edges([], [])
    labels = components_batch(edges.column("u"), edges.column("v"))
    labelled = ray.data.from_arrow(pa.table({"pos": labels.column("pos"), "label": labels.column("cluster")}))

    def finish(b: pa.Table) -> pa.Table:
        label = pc.coalesce(b.column("label"), b.column("pos"))
        return pa.table(
            {
                "pos": b.column("pos"),
                "id": b.column("id"),
                "cluster": pc.coalesce(b.column("cluster"), b.column("id")),
                "keep": pc.equal(label, b.column("pos")),
            }
        )

    ids = rows.select_columns(["pos", "id"])
    # The representative's id of each cluster, then every row's.
    roots = labelled.map_batches(
        lambda b: pa.table({"label": b.filter(pc.equal(b.column("pos"), b.column("label"))).column("label")}),
        batch_format="pyarrow",
    )
    reps = roots.join(
        ids.rename_columns({"pos": "label", "id": "cluster"}), "inner", parts, on=("label",)
    )
    labeled = ids.join(labelled, "left_outer", parts, on=("pos",)).join(reps, "left_outer", parts, on=("label",))
    return labeled.map_batches(finish, batch_format="pyarrow").sort("pos").select_columns(["id", "cluster", "keep"])
