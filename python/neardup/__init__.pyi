"""Type stubs of neardup's Python binding (the Rust core's dedup pipeline)."""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

SPEC_VERSION: int
"""Version of the shingle hashing and normalisation specification (SPEC.md)."""

Texts = Union[Sequence[str], Any]
"""A sequence of str, or a pyarrow string / large_string array."""

class DedupResult:
    """What :func:`dedup` found."""

    pairs: List[Tuple[str, str, float]]
    """Every near-duplicate pair once, ``(a, b, similarity)``, ``a`` before ``b`` in input order; similarity in [0, 1]."""
    clusters: List[List[str]]
    """Clusters of two ids or more, each in input order (its first member is kept), ordered by first member."""
    keep: List[str]
    """The ids to keep, in input order."""
    summary: Dict[str, int]
    """``{"documents", "pairs", "clusters", "duplicates"}``."""

def dedup(texts: Texts, ids: Optional[Texts] = None, **options: Any) -> DedupResult:
    """Finds the near-duplicates of a collection with the core's pipeline.

    Defaults of ``neardup dedup``: MinHash LSH over character 5-grams, 128
    one-permutation values, estimated Jaccard >= 0.5 (Broder 1997; Indyk &
    Motwani 1998; Shrivastava 2017). Options (snake_case): ``method``
    ("minhash", "simhash", "exact"), ``shingle``, ``threshold`` in (0, 1),
    ``seed``, ``verify``, ``num_perm``, ``scheme`` ("oph", "classic"),
    ``bands``, ``rows``, ``fp_weight``, ``fn_weight``, ``candidates``, ``k``,
    ``blocks``, ``weights`` ("tf", "binary"). The GIL is released while it
    works; texts are sketched on every core.

    Raises TypeError for a text or id that is not a str (naming its
    position) or an unknown option; ValueError for a bad option value or a
    duplicate id (naming its position).
    """

class Deduplicator:
    """The dedup pipeline one document at a time; picklable (its snapshot bytes)."""

    def __init__(self, **options: Any) -> None:
        """An empty deduplicator; options as :func:`dedup`. Raises ValueError/TypeError for bad options."""
    def add(self, id: str, text: str) -> List[Tuple[str, float]]:
        """Adds ``id``; returns ``[(id, similarity)]`` of the near-duplicates already added, best first. ValueError for an id already held."""
    def remove(self, id: str) -> bool:
        """Removes ``id``; False when it was not held."""
    def __contains__(self, id: str) -> bool: ...
    def __len__(self) -> int: ...
    def pairs(self) -> List[Tuple[str, str, float]]:
        """Every pair once, ``(a, b, similarity)``, ``a`` added before ``b``."""
    def clusters(self) -> List[List[str]]:
        """Clusters of two ids or more, in the order added; the first of each is kept."""
    def keep(self) -> List[str]:
        """The ids to keep, in the order added."""
    def duplicates(self) -> List[str]:
        """The ids :meth:`keep` drops, in the order added."""
    def summary(self) -> Dict[str, int]:
        """``{"documents", "pairs", "clusters", "duplicates"}``."""
    def to_bytes(self) -> bytes:
        """Versioned, checksummed snapshot bytes (SPEC.md §14), the same as in Rust and JavaScript."""
    @staticmethod
    def from_bytes(data: bytes) -> "Deduplicator":
        """Reads :meth:`to_bytes` output; ValueError for damaged or other-version bytes."""

class Stages:
    """The pipeline's stage functions (SPEC.md §14), byte-identical to Rust and wasm."""

    def __init__(self, **options: Any) -> None:
        """Options as :func:`dedup`."""
    def sketch(self, texts: List[str]) -> List[bytes]:
        """The sketch bytes of each text, on every core, GIL released."""
    def keys(self, sketch: bytes) -> List[int]:
        """The bucket keys of a sketch (unsigned 64-bit); candidates share a key."""
    def verify(self, a: bytes, b: bytes) -> Optional[float]:
        """The similarity of a candidate pair when it is a near-duplicate pair, else None."""

def clusters_of_edges(edges: List[Tuple[int, int]]) -> List[List[int]]:
    """Clusters of pairs of positions, each sorted (its least position first), ordered by it."""
