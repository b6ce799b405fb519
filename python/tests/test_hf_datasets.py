"""The README's Hugging Face `datasets` recipe, as written there: sketches by
`Dataset.map(batched=True)` over Arrow batches (the golden bytes), and the
clusters of a whole dataset by `dedup_batch` on its Arrow columns (exactly
neardup.dedup's, on docs-bench)."""

import pyarrow as pa
import pytest

import neardup

datasets = pytest.importorskip("datasets")

from test_dataframes import golden_cases  # noqa: E402
from test_engines import docs_bench, expected  # noqa: E402
from test_kernels import snake  # noqa: E402


def test_map_batched_gives_the_golden_sketches():
    texts, cases = golden_cases()
    for c in cases:
        ds = datasets.Dataset.from_dict({"text": texts})
        stages = neardup.Stages(**snake(c["config"]))
        # The recipe: Arrow batches in, an Arrow column out (no Python object per row).
        out = ds.with_format("arrow").map(
            lambda t: t.append_column("sketch", stages.sketch_batch(t["text"]).cast(pa.binary())),
            batched=True,
            batch_size=2,
        )
        assert [s.hex() for s in out.with_format(None)["sketch"]] == c["sketches"]


def test_dedup_batch_on_a_dataset_is_neardup_dedup():
    rows, _ = docs_bench()
    ds = datasets.Dataset.from_dict({"id": [r["id"] for r in rows], "text": [r["text"] for r in rows]})
    # The recipe: the whole dataset's clusters, added as columns, duplicates filtered out.
    labels = neardup.dedup_batch(ds.data.column("text"), ds.data.column("id"))
    ds = ds.add_column("cluster", ds.data.column("id").take(labels.column("cluster")))
    ds = ds.add_column("keep", labels.column("keep"))
    kept = ds.filter(lambda b: b["keep"], batched=True)
    want = expected(rows)[0]
    assert dict(zip(ds["id"], zip(ds["cluster"], ds["keep"]))) == want
    assert list(kept["id"]) == [i for i, (_, k) in want.items() if k]
