// The Durable Objects (SQLite storage) that hold a collection:
// - Collection: its settings (one object per collection name);
// - DocumentShard: documents (id, text, sketch), spread by a hash of the id;
// - IndexShard: buckets `key → ids` of the LSH bands / SimHash tables, spread
//   by the key.
// Every method is synchronous (no await between reading and writing), so
// each call runs alone in its object: that is what makes insert-and-query
// atomic per bucket (see README "Nothing lost").
import { DurableObject } from 'cloudflare:workers';

/** One collection's settings, written once. */
export class Collection extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  }

  /** The settings JSON, or null when the collection does not exist. */
  settings() {
    const row = this.sql.exec("SELECT value FROM meta WHERE key = 'settings'").toArray()[0];
    return row ? row.value : null;
  }

  /**
   * Creates the collection with `settings` (canonical JSON) unless it exists:
   * `{ created, settings }` — the stored settings, which the caller compares.
   */
  create(settings) {
    const existing = this.settings();
    if (existing !== null) return { created: false, settings: existing };
    this.sql.exec("INSERT INTO meta (key, value) VALUES ('settings', ?)", settings);
    return { created: true, settings };
  }
}

/** Documents of one shard: id → (text, sketch). */
export class DocumentShard extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(
      'CREATE TABLE IF NOT EXISTS docs (id TEXT PRIMARY KEY, text TEXT NOT NULL, sketch BLOB NOT NULL, created INTEGER NOT NULL) WITHOUT ROWID',
    );
  }

  /**
   * Stores `id` → (text, sketch). Returns `{ status, previous }`: "created";
   * "same" (the same text was stored: nothing written); or "replaced" with
   * the previous sketch.
   */
  put(id, text, sketch) {
    const row = this.sql.exec('SELECT text, sketch FROM docs WHERE id = ?', id).toArray()[0];
    if (row && row.text === text) return { status: 'same', previous: row.sketch };
    this.sql.exec(
      'INSERT INTO docs (id, text, sketch, created) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET text = excluded.text, sketch = excluded.sketch',
      id,
      text,
      sketch,
      Date.now(),
    );
    return { status: row ? 'replaced' : 'created', previous: row ? row.sketch : null };
  }

  /** `{ id, text }` or null. */
  get(id) {
    const row = this.sql.exec('SELECT id, text FROM docs WHERE id = ?', id).toArray()[0];
    return row ? { id: row.id, text: row.text } : null;
  }

  /** Deletes `id`; its sketch, or null when absent. */
  remove(id) {
    const row = this.sql.exec('SELECT sketch FROM docs WHERE id = ?', id).toArray()[0];
    if (!row) return null;
    this.sql.exec('DELETE FROM docs WHERE id = ?', id);
    return row.sketch;
  }

  /** The sketches of those of `ids` present: [[id, sketch]]. */
  sketches(ids) {
    const out = [];
    for (const id of ids) {
      const row = this.sql.exec('SELECT sketch FROM docs WHERE id = ?', id).toArray()[0];
      if (row) out.push([id, row.sketch]);
    }
    return out;
  }

  count() {
    return this.sql.exec('SELECT count(*) AS n FROM docs').one().n;
  }
}

/** Buckets of one index shard: (key, id) pairs. */
export class IndexShard extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(
      'CREATE TABLE IF NOT EXISTS buckets (key TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (key, id)) WITHOUT ROWID',
    );
  }

  /** The ids other than `self` in the buckets `keys`, each once. */
  query(keys, self = null) {
    const ids = new Set();
    for (const key of keys) {
      for (const row of this.sql.exec('SELECT id FROM buckets WHERE key = ?', key)) {
        if (row.id !== self) ids.add(row.id);
      }
    }
    return [...ids];
  }

  /**
   * Atomically: the ids already in the buckets `keys` (not `id` itself),
   * then `id` added to them (idempotent). Of two documents sharing a bucket
   * and inserted at the same moment, the second to run sees the first.
   */
  insertAndQuery(id, keys) {
    const found = this.query(keys, id);
    for (const key of keys) {
      this.sql.exec('INSERT OR IGNORE INTO buckets (key, id) VALUES (?, ?)', key, id);
    }
    return found;
  }

  /** Removes `id` from the buckets `keys`. */
  remove(id, keys) {
    for (const key of keys) {
      this.sql.exec('DELETE FROM buckets WHERE key = ? AND id = ?', key, id);
    }
  }
}
