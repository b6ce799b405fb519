// The page's one file reader, shared by the two-text view and the class-set
// mode: a File in, its text out, or a ReadError saying why not. Nothing is
// ever compared as bytes.
//
//   .txt and any plain text  decoded by the core (its decodeText, as the
//                            command line decodes it): by byte-order mark
//                            (UTF-8, UTF-16 LE/BE), else UTF-8 when valid,
//                            else Windows-1252
//   .md                      its text (Markdown is text)
//   .html, .htm              the text of its body (scripts, styles dropped);
//                            parsed by the browser's DOMParser, never run
//   .docx                    the paragraphs of word/document.xml (ECMA-376
//                            WordprocessingML: w:p, w:t, w:tab, w:br)
//   .odt                     the paragraphs and headings of content.xml
//                            (OASIS OpenDocument: text:p, text:h, text:s,
//                            text:tab, text:line-break)
//   .pdf                     the text layer of every page, by pdf.js
//
// The zip reader (fflate) and pdf.js are bundled into lib/ and imported
// only when such a file is given. Limits: MAX_FILE_BYTES per file,
// MAX_UNZIPPED_BYTES for a document's XML once decompressed (a zip bomb is
// refused from the sizes its archive declares, and decompression never
// writes past them), MAX_PDF_PAGES pages.

import { engine } from './engine.js';

/** Largest file read, in bytes (50 MiB). */
export const MAX_FILE_BYTES = 50 << 20;
/** Largest decompressed XML of a .docx or .odt, in bytes (100 MiB). */
export const MAX_UNZIPPED_BYTES = 100 << 20;
/** Most pages read from a PDF. */
export const MAX_PDF_PAGES = 2000;

/** A file that cannot be read as text; `message` says why, naming the file. */
export class ReadError extends Error {
  /**
   * @param {string} name the file's name
   * @param {string} reason why it cannot be read, in plain words
   */
  constructor(name, reason) {
    super(`${name}: ${reason}`);
    this.name = 'ReadError';
    this.file = name;
    this.reason = reason;
  }
}

/**
 * Reads a file's text.
 * @param {File|Blob & {name?: string}} file
 * @returns {Promise<{text: string, format: 'text'|'markdown'|'html'|'docx'|'odt'|'pdf', encoding?: string}>}
 *   `encoding` for text files only.
 * @throws {ReadError} when the file is too large, corrupt, encrypted, an
 *   unknown binary, or holds no text (e.g. a scanned PDF without a text layer).
 */
export async function readFile(file) {
  const name = file.name || 'file';
  if (file.size > MAX_FILE_BYTES) {
    throw new ReadError(name, `${mb(file.size)} is over the ${mb(MAX_FILE_BYTES)} limit`);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  return readBytes(name, bytes);
}

/**
 * Reads the text of a file's bytes; `name` picks the format with the bytes'
 * signature (a .txt that is really a PDF is read as a PDF).
 * @param {string} name
 * @param {Uint8Array} bytes
 * @returns {Promise<{text: string, format: string, encoding?: string}>}
 * @throws {ReadError} as {@link readFile}.
 */
export async function readBytes(name, bytes) {
  const ext = (name.match(/\.([^./\\]+)$/)?.[1] ?? '').toLowerCase();
  let out;
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) out = { text: await pdfText(name, bytes), format: 'pdf' };
  else if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) out = await officeText(name, bytes);
  else if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    throw new ReadError(name, 'an old Word (.doc) or other legacy Office file: save it as .docx or PDF, or paste its text');
  } else {
    const decoded = await decodeText(bytes);
    if (looksBinary(decoded.text)) throw new ReadError(name, 'not a text, .docx, .odt or PDF file (binary data)');
    if (ext === 'html' || ext === 'htm' || /^\s*<(!doctype html|html)[\s>]/i.test(decoded.text.slice(0, 1024))) {
      out = { text: htmlText(decoded.text), format: 'html' };
    } else {
      out = { ...decoded, format: ext === 'md' || ext === 'markdown' ? 'markdown' : 'text' };
    }
  }
  if (!/[\p{L}\p{N}]/u.test(out.text)) {
    const why = out.format === 'pdf'
      ? 'this PDF has no text layer (a scanned document?): run OCR on it, or paste its text'
      : 'it holds no words';
    throw new ReadError(name, why);
  }
  return out;
}

function startsWith(bytes, sig) {
  return sig.every((b, i) => bytes[i] === b);
}

function mb(n) {
  return `${(n / (1 << 20)).toFixed(n < 1 << 20 ? 2 : 0)} MiB`;
}

