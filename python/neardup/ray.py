"""Dedup on Ray: the core's stage functions in a Ray Data pipeline.

``neardup.ray.dedup(ds, text_col="text", id_col="id", **options)`` returns a
Dataset of ``id``, ``cluster`` (the id of the cluster's representative: its
first row in the input's order) and ``keep`` (bool), in the input's order,
with exactly the clusters of :func:`neardup.dedup` on the same rows:

1. positions by zipping the rows with ``ray.data.range`` (the input's order);
2. sketches, then bucket keys, by ``map_batches`` (the batch kernels
   :meth:`neardup.Stages.sketch_batch` and :meth:`neardup.Stages.keys_batch`):
   one ``(key, pos)`` row per key;
3. candidate pairs by ``groupby`` on the key (each pair once), verified
   after joining each with its two sketches
   (:meth:`neardup.Stages.verify_batch`): a sketch travels only with a
   candidate pair;
4. connected components by alternating large-star and small-star rounds
   (Kiveris et al., SoCC 2014), each a ``groupby`` — the graph is never
   collected on one machine; the driver reads only a count and a checksum
   of each round's edges;
5. the representative's id of each cluster, and every row's, by joins.

Joins need ``polars`` (a dependency of the ``ray`` extra).

Options are those of :func:`neardup.dedup`; ``pip install "./python[ray]"``.
"""

import itertools
from typing import Any, Dict, List, Optional

import pyarrow as pa
import pyarrow.compute as pc
import ray

from ._neardup import Stages

_CACHE: Dict[Any, Stages] = {}


def _stages(options: Dict[str, Any]) -> Stages:
    """The stages of ``options``, made once per worker process."""
    key = tuple(sorted(options.items()))
    if key not in _CACHE:
        _CACHE[key] = Stages(**options)
    return _CACHE[key]


def _table(columns: Dict[str, List[Any]], types: Dict[str, pa.DataType]) -> pa.Table:
    return pa.table({k: pa.array(v, type=types[k]) for k, v in columns.items()})


def _edges(u: List[int], v: List[int]) -> pa.Table:
    return _table({"u": u, "v": v}, {"u": pa.int64(), "v": pa.int64()})


def dedup(
    ds: "ray.data.Dataset",
    text_col: str = "text",
    id_col: str = "id",
    num_partitions: Optional[int] = None,
    **options: Any,
) -> "ray.data.Dataset":
    """The near-duplicate clusters of ``ds``'s rows (module docs).

    ``num_partitions``: of each join (default twice the cluster's CPUs).
    Raises ``ValueError`` or ``TypeError`` for bad options before any task
    runs.
    """
    Stages(**options)  # checks the options on the driver
    parts = num_partitions or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    n = ds.count()
    rows = ds.select_columns([id_col, text_col]).zip(ray.data.range(n).rename_columns({"id": "pos"}))

    def sketch(b: pa.Table) -> pa.Table:
        column = _stages(options).sketch_batch(b.column(text_col)).cast(pa.binary())
        return pa.table({"pos": b.column("pos"), "sketch": column})

    def keys(b: pa.Table) -> pa.Table:
        k = _stages(options).keys_batch(b.column("sketch"))
        # The key's 64 bits as a signed long (a view, not a conversion).
        return pa.table({"key": k.column("key").view(pa.int64()), "pos": b.column("pos").combine_chunks().take(k.column("row"))})

    def bucket_pairs(g: pa.Table) -> pa.Table:
        # Every pair of a bucket once, in position order.
        pairs = list(itertools.combinations(sorted(set(g.column("pos").to_pylist())), 2))
        return _edges([a for a, _ in pairs], [b for _, b in pairs])

    def verify(b: pa.Table) -> pa.Table:
        found = pc.is_valid(_stages(options).verify_batch(b.column("su"), b.column("sv")))
        return pa.table({"u": b.column("u").filter(found), "v": b.column("v").filter(found)})

    sketches = rows.map_batches(sketch, batch_format="pyarrow").materialize()
    keyed = sketches.map_batches(keys, batch_format="pyarrow")
    candidates = _distinct(keyed.groupby("key").map_groups(bucket_pairs, batch_format="pyarrow"))
    # Verification joins the candidates with their two sketches only.
    su = sketches.rename_columns({"pos": "u", "sketch": "su"})
    sv = sketches.rename_columns({"pos": "v", "sketch": "sv"})
    joined = candidates.join(su, "inner", parts, on=("u",)).join(sv, "inner", parts, on=("v",))
    labels = _components(joined.map_batches(verify, batch_format="pyarrow")).materialize()

    def roots(b: pa.Table) -> pa.Table:
        t = b.filter(pc.equal(b.column("pos"), b.column("label")))
        return pa.table({"label": t.column("label")})

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

    ids = rows.map_batches(lambda b: pa.table({"pos": b.column("pos"), "id": b.column(id_col).cast(pa.string())}), batch_format="pyarrow")
    # The representative's id of each cluster, then every row's.
    reps = labels.map_batches(roots, batch_format="pyarrow").join(
        ids.rename_columns({"pos": "label", "id": "cluster"}), "inner", parts, on=("label",)
    )
    labeled = ids.join(labels, "left_outer", parts, on=("pos",)).join(reps, "left_outer", parts, on=("label",))
    return labeled.map_batches(finish, batch_format="pyarrow").sort("pos").select_columns(["id", "cluster", "keep"])


