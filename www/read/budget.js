// What the reader will produce at most: every limit counts bytes actually
// produced (inflated, decoded), never the sizes a file or archive declares.

/** Largest file read, or file taken out of an archive, in bytes (50 MiB). */
export const MAX_FILE_BYTES = 50 << 20;
/** Largest XML of a .docx or .odt, as inflated, in bytes (64 MiB). */
export const MAX_XML_BYTES = 64 << 20;
/** Largest text of one file, in bytes of UTF-8: the core's limit of one text (16 MiB). */
export const MAX_TEXT_BYTES = 16 << 20;
/** Most bytes an archive may expand to, all its files together (500 MiB). */
export const MAX_ARCHIVE_BYTES = 500 << 20;
/** Most files taken from one archive. */
export const MAX_ARCHIVE_FILES = 5000;
/** Most pages read from a PDF. */
export const MAX_PDF_PAGES = 2000;
/**
 * Most text a class set reads, all files, archives and folders together, in
 * bytes of UTF-8 (64 MiB: some 3,000 essays of 20 KB). The core holds about
 * ten times its texts' size while it pairs them.
 */
export const MAX_CLASS_TEXT_BYTES = 64 << 20;
