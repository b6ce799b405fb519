"""Type stubs of neardup's native module `neardup._neardup` (the Rust core's dedup pipeline), checked against it by mypy.stubtest in `npm test`."""

from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union, final

from os import PathLike

from typing_extensions import Self, TypedDict, Unpack

SPEC_VERSION: int
"""Version of the shingle hashing and normalisation specification (SPEC.md)."""

_Texts = Union[Sequence[str], Any]
"""A sequence of str, or a pyarrow string / large_string array."""

__all__ = [
    "ClassLibrary",
    "ClassSet",
    "ConfigError",
    "CorruptError",
    "DedupResult",
    "Deduplicator",
    "Error",
    "Fingerprint",
    "InputError",
    "LimitError",
    "MinHash",
    "MinHashLSH",
    "SPEC_VERSION",
    "SimHash",
    "Speller",
    "Stages",
    "VersionError",
    "class_pairs",
    "class_set",
    "clusters_of_edges",
    "compare",
    "components_batch",
    "decode_text",
    "dedup",
    "dedup_batch",
    "double_metaphone",
    "merge_frequencies",
    "phonetic",
    "read_files",
    "shingles",
]

@final
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

class Error(ValueError):
    """Every error of neardup's own: a ValueError, so ``except ValueError`` keeps working. Catch this, or a kind."""

class ConfigError(Error):
    """An option out of range, unknown, or of another method (the core's InvalidOption); the message names it."""

class InputError(Error):
    """A text, id, sketch or Arrow column that cannot be used: empty, a duplicate id, a sketch of another
    configuration, a lone surrogate, invalid Arrow data; the message names which (``texts[3]: …``)."""

class CorruptError(Error):
    """Bytes that are damaged or not what they claim: a snapshot, a library, a sketch (the core's Corrupt)."""

class VersionError(Error):
    """Bytes of another format or spec version than this build reads (the core's Version)."""

class LimitError(Error):
    """A text over ``max_bytes`` (the core's TooLarge), or an index that is full."""

def dedup(
    texts: _Texts,
    ids: Optional[_Texts] = None,
    *,
    dictionary: Optional["Speller"] = None,
    reference: Optional[str] = None,
    method: Optional[Literal["minhash", "simhash", "exact", "multiref"]] = None,
    shingle: Optional[str] = None,
    threshold: Optional[float] = None,
    seed: Optional[int] = None,
    verify: Optional[bool] = None,
    num_perm: Optional[int] = None,
    scheme: Optional[Literal["oph", "classic"]] = None,
    bands: Optional[int] = None,
    rows: Optional[int] = None,
    fp_weight: Optional[float] = None,
    fn_weight: Optional[float] = None,
    candidates: Optional[bool] = None,
    k: Optional[int] = None,
    blocks: Optional[int] = None,
    weights: Optional[Literal["tf", "binary", "tfidf"]] = None,
    fold_diacritics: Optional[bool] = None,
    unmask: Optional[bool] = None,
    spec: Optional[Literal[1, 2]] = None,
) -> DedupResult:
    """Finds the near-duplicates of a collection with the core's pipeline.

    Defaults of ``neardup dedup``: MinHash LSH over character 5-grams, 128
    one-permutation values, estimated Jaccard >= 0.5 (Broder 1997; Indyk &
    Motwani 1998; Shrivastava 2017). Options (snake_case, the core's
    ``DedupConfig``): ``method`` ("minhash", "simhash", "exact",
    "multiref"), ``shingle`` ("char:5", "word:3", "word:3+correct", …),
    ``threshold`` in (0, 1), ``seed``, ``verify``, ``num_perm``, ``scheme``
    ("oph", "classic"), ``bands``, ``rows``, ``fp_weight``, ``fn_weight``,
    ``candidates``, ``k``, ``blocks``, ``weights`` ("tf", "binary",
    "tfidf": the collection's document frequencies counted first),
    ``fold_diacritics`` (fold é as e, ä/ö/ü as ae/oe/ue before shingling,
    SPEC.md §1; default False), ``unmask`` (undo the tricks that hide a
    copy before shingling: invisible characters removed, look-alike letters
    of another script read as the letters they imitate, SPEC.md §1 step 0;
    default True; a snapshot keeps what it was made with), ``spec`` (the shingle hash specification's
    version, SPEC.md §3: 2, the default (XXH3-64 tokens and q-grams,
    polynomial word shingles, faster), or 1, the default before; a snapshot
    is read at its own; sketches of the two never mix).
    ``dictionary``: for "word:K+correct" (default: the bundled English one);
    ``reference``: a reference JSON text for "multiref" (default: the
    bundled one). The GIL is released while it works; texts are sketched on
    every core; Ctrl-C stops it between batches.

    Raises TypeError for a text or id that is not a str (naming its
    position), an unknown option or one of the wrong type; ValueError for a
    bad option value, an option that does not apply, or a duplicate id
    (naming its position) — the core's words, as in the CLI and npm.
    """