def _distinct(edges: "ray.data.Dataset") -> "ray.data.Dataset":
    """Each edge once, ``u < v``."""

    def orient(b: pa.Table) -> pa.Table:
        a, c = b.column("u").to_pylist(), b.column("v").to_pylist()
        return _edges([min(x, y) for x, y in zip(a, c)], [max(x, y) for x, y in zip(a, c)])

    def first(g: pa.Table) -> pa.Table:
        pairs = sorted(set(zip(g.column("u").to_pylist(), g.column("v").to_pylist())))
        return _edges([p[0] for p in pairs], [p[1] for p in pairs])

    return edges.map_batches(orient, batch_format="pyarrow").groupby("u").map_groups(first, batch_format="pyarrow")


def _checksum(edges: "ray.data.Dataset"):
    """A count and an order-free checksum of an edge set (for convergence)."""

    def part(b: pa.Table) -> pa.Table:
        s = 0
        for u, v in zip(b.column("u").to_pylist(), b.column("v").to_pylist()):
            s = (s + hash((u, v, 0x9E3779B97F4A7C15))) % (1 << 61)
        return pa.table({"n": pa.array([b.num_rows], pa.int64()), "s": pa.array([s], pa.int64())})

    rows = edges.map_batches(part, batch_format="pyarrow").take_all()
    return sum(r["n"] for r in rows), sum(r["s"] for r in rows) % (1 << 61)


def _components(edges: "ray.data.Dataset") -> "ray.data.Dataset":
    """``(pos, label)`` of every node in an edge: the least position of its
    component, by large-star and small-star rounds until the edges stop
    changing."""

    def both(b: pa.Table) -> pa.Table:
        u, v = b.column("u").to_pylist(), b.column("v").to_pylist()
        return _table({"x": u + v, "y": v + u}, {"x": pa.int64(), "y": pa.int64()})

    def down(b: pa.Table) -> pa.Table:
        u, v = b.column("u").to_pylist(), b.column("v").to_pylist()
        return _table({"x": [max(a, c) for a, c in zip(u, v)], "y": [min(a, c) for a, c in zip(u, v)]}, {"x": pa.int64(), "y": pa.int64()})

    def large(g: pa.Table) -> pa.Table:
        x = g.column("x")[0].as_py()
        ys = g.column("y").to_pylist()
        m = min(min(ys), x)
        out = sorted({y for y in ys if y > x})
        return _edges([m] * len(out), out)

    def small(g: pa.Table) -> pa.Table:
        x = g.column("x")[0].as_py()
        ys = g.column("y").to_pylist()
        m = min(ys)
        out = sorted({n for n in ys + [x] if n != m})
        return _edges([m] * len(out), out)

    e = edges.materialize()
    seen = _checksum(e)
    while True:
        e = e.map_batches(both, batch_format="pyarrow").groupby("x").map_groups(large, batch_format="pyarrow")
        e = _distinct(e.map_batches(down, batch_format="pyarrow").groupby("x").map_groups(small, batch_format="pyarrow"))
        e = e.materialize()
        now = _checksum(e)
        if now == seen:
            break
        seen = now

    def labels(b: pa.Table) -> pa.Table:
        u, v = b.column("u").to_pylist(), b.column("v").to_pylist()
        return _table({"pos": v + u, "label": u + u}, {"pos": pa.int64(), "label": pa.int64()})

    return e.map_batches(labels, batch_format="pyarrow")
