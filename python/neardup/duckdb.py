"""neardup in DuckDB: the core's kernels as vectorised SQL functions, and a
SQL recipe that deduplicates a table.

``neardup.duckdb.register(con, **options)`` adds to a connection, as Arrow
functions (a whole vector of rows a call, read by the Rust kernels from the
Arrow buffers, the GIL released):

* ``neardup_sketch(text VARCHAR) -> BLOB`` — the sketch bytes of the text,
  the same as :meth:`neardup.Stages.sketch` (SPEC.md §14);
* ``neardup_keys(sketch BLOB) -> UBIGINT[]`` — its bucket keys: two sketches
  are candidate pairs exactly when they share one (Indyk & Motwani 1998);
* ``neardup_similarity(a BLOB, b BLOB) -> DOUBLE`` — the similarity of a
  candidate pair when it is a near-duplicate pair, else NULL.

NULL in gives NULL out. :func:`dedup` gives a table's clusters through the
core's whole pipeline (``via="kernel"``, the default) or through this
recipe (``via="sql"``). The recipe (:data:`RECIPE`)
is the one-machine pipeline in SQL — sketches; rows whose sketch equals an
earlier row's paired with the first (a thousand copies are a thousand
candidate pairs, not half a million); the other rows' keys; each row paired
with the earlier rows among its bucket's first ``bucket_cap`` (MinHash: 64);
verification — and its connected components by the core's kernel
(:func:`neardup.components_batch`), so the clusters are exactly those of
:func:`neardup.dedup` on the same rows. Options are those of
:func:`neardup.dedup` (not ``weights="tfidf"``: SQL functions see a vector
at a time, not the collection). Needs ``duckdb`` and ``numpy``, which
DuckDB's Python functions use (``pip install "neardup[duckdb]"``).
"""

from typing import Any, Optional

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from ._neardup import ConfigError, InputError, Speller, Stages, components_batch, dedup_batch

__all__ = ["register", "dedup", "RECIPE"]

RECIPE = """
-- 1. one row per document, numbered in the table's order, with its sketch
--    ({source}: the table itself when it has a rowid, else a copy of it,
--    which keeps the insertion order)
CREATE OR REPLACE TEMP TABLE nd_rows AS
  SELECT rowid AS pos, {id} AS id, neardup_sketch({text}) AS sketch FROM {source};
-- 2. each row with the first row of the same sketch (its holder), and its keys
CREATE OR REPLACE TEMP TABLE nd_holders AS
  SELECT pos, min(pos) OVER (PARTITION BY sketch) AS holder, neardup_keys(sketch) AS keys FROM nd_rows;
-- 3. the holders' bucket keys, each row's rank in its bucket
CREATE OR REPLACE TEMP TABLE nd_buckets AS
  SELECT key, pos, row_number() OVER (PARTITION BY key ORDER BY pos) AS rank
  FROM (SELECT unnest(keys) AS key, pos FROM nd_holders WHERE holder = pos);
-- 4. candidate pairs: each row with the earlier rows among its bucket's first
--    {cap} (every row of the bucket for SimHash, multiref, exact), and each copy with its holder
CREATE OR REPLACE TEMP TABLE nd_candidates AS
  SELECT DISTINCT a.pos AS u, b.pos AS v
  FROM nd_buckets a JOIN nd_buckets b ON a.key = b.key AND a.pos < b.pos
  WHERE a.rank <= {cap}
  UNION
  SELECT holder AS u, pos AS v FROM nd_holders WHERE holder < pos AND len(keys) > 0;
-- 5. the near-duplicate pairs among them
CREATE OR REPLACE TEMP TABLE nd_edges AS
  SELECT u, v, similarity FROM (
    SELECT c.u, c.v, neardup_similarity(a.sketch, b.sketch) AS similarity
    FROM nd_candidates c JOIN nd_rows a ON a.pos = c.u JOIN nd_rows b ON b.pos = c.v)
  WHERE similarity IS NOT NULL;
"""
"""The SQL of :func:`dedup` before the components, with ``{source}`` (a
table with a ``rowid`` in the order to keep), ``{text}``, ``{id}`` and
``{cap}`` to fill (the bucket cap: 64 for MinHash,
a number past the table's rows otherwise); the verified pairs end in the
temporary table ``nd_edges (u, v, similarity)``, positions of ``nd_rows``."""


def _stages(dictionary: Optional[Speller], reference: Optional[str], options: Any) -> Stages:
    kwargs = dict(options)
    if dictionary is not None:
        kwargs["dictionary"] = dictionary
    if reference is not None:
        kwargs["reference"] = reference
    stages = Stages(**kwargs)
    if stages.needs_frequencies:
        raise ConfigError(
            'weights="tfidf" needs the whole collection\'s document frequencies, which a SQL function '
            "does not see: use neardup.dedup or neardup.polars.dedup"
        )
    return stages