/**
 * Decodes text bytes by the core's one rule (its decodeText, in the
 * engine's worker): by byte-order mark (UTF-8, UTF-16 LE/BE), else UTF-8
 * when valid, else Windows-1252 — as the CLI, npm and Python decode them.
 * @param {Uint8Array} b
 * @returns {Promise<{text: string, encoding: 'UTF-8'|'UTF-16LE'|'UTF-16BE'|'windows-1252'}>}
 */
export function decodeText(b) {
  return engine.ask({ kind: 'decode', bytes: b });
}

// Text has no NUL and few other control characters (tab, line breaks and
// form feed aside); binary data has many.
function looksBinary(text) {
  const sample = text.slice(0, 65536);
  if (sample.includes('\0')) return true;
  const controls = sample.match(/[\x01-\x08\x0e-\x1f\x7f]/g)?.length ?? 0;
  return controls > sample.length / 100;
}

// Block elements end a line in the text of an HTML page.
const BLOCK = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DIV', 'DL', 'DT', 'FIGCAPTION',
  'FIGURE', 'FOOTER', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE',
  'SECTION', 'TABLE', 'TD', 'TH', 'TR', 'UL']);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'META', 'LINK', 'BASE', 'SVG', 'MATH']);

/**
 * The text of an HTML document's body, one line per block element. The
 * markup is parsed into a <template>'s inert content: no script runs,
 * nothing loads, and no style is applied (so the page's Content Security
 * Policy has nothing to refuse).
 * @param {string} html
 * @returns {string}
 */
export function htmlText(html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  const doc = { body: template.content };
  const out = [];
  const walk = (node) => {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) out.push(n.nodeValue.replace(/\s+/g, ' '));
      else if (n.nodeType === 1 && !SKIP.has(n.nodeName.toUpperCase())) {
        const block = BLOCK.has(n.nodeName.toUpperCase());
        if (block) out.push('\n');
        walk(n);
        if (block) out.push('\n');
      }
    }
  };
  walk(doc.body);
  return out.join('').replace(/[ \t]*\n[ \t\n]*/g, (m) => (m.split('\n').length > 2 ? '\n\n' : '\n')).trim();
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const TEXT = 'urn:oasis:names:tc:opendocument:xmlns:text:1.0';

async function officeText(name, bytes) {
  const { unzipSync, strFromU8 } = await import('./lib/zip.js');
  const wanted = new Set(['word/document.xml', 'content.xml', 'mimetype']);
  let files;
  try {
    files = unzipSync(bytes, {
      filter(f) {
        if (!wanted.has(f.name)) return false;
        if (f.originalSize > MAX_UNZIPPED_BYTES) {
          throw new ReadError(name, `${f.name} expands to ${mb(f.originalSize)}, over the ${mb(MAX_UNZIPPED_BYTES)} limit`);
        }
        return true;
      },
    });
  } catch (err) {
    if (err instanceof ReadError) throw err;
    throw new ReadError(name, `a damaged zip archive (${err?.message ?? err})`);
  }
  if (files['word/document.xml']) {
    return { text: paragraphs(name, strFromU8(files['word/document.xml']), W, ['p'], wordRun, false), format: 'docx' };
  }
  const mimetype = files.mimetype ? strFromU8(files.mimetype).trim() : '';
  if (files['content.xml'] && mimetype === 'application/vnd.oasis.opendocument.text') {
    return { text: paragraphs(name, strFromU8(files['content.xml']), TEXT, ['p', 'h'], odfRun, true), format: 'odt' };
  }
  throw new ReadError(name, 'a zip archive that is not a .docx or .odt document');
}

// The text of one WordprocessingML element inside a paragraph.
function wordRun(el) {
  if (el.namespaceURI !== W) return undefined;
  switch (el.localName) {
    case 't': return el.textContent;
    case 'tab': return '\t';
    case 'br': case 'cr': return '\n';
    case 'noBreakHyphen': return '-';
    case 'delText': case 'instrText': return '';
    default: return undefined; // descend
  }
}

// The text of one OpenDocument element inside a paragraph.
function odfRun(el) {
  if (el.namespaceURI !== TEXT) return undefined;
  switch (el.localName) {
    case 's': return ' '.repeat(Math.min(Number(el.getAttributeNS(TEXT, 'c') ?? 1) || 1, 1000));
    case 'tab': return '\t';
    case 'line-break': return '\n';
    case 'note': case 'tracked-changes': return '';
    default: return undefined;
  }
}

