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
   first (:meth:`neardup.Stages.copies_batch` per digest) and verified in
   its group, so a thousand copies of a text are a thousand pairs, not half
   a million; collected on the driver with the other edges, their positions
   broadcast (``ray.put``) so that only the other rows get keys;
4. the other rows' bucket keys (:meth:`neardup.Stages.keys_batch`), one
   ``(key, pos)`` row per key, and their candidate pairs by ``groupby`` on
   a group of keys (the key's low bits: a ``map_groups`` call serves
   thousands of keys, each group at most about a million rows) (:meth:`neardup.Stages.bucket_pairs_batch`: MinHash takes the
   first 64 documents of a bucket, as the one-machine deduplicator does);
5. verification after giving each candidate its two sketches, one side at
   a time, by grouping the candidates and the sketches by position together
   (:meth:`neardup.Stages.verify_batch`): a sketch travels only with a
   candidate pair;
6. clusters by the core's components kernel
   (:func:`neardup.components_batch`) on the verified pairs, collected on
   the driver (16 bytes a pair): one label per position in a pair;
7. the representatives' ids (one row per cluster, by a filter), then every
   row's cluster and keep by ``map_batches`` looking its position up in the
   labels broadcast to the workers: no join and no sort (the rows keep the
   input's order). Two joins remain, those of verification.

Ids must be unique and neither ids nor texts null, as for
:func:`neardup.dedup` (``ValueError`` naming the id). Options are those of
:func:`neardup.dedup`; ``pip install "./python[ray]"``.
"""

from typing import Any, Dict, Optional

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import ray
from ray.data.context import ShuffleStrategy

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


def _group(values: Any, groups: int) -> Any:
    """Each value's group, ``value & (groups - 1)`` (``groups`` a power of
    two): a shuffle by group moves every row of a value to one place, and a
    group holds many values, so a ``map_groups`` call serves thousands of
    keys (one call per key costs Ray a task's bookkeeping each)."""
    return pc.bit_wise_and(values, groups - 1)


def _groups(rows: int, parts: int) -> int:
    """Groups for a shuffle of about ``rows`` rows: a power of two, at least
    ``parts``, and enough that a group holds about a million rows or fewer."""
    want = max(parts, rows // 1_000_000 + 1)
    return 1 << (want - 1).bit_length()


def _attach(pairs: "ray.data.Dataset", sketches: "ray.data.Dataset", side: str, name: str, groups: int) -> "ray.data.Dataset":
    """``pairs`` (``u``, ``v`` and any sketches already attached) with the
    sketch of position ``side`` as column ``name``: the pairs and the
    sketches grouped by position together (:func:`_group`), each pair given
    its position's sketch (an inner join by a groupby)."""
    fields = [f for f in pairs.schema().names if f not in ("u", "v")]

    def tag_pairs(b: pa.Table) -> pa.Table:
        cols = {"group": _group(b.column(side), groups), "key": b.column(side), "u": b.column("u"), "v": b.column("v")}
        cols.update({f: b.column(f).cast(pa.binary()) for f in fields})
        cols["sketch"] = pa.nulls(b.num_rows, pa.binary())
        return pa.table(cols)

    def tag_sketches(b: pa.Table) -> pa.Table:
        n = b.num_rows
        cols = {"group": _group(b.column("pos"), groups), "key": b.column("pos"), "u": pa.nulls(n, pa.int64()), "v": pa.nulls(n, pa.int64())}
        cols.update({f: pa.nulls(n, pa.binary()) for f in fields})
        cols["sketch"] = b.column("sketch").cast(pa.binary())
        return pa.table(cols)

    def give(g: pa.Table) -> pa.Table:
        have = g.filter(pc.is_valid(g.column("sketch")))
        rows = g.filter(pc.is_null(g.column("sketch")))
        at = pc.index_in(rows.column("key"), value_set=have.column("key"))
        found = pc.is_valid(at)
        rows, at = rows.filter(found), at.filter(found)
        out = {"u": rows.column("u"), "v": rows.column("v")}
        out.update({f: rows.column(f) for f in fields})
        out[name] = have.column("sketch").take(at)
        return pa.table(out)

    tagged = pairs.map_batches(tag_pairs, batch_format="pyarrow").union(
        sketches.select_columns(["pos", "sketch"]).map_batches(tag_sketches, batch_format="pyarrow")
    )
    return tagged.groupby("group", num_partitions=min(groups, 64)).map_groups(give, batch_format="pyarrow")


_EDGES = pa.schema([("u", pa.int64()), ("v", pa.int64())])


def _collect(ds: "ray.data.Dataset", schema: pa.Schema = _EDGES) -> pa.Table:
    """A small table (edges ``u``, ``v`` by default) of a dataset, on the driver."""
    tables = [t for t in ds.iter_batches(batch_format="pyarrow", batch_size=None) if t.num_rows]
    return pa.concat_tables(tables).cast(schema) if tables else schema.empty_table()


def dedup(
    ds: "ray.data.Dataset",
    text_col: str = "text",
    id_col: str = "id",
    num_partitions: Optional[int] = None,
    **options: Any,
) -> "ray.data.Dataset":
    """The near-duplicate clusters of ``ds``'s rows (module docs).

    ``num_partitions``: of each shuffle (default twice the cluster's CPUs).
    Raises ``ValueError`` or ``TypeError`` for bad options, and
    ``ValueError`` for an empty dataset's missing columns, null or repeated
    ids or null texts, before the dedup work runs. Every shuffle of the job
    runs within this call, as a sort shuffle (the strategy of the current
    ``DataContext`` is set for the call and restored after: Ray's hash
    shuffle costs seconds to start each time); the dataset returned is
    computed from the collected labels by ``map_batches`` alone, in the
    input's order (``preserve_order`` is left on).
    """
    ctx = ray.data.DataContext.get_current()
    saved = ctx.shuffle_strategy
    ctx.shuffle_strategy = ShuffleStrategy.SORT_SHUFFLE_PULL_BASED
    try:
        return _dedup(ds, text_col, id_col, num_partitions, **options)
    finally:
        ctx.shuffle_strategy = saved


def _dedup(
    ds: "ray.data.Dataset",
    text_col: str = "text",
    id_col: str = "id",
    num_partitions: Optional[int] = None,
    **options: Any,
) -> "ray.data.Dataset":
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
        rows.groupby("id", num_partitions=parts)
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
        stages = _stages(options, frequencies)
        c = stages.copies_batch(g.column("pos"), g.column("sketch"))
        # Each copy verified against its holder here, where both sketches are.
        rows_of = lambda p: pc.index_in(p, value_set=g.column("pos"))  # noqa: E731
        a = g.column("sketch").take(rows_of(c.column("holder")))
        b = g.column("sketch").take(rows_of(c.column("pos")))
        found = pc.is_valid(stages.verify_batch(a, b))
        return pa.table({"u": c.column("holder").filter(found), "v": c.column("pos").filter(found)})

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
    # Groups of the shuffles: of sketches (a row each) and of keys (a row per band).
    few, many = _groups(n, parts), _groups(n * 32, parts)
    # Copies, verified, collected on the driver with the other edges (16
    # bytes each); their positions broadcast, so that only holders get keys.
    copy_edges = _collect(
        sketches.map_batches(
            lambda b: b.filter(pc.is_valid(b.column("digest"))).append_column("group", _group(b.column("digest"), few)),
            batch_format="pyarrow",
        )
        .groupby("group", num_partitions=parts)
        .map_groups(copies, batch_format="pyarrow")
    )
    copy_pos = ray.put(copy_edges.column("v").combine_chunks())
    holders = sketches.map_batches(
        lambda b: b.filter(pc.invert(pc.is_in(b.column("pos"), value_set=ray.get(copy_pos)))), batch_format="pyarrow"
    )
    keyed = holders.select_columns(["pos", "sketch"]).map_batches(keys, batch_format="pyarrow")
    # A pair sharing several keys may come from several buckets: verified
    # again, the same edge, harmless to the components.
    keyed = keyed.map_batches(lambda b: b.append_column("group", _group(b.column("key"), many)), batch_format="pyarrow")
    candidates = keyed.groupby("group", num_partitions=min(many, 64)).map_groups(buckets, batch_format="pyarrow")
    # Verification brings each candidate its two sketches, one side at a
    # time: the candidates and the sketches grouped by position together
    # (a sort shuffle; Ray's hash-shuffle joins cost seconds each to start).
    with_u = _attach(candidates, sketches, "u", "su", few)
    joined = _attach(with_u, sketches, "v", "sv", few)
    edges = pa.concat_tables([_collect(joined.map_batches(verify, batch_format="pyarrow")), copy_edges])
    labels = components_batch(edges.column("u"), edges.column("v"))
    # The representatives' ids (one row per cluster), then every row's
    # cluster by a lookup in the labels broadcast to the workers: no join,
    # no sort (the rows keep their order).
    roots = labels.filter(pc.equal(labels.column("pos"), labels.column("cluster"))).column("pos")
    roots_ref = ray.put(roots)
    root_ids = _collect(
        rows.select_columns(["pos", "id"]).map_batches(
            lambda b: b.filter(pc.is_in(b.column("pos"), value_set=ray.get(roots_ref))), batch_format="pyarrow"
        ),
        pa.schema([("pos", pa.int64()), ("id", pa.string())]),
    )
    lookup = ray.put((labels.column("pos"), labels.column("cluster"), root_ids.column("pos").combine_chunks(), root_ids.column("id").combine_chunks()))

    def finish(b: pa.Table) -> pa.Table:
        pos_of, cluster_of, root_pos, root_id = ray.get(lookup)
        label = cluster_of.take(pc.index_in(b.column("pos"), value_set=pos_of))
        rep = root_id.take(pc.index_in(label, value_set=root_pos))
        return pa.table(
            {
                "id": b.column("id"),
                "cluster": pc.coalesce(rep, b.column("id")),
                "keep": pc.fill_null(pc.equal(label, b.column("pos")), True),
            }
        )

    return rows.select_columns(["pos", "id"]).map_batches(finish, batch_format="pyarrow")
