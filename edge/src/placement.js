// Where things are stored: which DocumentShard holds a document and which
// IndexShard holds a bucket. Part of the storage format: changing either
// would misplace what a collection already holds.

/** FNV-1a (32 bits) of the id's UTF-8 bytes; the document's shard is this mod `shards`. */
export function idHash(id) {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(id)) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The index shard of a bucket key (16 hex digits): its low 32 bits mod `shards`. */
export function keyShard(key, shards) {
  return parseInt(key.slice(8), 16) % shards;
}
