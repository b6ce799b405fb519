"""Dedup on Spark: the core's stage functions in a PySpark job.

``neardup.spark.dedup(df, text_col="text", id_col="id", **options)`` returns a
DataFrame of ``id``, ``cluster`` (the id of the cluster's representative: its
first document in the input's order) and ``keep`` (bool), one row per input
row, with exactly the clusters of :func:`neardup.dedup` on the same rows in
the same order, whatever the number of partitions:

0. with ``weights="tfidf"``: the document frequencies of every partition
   (:meth:`neardup.Stages.count`), merged on the driver
   (:func:`neardup.merge_frequencies`) and given to every task;
1. sketches by ``mapInArrow`` (the batch kernel
   :meth:`neardup.Stages.sketch_batch`: every core of each executor, the GIL
   released, Arrow columns in and out), with their digests
   (:meth:`neardup.Stages.digest_batch`);
2. copies: rows whose sketch equals an earlier row's, each paired with the
   first (:meth:`neardup.Stages.copies_batch` on partitions by digest), so
   a thousand copies of a text are a thousand candidate pairs, not half a
   million;
3. the other rows' bucket keys (:meth:`neardup.Stages.keys_batch`), one row
   per key, and their candidate pairs
   (:meth:`neardup.Stages.bucket_pairs_batch` on partitions by key: MinHash
   takes the first 64 documents of a bucket, as the one-machine
   deduplicator does);
4. verification as a join of the candidates' sketches only, by
   ``mapInArrow`` (:meth:`neardup.Stages.verify_batch`);
5. clusters by the core's components kernel
   (:func:`neardup.components_batch`) on the verified pairs, collected on
   the driver as two Arrow columns (16 bytes a pair); every row is labelled
   by a join with its representative.

Ids must be unique and neither ids nor texts null, as for
:func:`neardup.dedup`: checked before the work, a ``ValueError`` naming the
id. Options are those of :func:`neardup.dedup`. Only ``pyspark`` (with
pyarrow) is needed: ``pip install "./python[spark]"``.
"""

from typing import Any, Iterator, Optional

import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import DataFrame, functions as F
from pyspark.sql.types import BinaryType, BooleanType, LongType, StringType, StructField, StructType

from ._neardup import Stages, components_batch, merge_frequencies

_SKETCH = StructType(
    [StructField("pos", LongType()), StructField("sketch", BinaryType()), StructField("digest", LongType())]
)
_COPY = StructType([StructField("pos", LongType()), StructField("holder", LongType())])
_KEY = StructType([StructField("key", LongType()), StructField("pos", LongType())])
_EDGE = StructType([StructField("a", LongType()), StructField("b", LongType())])
_BYTES = StructType([StructField("bytes", BinaryType())])
_LABEL = StructType([StructField("pos", LongType()), StructField("label", LongType())])


def _stages(options: dict, frequencies: Optional[bytes]) -> Stages:
    stages = Stages(**options)
    return stages.with_frequencies(frequencies) if frequencies is not None else stages


def _refuse_bad_rows(rows: DataFrame) -> None:
    """Null texts or ids, and repeated ids, are refused as neardup.dedup
    refuses them (one small job each)."""
    for col in ("id", "text"):
        nulls = rows.where(F.col(col).isNull()).limit(1).count()
        if nulls:
            raise ValueError(f"{'ids' if col == 'id' else 'texts'} must not be null: a row has a null {col}")
    dup = rows.groupBy("id").count().where(F.col("count") > 1).select("id").limit(1).collect()
    if dup:
        raise ValueError(f"ids must be unique: id {dup[0]['id']!r} is on more than one row")