def dedup_batch(
    texts: _Texts,
    ids: Optional[_Texts] = None,
    *,
    dictionary: Optional["Speller"] = None,
    reference: Optional[str] = None,
    method: Optional[Literal["minhash", "simhash", "exact", "multiref"]] = None,
    shingle: Optional[str] = None,
    threshold: Optional[float] = None,
    seed: Optional[int] = None,
    verify: Optional[bool] = None,
    num_perm: Optional[int] = None,
    scheme: Optional[Literal["oph", "classic"]] = None,
    bands: Optional[int] = None,
    rows: Optional[int] = None,
    fp_weight: Optional[float] = None,
    fn_weight: Optional[float] = None,
    candidates: Optional[bool] = None,
    k: Optional[int] = None,
    blocks: Optional[int] = None,
    weights: Optional[Literal["tf", "binary", "tfidf"]] = None,
    fold_diacritics: Optional[bool] = None,
    unmask: Optional[bool] = None,
    spec: Optional[Literal[1, 2]] = None,
) -> Any:
    """Batch kernel of the whole pipeline: the clusters of :func:`dedup` on the same texts and options as a pyarrow
    RecordBatch of one row per text, in input order: ``cluster`` (int64, the position of the cluster's first row; a
    row in no cluster is its own) and ``keep`` (bool). Ids (default positions) only name rows in errors and must be
    unique. Errors as :func:`dedup`."""

@final
class Deduplicator:
    """The dedup pipeline one document at a time; picklable (its snapshot bytes)."""

    def __new__(
        cls,
        *,
        dictionary: Optional["Speller"] = None,
        reference: Optional[str] = None,
        method: Optional[Literal["minhash", "simhash", "exact", "multiref"]] = None,
        shingle: Optional[str] = None,
        threshold: Optional[float] = None,
        seed: Optional[int] = None,
        verify: Optional[bool] = None,
        num_perm: Optional[int] = None,
        scheme: Optional[Literal["oph", "classic"]] = None,
        bands: Optional[int] = None,
        rows: Optional[int] = None,
        fp_weight: Optional[float] = None,
        fn_weight: Optional[float] = None,
        candidates: Optional[bool] = None,
        k: Optional[int] = None,
        blocks: Optional[int] = None,
        weights: Optional[Literal["tf", "binary", "tfidf"]] = None,
        fold_diacritics: Optional[bool] = None,
        unmask: Optional[bool] = None,
        spec: Optional[Literal[1, 2]] = None,
    ) -> Self:
        """An empty deduplicator; options as :func:`dedup` but ``weights="tfidf"`` (a stream has no collection to count). Raises ValueError/TypeError for bad options. Safe to share between threads: its calls take turns."""
    def add(self, id: str, text: str) -> List[Tuple[str, float]]:
        """Adds ``id``; returns ``[(id, similarity)]`` of the near-duplicates already added that it pairs with — at most one of each cluster (a copy: its first copy), best first (SPEC.md §14). ValueError for an id already held."""
    def query(self, text: str) -> List[Tuple[str, float]]:
        """``[(id, similarity)]`` as :meth:`add` would answer (one document of each cluster), best first, without adding it."""
    def remove(self, id: str) -> bool:
        """Removes ``id``; False when it was not held."""
    def __contains__(self, id: str, /) -> bool: ...
    def __len__(self) -> int: ...
    def pairs(self) -> List[Tuple[str, str, float]]:
        """The pairs made, ``(a, b, similarity)``, ``a`` added before ``b``: ``n - 1`` in a cluster of ``n`` (what :meth:`add` returned)."""
    def all_pairs(self, max_pairs: int = 10_000_000) -> List[Tuple[str, str, float]]:
        """Every near-duplicate pair within clusters, as :meth:`pairs`; ValueError naming ``max_pairs``, before any work, when the clusters hold more pairs of members than that."""
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
    def __getstate__(self) -> bytes:
        """Pickling: the snapshot bytes."""
    def __setstate__(self, state: bytes, /) -> None:
        """Unpickling: reads snapshot bytes (with the bundled reference and dictionary)."""
    def __getnewargs_ex__(self) -> Tuple[Tuple[()], Dict[str, Any]]: ...
    @staticmethod
    def from_bytes(data: bytes, *, dictionary: Optional["Speller"] = None, reference: Optional[str] = None) -> "Deduplicator":
        """Reads :meth:`to_bytes` output (with the dictionary or reference it needs; the bundled ones by default); ValueError for damaged or other-version bytes."""