// Every paragraph (elements `tags` of namespace `ns`, in document order) on
// its own line; a paragraph nested in another (a text box) is its own line.
// WordprocessingML keeps text in w:t elements (text nodes elsewhere are
// layout whitespace); OpenDocument keeps it in the paragraph's text nodes,
// with runs of white space collapsed to one space (`textNodes`).
function paragraphs(name, xml, ns, tags, run, textNodes) {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length) throw new ReadError(name, 'its document XML is damaged');
  const lines = [];
  const isPara = (el) => el.namespaceURI === ns && tags.includes(el.localName);
  const textOf = (p) => {
    const parts = [];
    const walk = (node) => {
      for (let n = node.firstChild; n; n = n.nextSibling) {
        if (n.nodeType === 3 || n.nodeType === 4) {
          if (textNodes) parts.push(n.nodeValue.replace(/\s+/g, ' '));
          continue;
        }
        if (n.nodeType !== 1) continue;
        if (isPara(n)) continue; // nested: a line of its own
        const t = run(n);
        if (t === undefined) walk(n);
        else parts.push(t);
      }
    };
    walk(p);
    return parts.join('');
  };
  for (const tag of tags.length === 1 ? tags : ['*']) {
    const all = tag === '*' ? doc.getElementsByTagNameNS(ns, '*') : doc.getElementsByTagNameNS(ns, tag);
    for (const el of all) if (isPara(el)) lines.push(textOf(el));
  }
  return lines.join('\n');
}

let pdfjs = null;
async function pdfText(name, bytes) {
  if (!pdfjs) {
    pdfjs = await import('./lib/pdf.js');
    pdfjs.GlobalWorkerOptions.workerSrc = new URL('./lib/pdf.worker.js', import.meta.url).href;
  }
  let doc;
  const task = pdfjs.getDocument({
    data: bytes,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    doc = await task.promise;
  } catch (err) {
    task.destroy();
    if (err?.name === 'PasswordException') throw new ReadError(name, 'this PDF is protected by a password');
    throw new ReadError(name, `a damaged PDF (${err?.message ?? err})`);
  }
  try {
    if (doc.numPages > MAX_PDF_PAGES) throw new ReadError(name, `${doc.numPages} pages, over the ${MAX_PDF_PAGES}-page limit`);
    const pages = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (typeof item.str !== 'string') continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      pages.push(text);
      page.cleanup();
    }
    return pages.join('\n\n');
  } catch (err) {
    if (err instanceof ReadError) throw err;
    throw new ReadError(name, `a damaged PDF (${err?.message ?? err})`);
  } finally {
    task.destroy();
  }
}

/** Most files taken from one .zip archive. */
export const MAX_ARCHIVE_FILES = 5000;
/** Most bytes a .zip archive may expand to, all files together (500 MiB). */
export const MAX_ARCHIVE_BYTES = 500 << 20;

/**
 * The files of a .zip archive of students' work (not a .docx or .odt):
 * every regular file but hidden ones and folders, with its path inside the
 * archive. The sizes the archive declares are checked before anything is
 * decompressed, and decompression never writes past them.
 * @param {File|Blob & {name?: string}} file
 * @returns {Promise<Array<{path: string, bytes: Uint8Array}>>}
 * @throws {ReadError} for a damaged archive, more than MAX_ARCHIVE_FILES
 *   files, or more than MAX_ARCHIVE_BYTES in all.
 */
export async function readArchive(file) {
  const name = file.name || 'archive.zip';
  if (file.size > MAX_FILE_BYTES) throw new ReadError(name, `${mb(file.size)} is over the ${mb(MAX_FILE_BYTES)} limit`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const { unzipSync } = await import('./lib/zip.js');
  let count = 0;
  let total = 0;
  let files;
  try {
    files = unzipSync(bytes, {
      filter(f) {
        const base = f.name.split('/').pop();
        if (!base || base.startsWith('.') || f.name.startsWith('__MACOSX/')) return false;
        count += 1;
        total += f.originalSize;
        if (count > MAX_ARCHIVE_FILES) throw new ReadError(name, `more than ${MAX_ARCHIVE_FILES} files`);
        if (total > MAX_ARCHIVE_BYTES) throw new ReadError(name, `expands to more than ${mb(MAX_ARCHIVE_BYTES)}`);
        return true;
      },
    });
  } catch (err) {
    if (err instanceof ReadError) throw err;
    throw new ReadError(name, `a damaged zip archive (${err?.message ?? err})`);
  }
  return Object.entries(files).map(([path, data]) => ({ path, bytes: data }));
}

/**
 * Whether a file is a .zip archive of files (rather than a .docx or .odt,
 * which are zip archives too): by its name.
 * @param {{name?: string}} file
 * @returns {boolean}
 */
export function isArchive(file) {
  return /\.zip$/i.test(file.name ?? '');
}
