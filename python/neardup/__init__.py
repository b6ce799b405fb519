"""neardup: near-duplicate text detection from one Rust core.

The dedup pipeline of the core (shingling, MinHash LSH, SimHash, exact
Jaccard; Broder 1997, Indyk & Motwani 1998, Charikar 2002, Manku et al.
2007), the same bytes as the neardup CLI, npm package and edge Worker:

* :func:`dedup` — a collection's near-duplicate pairs, clusters, and the ids
  to keep;
* :class:`Deduplicator` — the same, one document at a time;
* :class:`Stages` and :func:`clusters_of_edges` — the pipeline's stage
  functions, for engines that process a collection in pieces;
* :class:`MinHash` and :class:`MinHashLSH` — shaped like datasketch's, for
  code ported from it;
* :func:`compare` — every measure of two texts and their shared passages;
* :func:`class_pairs` — the pairs of a class set that share passages, with
  sources, a template, quotations and reference lists left out;
* :func:`class_set` — a whole class run from files and folders, as
  ``neardup class``: a :class:`ClassSet` with the listed pairs' full
  comparisons, ``to_csv()``, ``to_json()`` and ``evidence_pack()``;
* :class:`Error` (a ``ValueError``) and its kinds :class:`ConfigError`,
  :class:`InputError`, :class:`CorruptError`, :class:`VersionError` and
  :class:`LimitError` — every error of neardup's own;
* :func:`decode_text` — a text file's bytes as text (BOM, UTF-8,
  Windows-1252), as every surface reads them;
* :func:`read_files` — one of a class's files (``.txt``, ``.md``, ``.html``,
  ``.docx``, ``.odt``, or a ``.zip`` of them) read by the core's reader, as
  ``neardup class`` and the page read it, hidden text left out and counted;
* :class:`SimHash` and :class:`Fingerprint` — 64-bit SimHash (Charikar 2002);
* :func:`phonetic`, :func:`double_metaphone`, :func:`shingles` and
  :class:`Speller` — phonetic codes and dictionary correction (Varol & Hari
  2015; Philips 2000);
* ``Stages.*_batch``, :func:`components_batch`, :func:`merge_frequencies`
  and :func:`dedup_batch` — the stages, and the whole pipeline, as kernels on
  Arrow columns, for Spark's ``mapInArrow``, Ray's ``map_batches``, Polars
  and DuckDB;
* ``neardup.polars`` (expressions ``pl.col(...).neardup.sketch/keys/similarity``
  and ``dedup(frame)``), ``neardup.duckdb`` (SQL functions and a dedup
  recipe), ``neardup.spark`` and ``neardup.ray`` — imported on their own, each
  needing its engine.
"""

from ._neardup import (
    SPEC_VERSION,
    ConfigError,
    CorruptError,
    Error,
    InputError,
    LimitError,
    VersionError,
    ClassLibrary,
    ClassSet,
    DedupResult,
    Deduplicator,
    Fingerprint,
    MinHash,
    MinHashLSH,
    SimHash,
    Speller,
    Stages,
    class_pairs,
    class_set,
    clusters_of_edges,
    compare,
    components_batch,
    decode_text,
    merge_frequencies,
    dedup,
    dedup_batch,
    double_metaphone,
    phonetic,
    read_files,
    shingles,
)

__all__ = [
    "SPEC_VERSION",
    "ConfigError",
    "CorruptError",
    "Error",
    "InputError",
    "LimitError",
    "VersionError",
    "ClassLibrary",
    "ClassSet",
    "DedupResult",
    "Deduplicator",
    "Fingerprint",
    "MinHash",
    "MinHashLSH",
    "SimHash",
    "Speller",
    "Stages",
    "class_pairs",
    "class_set",
    "clusters_of_edges",
    "compare",
    "components_batch",
    "decode_text",
    "merge_frequencies",
    "dedup",
    "dedup_batch",
    "double_metaphone",
    "phonetic",
    "read_files",
    "shingles",
]