@final
class Stages:
    """The pipeline's stage functions (SPEC.md §14), byte-identical to Rust and wasm."""

    def __new__(
        cls,
        *,
        dictionary: Optional["Speller"] = None,
        reference: Optional[str] = None,
        method: Optional[Literal["minhash", "simhash", "exact", "multiref"]] = None,
        shingle: Optional[str] = None,
        threshold: Optional[float] = None,
        seed: Optional[int] = None,
        verify: Optional[bool] = None,
        num_perm: Optional[int] = None,
        scheme: Optional[Literal["oph", "classic"]] = None,
        bands: Optional[int] = None,
        rows: Optional[int] = None,
        fp_weight: Optional[float] = None,
        fn_weight: Optional[float] = None,
        candidates: Optional[bool] = None,
        k: Optional[int] = None,
        blocks: Optional[int] = None,
        weights: Optional[Literal["tf", "binary", "tfidf"]] = None,
        fold_diacritics: Optional[bool] = None,
        unmask: Optional[bool] = None,
        spec: Optional[Literal[1, 2]] = None,
    ) -> Self:
        """Options as :func:`dedup`."""
    @property
    def needs_frequencies(self) -> bool:
        """True while tf-idf weights still need the collection's document frequencies."""
    def count(self, texts: _Texts) -> bytes:
        """With ``weights="tfidf"``: the document frequencies of ``texts`` as versioned bytes (SPEC.md §14); merge pieces with :func:`merge_frequencies`."""
    def with_frequencies(self, frequencies: bytes) -> "Stages":
        """These stages with the collection's document frequencies: the stages of tf-idf sketches."""
    def sketch(self, texts: _Texts) -> List[bytes]:
        """The sketch bytes of each text, on every core, GIL released. ValueError naming ``texts[i]``."""
    def sketch_batch(self, texts: _Texts) -> Any:
        """Batch kernel: a pyarrow column of the sketches, row i of text i: ``fixed_size_binary[w]`` when every sketch has width w (no shingle set kept), else ``binary``."""
    @property
    def bucket_cap(self) -> Optional[int]:
        """At most how many documents of a bucket are candidates of a new one (MinHash, multiref, exact: 64); None for all (SimHash)."""
    def digest_batch(self, sketches: Any) -> Any:
        """Batch kernel: a pyarrow int64 column of each sketch's digest (its bits), null for an empty sketch; equal sketches have equal digests."""
    def copies_batch(self, pos: Any, sketches: Any) -> Any:
        """Batch kernel: given every row of some digest groups, a RecordBatch of ``pos`` and ``holder`` (int64): each row whose sketch equals one at a lower position, with the least such position. Only holders need bucket keys."""
    def bucket_pairs_batch(self, key: Any, pos: Any) -> Any:
        """Batch kernel: given every row of some keys (int64 or uint64 keys), a RecordBatch of candidate pairs ``a < b`` (int64) as the deduplicator finds them: each position with every lower one among its bucket's first ``bucket_cap``."""
    def keys_list_batch(self, sketches: Any) -> Any:
        """Batch kernel: a pyarrow ``list<uint64>`` column, row i the bucket keys of sketch i (empty for an empty sketch). ValueError naming ``sketches[i]``."""
    def keys_batch(self, sketches: Any) -> Any:
        """Batch kernel: a pyarrow RecordBatch of one row per bucket key, ``row`` (int64, the sketch's row) and ``key`` (uint64). ValueError naming ``sketches[i]`` for a damaged or foreign sketch."""
    def verify_batch(self, a: Any, b: Any) -> Any:
        """Batch kernel: pyarrow float64 column, row i the similarity of candidate pair ``(a[i], b[i])`` when it is a near-duplicate pair, else null. ValueError for columns of different lengths."""
    def keys(self, sketch: bytes) -> List[int]:
        """The bucket keys of a sketch (unsigned 64-bit); candidates share a key."""
    def verify(self, a: bytes, b: bytes) -> Optional[float]:
        """The similarity of a candidate pair when it is a near-duplicate pair, else None."""