def register(
    con: "duckdb.DuckDBPyConnection",
    *,
    dictionary: Optional[Speller] = None,
    reference: Optional[str] = None,
    **options: Any,
) -> "duckdb.DuckDBPyConnection":
    """Adds ``neardup_sketch``, ``neardup_keys`` and ``neardup_similarity``
    (module docs) to ``con`` for the options given (those of
    :func:`neardup.dedup`), replacing any registered before; returns ``con``.
    ``neardup.ConfigError`` for a bad option; a query raises
    ``duckdb.InvalidInputException`` naming the row for a text over
    ``max_bytes`` or a sketch of another configuration."""
    stages = _stages(dictionary, reference, options)
    for name in ("neardup_sketch", "neardup_keys", "neardup_similarity"):
        try:
            con.remove_function(name)
        except Exception:  # not registered yet
            pass

    def sketch(texts: pa.Array) -> pa.Array:
        return stages.sketch_batch(texts).cast(pa.binary())

    def keys(sketches: pa.Array) -> pa.Array:
        return stages.keys_list_batch(sketches)

    empty = stages.sketch_batch(pa.array([""]))[0].as_py()

    def similarity(a: pa.Array, b: pa.Array) -> pa.Array:
        # Called with NULLs too (its answer is NULL for a pair that is not a
        # near-duplicate pair): a NULL sketch is the empty one, which matches nothing.
        return stages.verify_batch(pc.fill_null(a, empty), pc.fill_null(b, empty))

    blob, text = duckdb.sqltype("BLOB"), duckdb.sqltype("VARCHAR")
    con.create_function("neardup_sketch", sketch, [text], blob, type="arrow")
    con.create_function("neardup_keys", keys, [blob], duckdb.list_type(duckdb.sqltype("UBIGINT")), type="arrow")
    con.create_function(
        "neardup_similarity", similarity, [blob, blob], duckdb.sqltype("DOUBLE"), type="arrow", null_handling="special"
    )
    return con


def _arrow(relation: "duckdb.DuckDBPyRelation") -> pa.Table:
    """A relation's rows as a pyarrow table (duckdb 2 renamed ``arrow``)."""
    return relation.to_arrow_table() if hasattr(relation, "to_arrow_table") else relation.arrow()


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def dedup(
    con: "duckdb.DuckDBPyConnection",
    table: str,
    text: str = "text",
    id: str = "id",
    *,
    dictionary: Optional[Speller] = None,
    reference: Optional[str] = None,
    via: str = "kernel",
    **options: Any,
) -> "duckdb.DuckDBPyRelation":
    """The near-duplicate clusters of ``table``'s rows (a table or view name
    of ``con``): a relation of ``id``, ``cluster`` (the id of the cluster's
    representative, its first row in the table's order) and ``keep``
    (BOOLEAN), one row per row of the table in its order — exactly the
    clusters of :func:`neardup.dedup` on the same rows and options.

    ``via="kernel"`` (default): the id and text columns read out as Arrow
    and given to :func:`neardup.dedup_batch` (the core's pipeline whole, the
    GIL released), the result registered as the view ``nd_result``; any
    option, ``weights="tfidf"`` included. ``via="sql"``: :data:`RECIPE` in
    DuckDB and the core's components kernel (module docs), leaving the
    recipe's temporary tables ``nd_*`` and the view ``nd_labels`` on
    ``con``, the functions registered for these options. The same clusters
    either way (tested); the kernel costs about ``neardup.dedup``'s CPU, the
    recipe 1.2–1.4× (BENCHMARKS.md). ``neardup.InputError`` for a null or
    repeated id or a null text; ``ConfigError`` for a bad option or ``via``."""
    if via not in ("kernel", "sql"):
        raise ConfigError(f'invalid option via: must be "kernel" or "sql", got {via!r}')
    kwargs = dict(options)
    if dictionary is not None:
        kwargs["dictionary"] = dictionary
    if reference is not None:
        kwargs["reference"] = reference
    stages = Stages(**kwargs) if via == "kernel" else _stages(dictionary, reference, options)
    columns = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {_ident(table)}").fetchall()]
    for name in (text, id):
        if name not in columns:
            raise InputError(f"the table {table!r} has no column {name!r} (columns: {columns})")
    t, i = _ident(text), _ident(id)
    nulls = con.execute(f"SELECT count(*) FILTER ({i} IS NULL), count(*) FILTER ({t} IS NULL) FROM {_ident(table)}").fetchall()[0]
    if nulls[0]:
        raise InputError(f"ids must not be null: {nulls[0]} rows have a null {id}")
    if nulls[1]:
        raise InputError(f"texts must not be null: {nulls[1]} rows have a null {text}")
    repeated = con.execute(f"SELECT {i} FROM {_ident(table)} GROUP BY {i} HAVING count(*) > 1 LIMIT 1").fetchall()
    if repeated:
        raise InputError(f"ids must be unique: id {repeated[0][0]!r} is on more than one row")
    cap = stages.bucket_cap if stages.bucket_cap is not None else 2**62
    try:  # a base table numbers its rows in insertion order
        con.execute(f"SELECT rowid FROM {_ident(table)} LIMIT 0").fetchall()
        source = _ident(table)
    except duckdb.Error:  # a view: copied, which keeps its order
        con.execute(f"CREATE OR REPLACE TEMP TABLE nd_input AS SELECT * FROM {_ident(table)}")
        source = "nd_input"
    if via == "kernel":
        rows = _arrow(con.sql(f"SELECT {i} AS id, {t} AS text FROM {source} ORDER BY rowid"))
        found = dedup_batch(rows.column("text"), rows.column("id").cast(pa.string()), **kwargs)
        result = pa.table(
            {"id": rows.column("id"), "cluster": rows.column("id").take(found.column("cluster")), "keep": found.column("keep")}
        )
        con.register("nd_result", result)
        return con.sql("SELECT id, cluster, keep FROM nd_result")
    register(con, dictionary=dictionary, reference=reference, **options)
    con.execute(RECIPE.format(source=source, text=t, id=i, cap=cap))
    edges = _arrow(con.sql("SELECT u, v FROM nd_edges"))
    labels = pa.table(components_batch(edges.column("u"), edges.column("v")))
    con.register("nd_labels", labels)
    return con.sql(
        """
        SELECT r.id AS id, coalesce(rep.id, r.id) AS cluster, coalesce(l.cluster, r.pos) = r.pos AS keep
        FROM nd_rows r
        LEFT JOIN nd_labels l ON l.pos = r.pos
        LEFT JOIN nd_rows rep ON rep.pos = l.cluster
        ORDER BY r.pos
        """
    )