def dedup(df: DataFrame, text_col: str = "text", id_col: str = "id", **options: Any) -> DataFrame:
    """The near-duplicate clusters of ``df``'s rows (module docs).

    Returns a DataFrame with columns ``id`` (string), ``cluster`` (the
    representative's id) and ``keep`` (True for the representative of each
    cluster and for every row in no pair), one row per input row, in the
    input's order. Raises ``ValueError`` or ``TypeError`` for bad options,
    and ``ValueError`` for null or repeated ids or null texts, before the
    dedup work runs.
    """
    probe = Stages(**options)  # checks the options on the driver
    rows = df.select(
        F.col(id_col).cast(StringType()).alias("id"),
        F.col(text_col).alias("text"),
        F.monotonically_increasing_id().alias("pos"),
    ).cache()
    _refuse_bad_rows(rows)

    frequencies = None
    if probe.needs_frequencies:

        def count(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
            stages = Stages(**options)
            for b in batches:
                yield pa.RecordBatch.from_arrays([pa.array([stages.count(b.column("text"))], pa.binary())], names=["bytes"])

        pieces = [r["bytes"] for r in rows.select("text").mapInArrow(count, _BYTES).collect()]
        frequencies = merge_frequencies(pieces)

    def sketch(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        stages = _stages(options, frequencies)
        for b in batches:
            column = stages.sketch_batch(b.column("text")).cast(pa.binary())
            yield pa.RecordBatch.from_arrays(
                [b.column("pos"), column, stages.digest_batch(column)], names=["pos", "sketch", "digest"]
            )

    sketches = rows.select("pos", "text").mapInArrow(sketch, _SKETCH).cache()
    parts = max(1, sketches.rdd.getNumPartitions())

    def whole(batches: Iterator[pa.RecordBatch]) -> Optional[pa.Table]:
        """A partition's batches as one table (a key's rows are all in it)."""
        tables = [pa.Table.from_batches([b]) for b in batches if b.num_rows]
        return pa.concat_tables(tables).combine_chunks() if tables else None

    def copies(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        t = whole(batches)
        if t is not None:
            yield _stages(options, frequencies).copies_batch(t.column("pos"), t.column("sketch"))

    copied = (
        sketches.where(F.col("digest").isNotNull())
        .repartition(parts, "digest")
        .mapInArrow(copies, _COPY)
        .cache()
    )

    def keys(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        stages = _stages(options, frequencies)
        for b in batches:
            k = stages.keys_batch(b.column("sketch"))
            # Spark's long holds the key's 64 bits (a view, not a conversion).
            yield pa.RecordBatch.from_arrays(
                [k.column("key").view(pa.int64()), b.column("pos").take(k.column("row"))],
                names=["key", "pos"],
            )

    def buckets(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        t = whole(batches)
        if t is not None:
            yield _stages(options, frequencies).bucket_pairs_batch(t.column("key"), t.column("pos"))

    holders = sketches.join(copied.select("pos"), "pos", "left_anti")
    keyed = holders.select("pos", "sketch").mapInArrow(keys, _KEY)
    candidates = (
        keyed.repartition(parts, "key")
        .mapInArrow(buckets, _EDGE)
        .union(copied.select(F.col("holder").alias("a"), F.col("pos").alias("b")))
        .distinct()
    )
    sa, sb = sketches.alias("sa"), sketches.alias("sb")
    joined = (
        candidates.join(sa, F.col("a") == F.col("sa.pos"))
        .join(sb, F.col("b") == F.col("sb.pos"))
        .select("a", "b", F.col("sa.sketch").alias("sketch_a"), F.col("sb.sketch").alias("sketch_b"))
    )

    def verify(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        stages = _stages(options, frequencies)
        for b in batches:
            found = pc.is_valid(stages.verify_batch(b.column("sketch_a"), b.column("sketch_b")))
            yield pa.RecordBatch.from_arrays(
                [b.column("a").filter(found), b.column("b").filter(found)], names=["a", "b"]
            )

    edges = joined.mapInArrow(verify, _EDGE).toArrow()
    labels = components_batch(edges.column("a"), edges.column("b"))
    labelled = df.sparkSession.createDataFrame(
        pa.table({"pos": labels.column("pos"), "label": labels.column("cluster")}), _LABEL
    )
    ids = rows.select("pos", "id")
    rep = ids.select(F.col("pos").alias("label"), F.col("id").alias("cluster"))
    return (
        ids.join(labelled, "pos", "left")
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