def clusters_of_edges(edges: List[Tuple[int, int]]) -> List[List[int]]:
    """Clusters of pairs of positions, each sorted (its least position first), ordered by it."""

def merge_frequencies(pieces: List[bytes]) -> bytes:
    """Document-frequency bytes of pieces of a collection (:meth:`Stages.count`) merged into the whole's."""

def decode_text(data: bytes) -> Tuple[str, str]:
    """A text file's bytes decoded as every surface decodes them: byte-order mark, else UTF-8 when valid, else Windows-1252. ``(text, encoding)``, encoding "UTF-8", "UTF-16LE", "UTF-16BE" or "windows-1252"."""

def read_files(path: str, data: bytes, max_text: Optional[int] = None) -> Dict[str, Any]:
    """One of a class's files read by the core's reader, as ``neardup class`` and the page read them (the format by the bytes; a zip archive entry by entry; hidden text — Word's hidden, white or 2-pt text, an .odt's hidden paragraphs, HTML ``display:none`` — left out and counted). ``{"texts": [{"path", "text", "format", "hidden_runs", "hidden_bytes", "sha256"}], "failed": [(path, reason)], "text_bytes": int}``; bad bytes are in ``failed``, never raised."""

def components_batch(a: Any, b: Any) -> Any:
    """Batch kernel: connected components of edges ``a[i]``–``b[i]`` (pyarrow int64 columns of positions) as a RecordBatch of ``pos`` and ``cluster`` (the least position of its component), ``pos`` ascending; positions in no edge are absent."""

@final
class Fingerprint:
    """A 64-bit SimHash fingerprint with the configuration that made it (Charikar 2002; SPEC.md §10)."""

    @staticmethod
    def from_value(value: int) -> "Fingerprint":
        """A fingerprint of custom features, ``value`` in 0..2**64; compared only with other custom ones."""
    @property
    def value(self) -> int:
        """The 64 bits, in 0..2**64."""
    @property
    def hex(self) -> str:
        """16 lowercase hex digits."""
    @property
    def is_empty(self) -> bool:
        """True for a text without features: it matches nothing."""
    @property
    def config(self) -> Dict[str, Any]:
        """``{"shingle", "weights", "seed", "spec"}`` (``spec``: the hash specification's version, 1 or 2)."""
    def distance(self, other: "Fingerprint") -> int:
        """Hamming distance 0..=64; ValueError when the configurations differ."""

@final
class SimHash:
    """64-bit SimHash fingerprints of texts (Charikar 2002)."""

    @staticmethod
    def fingerprint(
        text: str, *, shingle: str = "word:3", weights: str = "tf", seed: int = 0, spec: Literal[1, 2] = 1
    ) -> Fingerprint:
        """The 64-bit SimHash fingerprint of ``text`` (Charikar 2002); the GIL is released while the text is
        normalised and hashed, so threads fingerprint in parallel. ConfigError (a ValueError) for a bad option,
        named."""
    @staticmethod
    def from_shingles(hashes: Sequence[int]) -> Fingerprint:
        """Fingerprint of 64-bit feature hashes, each occurrence weighing 1; no hashes give the empty fingerprint (it matches nothing)."""
    @staticmethod
    def hamming_distance(a: int, b: int) -> int:
        """Differing bits of two 64-bit values, 0..=64."""
    @staticmethod
    def cosine_estimate(distance: int) -> float:
        """cos(pi d / 64) for d in 0..=64 (Charikar 2002); ValueError outside."""

def phonetic(word: str, algorithm: str) -> str:
    """Phonetic code of ``word``: "soundex", "phonex", "dsound", "soundd", "phonix" (Varol & Hari 2015) or "metaphone" (Philips 2000); SPEC.md §13. ValueError for an unknown algorithm."""

def double_metaphone(word: str, max_length: Optional[int] = None) -> Tuple[str, str]:
    """(primary, alternate) Double Metaphone codes, full length or cut to ``max_length`` (1..=64)."""

