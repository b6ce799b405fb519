"""Dedup on Ray: the core's stage functions in a Ray Data pipeline.

``neardup.ray.dedup(ds, text_col="text", id_col="id", **options)`` returns a
Dataset of ``id``, ``cluster`` (the id of the cluster's representative: its
first row in the input's order) and ``keep`` (bool), in the input's order,
with exactly the clusters of :func:`neardup.dedup` on the same rows:

1. positions by zipping the rows with ``ray.data.range`` (the input's order);
2. sketches and bucket keys by ``map_batches`` (the batch kernels
   :meth:`neardup.Stages.sketch_batch` and :meth:`neardup.Stages.keys_batch`),
   one row per key carrying the sketch;
3. candidates by ``groupby`` on the key, each group's pairs verified there
   (:meth:`neardup.Stages.verify_batch`);
4. connected components by alternating large-star and small-star rounds
   (Kiveris et al., SoCC 2014), each a ``groupby`` — the graph is never
   collected on one machine; the driver reads only a count and a checksum
   of each round's edges.

Options are those of :func:`neardup.dedup`; ``pip install "./python[ray]"``.
"""

from typing import Any, Dict, List

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


def dedup(ds: "ray.data.Dataset", text_col: str = "text", id_col: str = "id", **options: Any) -> "ray.data.Dataset":
    """The near-duplicate clusters of ``ds``'s rows (module docs).

    Raises ``ValueError`` or ``TypeError`` for bad options before any task
    runs.
    """
    Stages(**options)  # checks the options on the driver
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    n = ds.count()
    rows = ds.select_columns([id_col, text_col]).zip(ray.data.range(n).rename_columns({"id": "pos"}))

    def sketch_keys(b: pa.Table) -> pa.Table:
        stages = _stages(options)
        sketches = stages.sketch_batch(b.column(text_col)).cast(pa.binary())
        k = stages.keys_batch(sketches)
        rows_of_keys = k.column("row")
        return pa.table(
            {
                # The key's 64 bits as a signed long (a view, not a conversion).
                "key": k.column("key").view(pa.int64()),
                "pos": b.column("pos").combine_chunks().take(rows_of_keys),
                "sketch": sketches.take(rows_of_keys),
            }
        )

    def verify_group(g: pa.Table) -> pa.Table:
        if g.num_rows < 2:
            return _edges([], [])
        stages = _stages(options)
        g = g.sort_by("pos")
        n = g.num_rows
        pos, sk = g.column("pos").combine_chunks(), g.column("sketch").combine_chunks()
        us, vs = [], []
        # Every pair of the bucket once, in position order, verified in
        # batches of about 2^16 pairs (memory bounded for a large bucket).
        i = 0
        while i < n - 1:
            first, second = [], []
            while i < n - 1 and len(first) < 1 << 16:
                first.extend([i] * (n - 1 - i))
                second.extend(range(i + 1, n))
                i += 1
            a, b = pos.take(first), pos.take(second)
            similar = pc.is_valid(stages.verify_batch(sk.take(first), sk.take(second)))
            found = pc.and_(similar, pc.not_equal(a, b))
            us.append(a.filter(found))
            vs.append(b.filter(found))
        return pa.table({"u": pa.concat_arrays(us), "v": pa.concat_arrays(vs)})

    keyed = rows.map_batches(sketch_keys, batch_format="pyarrow")
    edges = keyed.groupby("key").map_groups(verify_group, batch_format="pyarrow")
    labels = _components(_distinct(edges))

    def label_rows(b: pa.Table) -> pa.Table:
        return _table(
            {"pos": b.column("pos").to_pylist(), "label": b.column("pos").to_pylist(), "id": [str(x) for x in b.column(id_col).to_pylist()]},
            {"pos": pa.int64(), "label": pa.int64(), "id": pa.string()},
        )

    def as_label(b: pa.Table) -> pa.Table:
        return _table(
            {"pos": b.column("pos").to_pylist(), "label": b.column("label").to_pylist(), "id": [None] * b.num_rows},
            {"pos": pa.int64(), "label": pa.int64(), "id": pa.string()},
        )

    def resolve(g: pa.Table) -> pa.Table:
        # One node: its own row (label = pos, the id) and its component's label.
        ids = [i for i in g.column("id").to_pylist() if i is not None]
        label = min(g.column("label").to_pylist())
        pos = g.column("pos")[0].as_py()
        return _table({"pos": [pos], "label": [label], "id": ids[:1]}, {"pos": pa.int64(), "label": pa.int64(), "id": pa.string()})

    def name(g: pa.Table) -> pa.Table:
        # One component: the representative is the node whose pos is the label.
        pos, label, ids = g.column("pos").to_pylist(), g.column("label").to_pylist(), g.column("id").to_pylist()
        rep = ids[pos.index(label[0])]
        return _table(
            {"pos": pos, "id": ids, "cluster": [rep] * len(ids), "keep": [p == label[0] for p in pos]},
            {"pos": pa.int64(), "id": pa.string(), "cluster": pa.string(), "keep": pa.bool_()},
        )

    nodes = rows.map_batches(label_rows, batch_format="pyarrow").union(labels.map_batches(as_label, batch_format="pyarrow"))
    resolved = nodes.groupby("pos").map_groups(resolve, batch_format="pyarrow")
    named = resolved.groupby("label").map_groups(name, batch_format="pyarrow")
    return named.sort("pos").select_columns(["id", "cluster", "keep"])


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
