// The reader's error, shared by the reader's worker and the
// page's side of it (reader.js).

/** A file that cannot be read as text; `message` says why, naming the file. */
export class ReadError extends Error {
  /**
   * @param {string} name the file's name (or path inside an archive)
   * @param {string} reason why it cannot be read, in plain words
   */
  constructor(name, reason) {
    super(`${name}: ${reason}`);
    this.name = 'ReadError';
    this.file = name;
    this.reason = reason;
  }
}