def shingles(text: str, shingle: str, seed: int = 0, spec: Literal[1, 2] = 1) -> List[int]:
    """Shingle hashes (unsigned 64-bit) by position for "word:K", "char:Q", "phonetic:K" or "phonetic:ALGO:K" (SPEC.md §3, §13),
    hashed under spec version ``spec`` (1, or 2: XXH3-64 and polynomial word shingles, §3a); ValueError otherwise."""

@final
class ClassLibrary:
    """A reference library for class sets: winnowed phrase fingerprints of named texts (sources, model answers,
    past classes; their texts kept as an option: ``keep_texts``), saved as bytes that are the same on every platform (SPEC.md §15), against which a
    class is checked one way (Schleimer, Wilkerson & Aiken 2003). As ``neardup library build`` and the npm
    ``ClassLibrary``."""

    def __new__(
        cls,
        *,
        char_q: Optional[int] = None,
        window: Optional[int] = None,
        word_k: Optional[int] = None,
        seed: Optional[int] = None,
        stock_share: Optional[float] = None,
        min_containment: Optional[float] = None,
        adaptive_cut_off: Optional[bool] = None,
        min_shared: Optional[int] = None,
        ignore_quotes: Optional[bool] = None,
        ignore_references: Optional[bool] = None,
        fold_diacritics: Optional[bool] = None,
        unmask: Optional[bool] = None,
        max_bytes: Optional[int] = None,
    ) -> Self:
        """An empty library fingerprinting as ``class_pairs`` does with these options (those of ``class_pairs``;
        ``char_q``, ``window``, ``word_k``, ``seed``, ``ignore_quotes``, ``ignore_references``, ``fold_diacritics`` and
        ``max_bytes`` decide the fingerprints, the others only a class's check); ConfigError for a bad one."""

    @staticmethod
    def from_bytes(data: bytes) -> "ClassLibrary":
        """A library's bytes (``to_bytes``, ``neardup library build``, the page); ValueError naming what is wrong
        for damaged, truncated or other-version bytes."""

    def add(self, names: Sequence[str], texts: Sequence[str]) -> None:
        """Adds texts under names (one name per text); ValueError for lengths that differ or a text over
        ``max_bytes`` (nothing added then)."""

    def keep_texts(self, keep: bool) -> None:
        """Whether the texts added from now on are kept (default False; a library read from bytes keeps texts when
        it holds one). A kept text lets ``class_set(..., library=...)`` compare a match with it in full (verdict,
        passages), at the cost of its UTF-8 bytes in the file (format 2, SPEC.md §15)."""

    def text(self, i: int) -> Optional[str]:
        """Library text ``i``'s kept text (``i`` an index of ``names``), or None when it was not kept or ``i`` is out
        of range."""

    def check(
        self, students: Sequence[str], min_containment: float = 0.05, min_shared: Optional[int] = None
    ) -> List[Dict[str, Any]]:
        """Each student's text against every library text, one way: ``[{"student", "text", "shared",
        "containment", "containmentLibrary"}]`` where containment (share of the student's fingerprints in the
        library text, in [0, 1]) reaches ``min_containment`` and the two share at least ``min_shared`` (≥ 1;
        ``None``: the core's 3, chosen on data: EVALUATION.md "Library matches") fingerprints, highest first; ``text`` indexes
        ``names``. Raises ``ValueError`` for ``min_shared`` 0 or ``min_containment`` outside [0, 1]."""

    def to_bytes(self) -> bytes:
        """The library as bytes (SPEC.md §15)."""

    @property
    def names(self) -> List[str]:
        """The texts' names, in the order added."""

    def __len__(self) -> int: ...

@final
class Speller:
    """Dictionary correction of misspelt words (Varol & Hari 2015; SPEC.md §13)."""

    @staticmethod
    def from_bytes(data: bytes) -> "Speller":
        """A dictionary written by ``neardup spell --from-counts``; ValueError for damaged or other-version bytes."""
    @staticmethod
    def english() -> "Speller":
        """The bundled English dictionary (about 0.3 s and 40 MB to index; the corrections found are remembered,
        up to 2**17 words, at most about 26 MB more, shared by the threads using it)."""
    def __len__(self) -> int: ...
    def __contains__(self, word: str, /) -> bool: ...
    def correct(self, word: str) -> str:
        """The correction of ``word``, or ``word`` when known, without Latin letters, or nothing is close."""
    def correct_text(self, text: str) -> str:
        """``text`` with every misspelt word corrected, the rest kept."""
    def candidates(self, word: str, max: int = 10) -> List[Dict[str, Any]]:
        """Up to ``max`` (1..=100) ``{"word", "distance", "cost"}``, best first; empty for a known word."""

