"""Dedup on Ray: the core's stage functions in a Ray Data pipeline.

``neardup.ray.dedup(ds, text_col="text", id_col="id", **options)`` returns a
Dataset of ``id``, ``cluster`` (the id of the cluster's representative: its
first row in the input's order) and ``keep`` (bool), one row per input row,
in the input's order, with exactly the clusters of :func:`neardup.dedup` on
the same rows:

1. positions by zipping the rows with ``ray.data.range`` (the input's order);
   with ``weights="tfidf"``, the document frequencies of every block
   (:meth:`neardup.Stages.count`), merged (:func:`neardup.merge_frequencies`);
2. sketches, then bucket keys, by ``map_batches`` (the batch kernels
   :meth:`neardup.Stages.sketch_batch` and :meth:`neardup.Stages.keys_batch`):
   one ``(key, pos)`` row per key;
3. candidate pairs by ``groupby`` on the key, verified after joining each
   with its two sketches (:meth:`neardup.Stages.verify_batch`): a sketch
   travels only with a candidate pair;
4. clusters by the core's components kernel
   (:func:`neardup.components_batch`) on the verified pairs, collected on
   the driver (16 bytes a pair): one label per position;
5. the representative's id of each cluster, and every row's, by joins.

Ids must be unique and neither ids nor texts null, as for
:func:`neardup.dedup` (``ValueError`` naming the id). Joins need
``polars`` (a dependency of the ``ray`` extra). Options are those of
:func:`neardup.dedup`; ``pip install "./python[ray]"``.
"""

from typing import Any, Dict, Optional

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


def _pairs_of(g: pa.Table) -> pa.Table:
    """Every pair of a bucket once, in position order (the candidates)."""
    pos = pc.unique(g.column("pos")).sort()
    n = len(pos)
    if n < 2:
        return pa.table({"u": pa.array([], pa.int64()), "v": pa.array([], pa.int64())})
    import numpy as np

    i, j = np.triu_indices(n, k=1)
    p = pos.to_numpy()
    return pa.table({"u": pa.array(p[i], pa.int64()), "v": pa.array(p[j], pa.int64())})


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
    missing = [c for c in (id_col, text_col) if c not in ds.columns()]
    if missing:
        raise ValueError(f"the dataset has no column {missing[0]!r} (columns: {ds.columns()})")
    parts = num_partitions or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    n = ds.count()
    rows = ds.select_columns([id_col, text_col]).zip(ray.data.range(n).rename_columns({"id": "_pos"}))

    def normalise(b: pa.Table) -> pa.Table:
        ids, texts = b.column(id_col), b.column(text_col)
        if ids.null_count or texts.null_count:
            which = "ids" if ids.null_count else "texts"
            raise ValueError(f"{which} must not be null: a row has a null {id_col if ids.null_count else text_col}")
        return pa.table({"pos": b.column("_pos"), "id": ids.cast(pa.string()), "text": texts})

    rows = rows.map_batches(normalise, batch_format="pyarrow").materialize()
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
        column = _stages(options, frequencies).sketch_batch(b.column("text")).cast(pa.binary())
        return pa.table({"pos": b.column("pos"), "sketch": column})

    def keys(b: pa.Table) -> pa.Table:
        k = _stages(options, frequencies).keys_batch(b.column("sketch"))
        # The key's 64 bits as a signed long (a view, not a conversion).
        return pa.table({"key": k.column("key").view(pa.int64()), "pos": b.column("pos").combine_chunks().take(k.column("row"))})

    def verify(b: pa.Table) -> pa.Table:
        found = pc.is_valid(_stages(options, frequencies).verify_batch(b.column("su"), b.column("sv")))
        return pa.table({"u": b.column("u").filter(found), "v": b.column("v").filter(found)})

    sketches = rows.map_batches(sketch, batch_format="pyarrow").materialize()
    keyed = sketches.map_batches(keys, batch_format="pyarrow")
    # A pair sharing several keys comes once per key: verified again, the
    # same edge, harmless to the components.
    candidates = keyed.groupby("key").map_groups(_pairs_of, batch_format="pyarrow")
    # Verification joins the candidates with their two sketches only.
    su = sketches.rename_columns({"pos": "u", "sketch": "su"})
    sv = sketches.rename_columns({"pos": "v", "sketch": "sv"})
    joined = candidates.join(su, "inner", parts, on=("u",)).join(sv, "inner", parts, on=("v",))
    edges = [t for t in joined.map_batches(verify, batch_format="pyarrow").iter_batches(batch_format="pyarrow")]
    edges = pa.concat_tables(edges) if edges else pa.table({"u": pa.array([], pa.int64()), "v": pa.array([], pa.int64())})
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
