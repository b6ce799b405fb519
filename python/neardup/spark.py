"""Dedup on Spark: the core's stage functions in a PySpark job.

``neardup.spark.dedup(df, text_col="text", id_col="id", **options)`` returns a
DataFrame of ``id``, ``cluster`` (the id of the cluster's representative: its
first document in the input's order) and ``keep`` (bool), with exactly the
clusters of :func:`neardup.dedup` on the same rows in the same order, whatever
the number of partitions:

1. sketches by ``mapInArrow`` (the batch kernel
   :meth:`neardup.Stages.sketch_batch`: every core of each executor, the GIL
   released, Arrow columns in and out);
2. bucket keys by ``mapInArrow`` (:meth:`neardup.Stages.keys_batch`), one
   row per key; candidates by a join on the key (each pair once);
3. verification as a join of the candidates' sketches only, by
   ``mapInArrow`` (:meth:`neardup.Stages.verify_batch`);
4. connected components of the verified pairs by alternating large-star and
   small-star rounds (Kiveris, Lattanzi, Mirrokni, Rastogi & Vassilvitskii,
   "Connected Components in MapReduce and Beyond", SoCC 2014): every node is
   labelled by the least position of its component, without collecting the
   graph on one machine.

Options are those of :func:`neardup.dedup`. Only ``pyspark`` (with pyarrow)
is needed: ``pip install "./python[spark]"``.
"""

from typing import Any, Iterator

import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import DataFrame, functions as F
from pyspark.sql.types import BinaryType, BooleanType, LongType, StringType, StructField, StructType

from ._neardup import Stages

_SKETCH = StructType([StructField("pos", LongType()), StructField("sketch", BinaryType())])
_KEY = StructType([StructField("key", LongType()), StructField("pos", LongType())])
_EDGE = StructType([StructField("a", LongType()), StructField("b", LongType())])


def dedup(df: DataFrame, text_col: str = "text", id_col: str = "id", **options: Any) -> DataFrame:
    """The near-duplicate clusters of ``df``'s rows (module docs).

    Returns a DataFrame with columns ``id`` (string), ``cluster`` (the
    representative's id) and ``keep`` (True for the representative of each
    cluster and for every row in no pair). Raises ``ValueError`` or
    ``TypeError`` for bad options before any job runs.
    """
    Stages(**options)  # checks the options on the driver
    rows = df.select(
        F.col(id_col).cast(StringType()).alias("id"),
        F.col(text_col).alias("text"),
        F.monotonically_increasing_id().alias("pos"),
    ).cache()

    def sketch(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        stages = Stages(**options)
        for b in batches:
            column = stages.sketch_batch(b.column("text")).cast(pa.binary())
            yield pa.RecordBatch.from_arrays([b.column("pos"), column], names=["pos", "sketch"])

    sketches = rows.select("pos", "text").mapInArrow(sketch, _SKETCH).cache()

    def keys(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        stages = Stages(**options)
        for b in batches:
            k = stages.keys_batch(b.column("sketch"))
            # Spark's long holds the key's 64 bits (a view, not a conversion).
            yield pa.RecordBatch.from_arrays(
                [k.column("key").view(pa.int64()), b.column("pos").take(k.column("row"))],
                names=["key", "pos"],
            )

    keyed = sketches.mapInArrow(keys, _KEY).cache()
    left, right = keyed.alias("l"), keyed.alias("r")
    candidates = (
        left.join(right, (F.col("l.key") == F.col("r.key")) & (F.col("l.pos") < F.col("r.pos")))
        .select(F.col("l.pos").alias("a"), F.col("r.pos").alias("b"))
        .distinct()
    )
    sa, sb = sketches.alias("sa"), sketches.alias("sb")
    joined = (
        candidates.join(sa, F.col("a") == F.col("sa.pos"))
        .join(sb, F.col("b") == F.col("sb.pos"))
        .select("a", "b", F.col("sa.sketch").alias("sketch_a"), F.col("sb.sketch").alias("sketch_b"))
    )

    def verify(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        stages = Stages(**options)
        for b in batches:
            found = pc.is_valid(stages.verify_batch(b.column("sketch_a"), b.column("sketch_b")))
            yield pa.RecordBatch.from_arrays(
                [b.column("a").filter(found), b.column("b").filter(found)], names=["a", "b"]
            )

    edges = joined.mapInArrow(verify, _EDGE).cache()
    labels = _components(edges)
    ids = rows.select("pos", "id")
    rep = ids.select(F.col("pos").alias("label"), F.col("id").alias("cluster"))
    return (
        ids.join(labels, "pos", "left")
        .withColumn("label", F.coalesce(F.col("label"), F.col("pos")))
        .join(rep, "label")
        .select(
            "id",
            "cluster",
            (F.col("pos") == F.col("label")).cast(BooleanType()).alias("keep"),
            "pos",
        )
        .orderBy("pos")
        .drop("pos")
    )


def _components(edges: DataFrame) -> DataFrame:
    """``(pos, label)`` of every node in an edge: the least position of its
    connected component, by alternating large-star and small-star rounds
    until the edges stop changing (each round is a few distributed joins)."""
    e = edges.select(F.least("a", "b").alias("u"), F.greatest("a", "b").alias("v")).distinct().localCheckpoint()
    while True:
        nxt = _small_star(_large_star(e)).localCheckpoint()
        if nxt.subtract(e).isEmpty() and e.subtract(nxt).isEmpty():
            break
        e = nxt
    # At convergence every edge joins a node (v) to its component's least (u).
    nodes = e.select(F.col("v").alias("pos"), F.col("u").alias("label"))
    roots = e.select(F.col("u").alias("pos"), F.col("u").alias("label"))
    return nodes.union(roots).groupBy("pos").agg(F.min("label").alias("label"))


def _large_star(e: DataFrame) -> DataFrame:
    """Each node links its larger neighbours to the least of its
    neighbourhood (itself included)."""
    both = e.select(F.col("u").alias("x"), F.col("v").alias("y")).union(
        e.select(F.col("v").alias("x"), F.col("u").alias("y"))
    )
    m = both.groupBy("x").agg(F.min("y").alias("m")).withColumn("m", F.least("m", "x"))
    return (
        both.join(m, "x")
        .where(F.col("y") > F.col("x"))
        .select(F.least("y", "m").alias("u"), F.greatest("y", "m").alias("v"))
        .where(F.col("u") != F.col("v"))
        .distinct()
    )


def _small_star(e: DataFrame) -> DataFrame:
    """Each node links itself and its smaller neighbours to the least of
    them."""
    down = e.select(F.greatest("u", "v").alias("x"), F.least("u", "v").alias("y"))
    m = down.groupBy("x").agg(F.min("y").alias("m"))
    linked = down.join(m, "x")
    return (
        linked.select(F.col("y").alias("n"), "m")
        .union(linked.select(F.col("x").alias("n"), "m"))
        .where(F.col("n") != F.col("m"))
        .select(F.least("n", "m").alias("u"), F.greatest("n", "m").alias("v"))
        .distinct()
    )