@final
class MinHash:
    """A MinHash signature of a set of tokens, shaped like datasketch's MinHash (Broder 1997)."""

    def __new__(
        cls, num_perm: int = 128, seed: int = 0, scheme: Literal["classic", "oph"] = "classic", spec: Literal[1, 2] = 1
    ) -> Self:
        """``num_perm`` in 1..=4096; ``scheme`` "classic" (num_perm hashes a token) or "oph" (one, Shrivastava 2017);
        ``spec`` the token hash's version (SPEC.md §3: 1 keyed FNV-1a + fmix64, 2 XXH3-64); ValueError otherwise."""
    def update(self, token: Union[bytes, str]) -> None:
        """Adds one token."""
    def update_batch(self, tokens: Sequence[Union[bytes, str]]) -> None:
        """Adds many tokens (an iterable of bytes or str, not one str): they are read with the GIL, the signature
        is updated without it. TypeError for one str or bytes."""
    def jaccard(self, other: "MinHash") -> float:
        """Estimated Jaccard resemblance in [0, 1]; ValueError for another num_perm, seed or scheme."""
    def digest(self) -> List[int]:
        """The num_perm values (unsigned 32-bit)."""
    def merge(self, other: "MinHash") -> None:
        """This becomes the signature of the union of the two sets."""
    def copy(self) -> "MinHash": ...
    def is_empty(self) -> bool: ...
    @property
    def num_perm(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def spec(self) -> int:
        """The spec version of the token hash: 1 or 2."""
    def __len__(self) -> int: ...
    def to_bytes(self) -> bytes:
        """Versioned, checksummed bytes (SPEC.md §8)."""
    @staticmethod
    def from_bytes(data: bytes) -> "MinHash":
        """Reads to_bytes() output; ValueError for damaged bytes."""

@final
class MinHashLSH:
    """A MinHash LSH index shaped like datasketch's MinHashLSH (Indyk & Motwani 1998)."""

    def __new__(
        cls,
        threshold: float = 0.5,
        num_perm: int = 128,
        weights: Tuple[float, float] = ...,
        params: Optional[Tuple[int, int]] = None,
    ) -> Self:
        """Bands and rows from the advisor (weights of false positives, negatives) unless ``params=(bands, rows)``."""
    def insert(self, key: str, minhash: MinHash) -> None:
        """ValueError for a key already present or a MinHash of another num_perm."""
    def query(self, minhash: MinHash) -> List[str]:
        """The keys of every candidate sharing a band, best estimate first."""
    def remove(self, key: str) -> None:
        """ValueError when the key does not exist."""
    def __contains__(self, key: str, /) -> bool: ...
    def __len__(self) -> int: ...
    def is_empty(self) -> bool: ...
    @property
    def params(self) -> Tuple[int, List[int]]:
        """(bands, rows of each band)."""

class _ClassOptions(TypedDict, total=False):
    """The class measure's options (the core's ``ClassSetConfig`` in snake_case), as :func:`class_pairs` takes them."""

    char_q: int
    """Characters per gram of the normalised words, 1..=32 (default 20), or 0 for word shingles."""
    window: int
    """The winnowing window, in grams, 1..=64 (default 8)."""
    word_k: int
    """Words per shingle with ``char_q`` 0, 1..=32 (default 3)."""
    seed: int
    """The hash seed (u64)."""
    stock_share: float
    """A phrase in more than this share of the students' texts is a stock phrase, in (0, 1] (default 0.5)."""
    min_containment: float
    """A pair is listed when its larger containment reaches this, in [0, 1] (default 0.05)."""
    adaptive_cut_off: bool
    """The cut-off rises with the class's size (default True)."""
    min_shared: int
    """A pair must share this many fingerprints, 1..=1000 (default 5)."""
    max_bytes: int
    """The largest text, in UTF-8 bytes (default 16 MiB)."""
    ignore_quotes: bool
    """Quotations left out (default True)."""
    ignore_references: bool
    """A trailing reference list left out (default True)."""
    fold_diacritics: bool
    """é as e, ä/ö/ü as ae/oe/ue (SPEC.md §1; default False)."""
    unmask: bool
    """Invisible characters removed and look-alike letters of other scripts read as the letters they imitate (SPEC.md §1 step 0; default True)."""

@final
class ClassSet:
    """A class run from files (:func:`class_set`): the class measure's report, the listed rows with their full
    comparisons, and the CSV, JSON and evidence pack ``neardup class`` writes for the same files and options."""

    @property
    def students(self) -> List[str]:
        """The students' names, in the class's order."""
    @property
    def sources(self) -> List[str]:
        """The sources' names."""
    @property
    def pairs(self) -> List[Dict[str, Any]]:
        """The listed rows: pairs at or above the cut-off (highest class score first), then the library's matches.
        Each ``{"kind": "students" | "source" | "library", "a", "b", "shared", "similarity", "containmentAb",
        "containmentBa", "compared", "verdict", "passages"?, "error"?}``: ``similarity`` the class measure's score
        (it ranks and meets the cut-off), the containments (in [0, 1]) the pair's full comparison's, ``verdict`` the
        learned grade (``cut``, ``light``, ``heavy``, ``non``), ``passages`` UTF-8 byte ranges in a and b."""
    @property
    def report(self) -> Dict[str, Any]:
        """The class measure's report, as :func:`class_pairs` returns it, hidden runs counted."""
    @property
    def skipped(self) -> List[Tuple[str, str]]:
        """Files not read: ``(path, reason)``."""
    @property
    def notes(self) -> List[str]:
        """Notes on how files were grouped into students (files joined into fewer students)."""
    def to_csv(self, pseudonyms: bool = False) -> str:
        """The rows as CSV, byte for byte ``neardup class --csv``: header ``a,b,kind,containment_ab,containment_ba,
        similarity,verdict,review,obfuscation_a,obfuscation_b``; with ``pseudonyms`` students as "Student 1", …."""
    def to_json(self) -> str:
        """The run as JSON, as ``neardup class --json`` prints it: ``studentNames``, ``sourceNames``, the report's
        fields, ``rows``, and with a library ``libraryNames``."""
    def evidence_pack(self, pseudonyms: bool = False, made: Optional[str] = None) -> str:
        """The evidence pack, one self-contained HTML document with no script: settings, every file's SHA-256, each
        listed pair with both texts and its shared passages highlighted, the library's matches. ``made``: the line
        under the title (default: the time now, in UTC)."""

def class_set(
    paths: Sequence[Union[str, PathLike[str]]],
    *,
    sources: Sequence[Union[str, PathLike[str]]] = ...,
    template: Optional[Union[str, PathLike[str]]] = None,
    library: Optional[Union[str, PathLike[str]]] = None,
    each_file: bool = False,
    **options: Unpack[_ClassOptions],
) -> ClassSet:
    """Runs a class set from files and folders, as ``neardup class`` does: ``paths`` files (each a student, named by
    its file name without the extension) or folders (every file at any depth read by the core's reader — ``.txt``,
    ``.md``, ``.html``, ``.docx``, ``.odt``, ``.zip`` archives of them, the format told by the bytes, hidden text
    left out and counted — a sub-folder per student, its files joined; with ``each_file`` every file a student).
    ``sources`` are read the same way (a passage found in a source pairs the student with it, one way); ``template``
    a file whose phrases count for no pair; ``library`` a reference library file (``neardup library build``),
    checked one way. Options as :func:`class_pairs`. Every listed pair is compared in full with the built-in verdict
    model (an SVM on Raveena & Nandini 2014's features, trained on clough-abc). Runs without the GIL.

    OSError for a folder, template or library that cannot be read; ValueError (a :class:`Error`) for a bad option, a
    library that is not one, or fewer than two texts. Files that cannot be read are skipped and listed in
    :attr:`ClassSet.skipped`."""

def class_pairs(
    students: Sequence[str],
    sources: Sequence[str] = ...,
    template: str = "",
    *,
    char_q: Optional[int] = None,
    window: Optional[int] = None,
    word_k: Optional[int] = None,
    seed: Optional[int] = None,
    stock_share: Optional[float] = None,
    min_containment: Optional[float] = None,
    adaptive_cut_off: Optional[bool] = None,
    min_shared: Optional[int] = None,
    max_bytes: Optional[int] = None,
    ignore_quotes: Optional[bool] = None,
    ignore_references: Optional[bool] = None,
    fold_diacritics: Optional[bool] = None,
    unmask: Optional[bool] = None,
) -> Dict[str, Any]:
    """The pairs of a class set that share passages, without comparing every pair: character 20-grams of the
    normalised words, winnowed (Schleimer, Wilkerson & Aiken 2003, as MOSS and Dolos), or word k-shingles (Broder
    1997); an inverted index of them (Sarawagi & Kirpal 2004); stock phrases — short phrases in more than a share of
    the texts — left out, a passage of ten words or more never. What the page's class view and ``neardup class`` run.

    A source is compared one way: a passage found in it pairs the student with the source, not with other
    students. ``template``: the assignment's text, whose phrases count for no pair. Options, the core's
    ``ClassSetConfig`` in snake_case: ``char_q`` (0 for word shingles, or 1..=32, default 20), ``window`` (1..=64,
    default 8), ``word_k`` (1..=32, default 3, with ``char_q`` 0), ``seed``, ``stock_share`` ((0, 1], default 0.5),
    ``min_containment`` ([0, 1], default 0.05), ``adaptive_cut_off`` (default True: 0.05 up to 20 texts, +0.15 per
    tenfold more, at most 0.5), ``min_shared`` (1..=1000, default 5), ``max_bytes``, ``ignore_quotes`` and
    ``ignore_references`` (default True), ``fold_diacritics`` (default False: é as e, ä/ö/ü as ae/oe/ue, SPEC.md §1).

    Returns ``{"texts", "pairs", "cutOff", "students", "candidates", "stockLimit", "stockPhrases",
    "sharedPassages", "groups", "options"}``: texts are students then sources (``shared``: the share of the text found in
    another text; ``excluded`` and ``common`` ranges in UTF-8 bytes); a pair's ``a`` and ``b`` index them, highest
    ``score`` (the larger containment, in [0, 1]) first, those at or above ``cutOff`` flagged; ``students``: each
    student's strongest match (``best``, ``covered``, ``source``); ``sharedPassages``: passages of ten words or more
    that three or more students' texts share (``texts``, ``words``); ``groups``: students' texts identical after
    normalisation and exclusions, found by hash, each listed once as one pair (``identical``: the group's size). TypeError for a text that is not a str;
    ValueError for a bad option, a text over ``max_bytes`` or fewer than two texts."""

def compare(
    a: str,
    b: str,
    *,
    template: Optional[str] = None,
    exclude_a: Optional[List[Tuple[int, int]]] = None,
    exclude_b: Optional[List[Tuple[int, int]]] = None,
    word_k: Optional[int] = None,
    char_q: Optional[int] = None,
    seed: Optional[int] = None,
    span_gap: Optional[int] = None,
    max_bytes: Optional[int] = None,
    phonetic: Optional[str] = None,
    min_words: Optional[int] = None,
    ignore_quotes: Optional[bool] = None,
    ignore_references: Optional[bool] = None,
    fold_diacritics: Optional[bool] = None,
    unmask: Optional[bool] = None,
) -> Dict[str, Any]:
    """Every measure of suspicious text ``a`` against source ``b`` (score: containment of a's word 3-shingles in b's, in [0, 1]) and their shared passages (UTF-8 byte ranges).

    Options, the core's ``CompareConfig`` in snake_case: ``word_k`` (1..=32), ``char_q`` (1..=32), ``seed``,
    ``span_gap`` (0..=64), ``max_bytes``, ``phonetic`` (an encoder name), ``min_words`` (0..=1000: passages
    shorter than this many words of ``a`` are dropped, and the score and every passage-based figure count
    only the passages kept; Broder 1997, Clough & Stevenson 2011), ``ignore_quotes`` (a's quotations left out),
    ``ignore_references`` (each text's trailing reference list left out), ``fold_diacritics`` (default False: é as e, ä/ö/ü as ae/oe/ue, SPEC.md §1),
    ``unmask`` (default True: invisible characters removed and look-alike letters of another script read as the
    letters they imitate, SPEC.md §1 step 0; ``obfuscationA``/``obfuscationB`` in the report count what was undone —
    ``lookalikes``, ``invisible``, ``hidden`` — with its byte ``ranges`` and a ``warning`` sentence, a known way to hide
    copying). ``template``: its phrases are left out of both; ``exclude_a``/``exclude_b``: byte ranges to leave out.
    ``excludedA``/``excludedB`` in the report say what was; with ``ignore_quotes``, ``quotedA`` is the share of
    ``a`` inside quotations and ``quotationWarning`` says so above a third. ValueError for an empty text or a bad option."""
