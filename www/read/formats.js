// One file's bytes as text, in the reader's worker (read/worker.js): no DOM,
// and every limit counts what is actually produced (budget.js).
//
//   .txt and any plain text  decoded by the core (its decodeText, as the
//                            command line decodes it): by byte-order mark
//                            (UTF-8, UTF-16 LE/BE), else UTF-8 when valid,
//                            else Windows-1252
//   .md                      its text (Markdown is text)
//   .html, .htm              the text of its body (scripts, styles dropped),
//                            by htmlparser2: nothing runs, nothing loads
//   .docx                    the paragraphs of word/document.xml (ECMA-376
//                            WordprocessingML: w:p, w:t, w:tab, w:br)
//   .odt                     the paragraphs and headings of content.xml
//                            (OASIS OpenDocument: text:p, text:h, text:s,
//                            text:tab, text:line-break)
//   .pdf                     the text layer of every page, by pdf.js
//
// A .docx or .odt is inflated and parsed as a stream (htmlparser2's XML
// mode): its XML is never held whole, counts against MAX_XML_BYTES as it
// inflates, and is refused when it declares a document type (the entities
// of a DTD could expand it without end; neither format has one).
import { MAX_PDF_PAGES, MAX_TEXT_BYTES, MAX_XML_BYTES } from './budget.js';
import { mb, ReadError } from './error.js';
import { streamEntries } from './zip.js';

let decoder = null;
/** The core's decodeText, from the package's WebAssembly (loaded once). */
function core() {
  decoder ??= (async () => {
    const pkg = await import('../../pkg/index.js');
    await pkg.default();
    return pkg.decodeText;
  })();
  return decoder;
}

/** Bytes of UTF-8 of a string, without encoding it. */
export function utf8Length(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Text gathered piece by piece, refused as soon as it passes `max` bytes. */
class Gathered {
  constructor(name, max) {
    this.name = name;
    this.max = max;
    this.bytes = 0;
    this.parts = [];
  }

  push(s) {
    this.bytes += utf8Length(s);
    if (this.bytes > this.max) throw overText(this.name, this.max);
    this.parts.push(s);
  }
}

function overText(name, max) {
  return new ReadError(name, max < MAX_TEXT_BYTES
    ? `its text is over the ${mb(max)} left of the class set's limit`
    : `its text is over the ${mb(max)} limit of one text`);
}

/**
 * Reads the text of a file's bytes; `name` picks the format with the bytes'
 * signature (a .txt that is really a PDF is read as a PDF).
 * @param {string} name
 * @param {Uint8Array} bytes
 * @param {number} [maxText] most bytes of UTF-8 of its text (at most MAX_TEXT_BYTES)
 * @returns {Promise<{text: string, format: string, encoding?: string}>}
 *   `encoding` for text files only.
 * @throws {ReadError} when the file is corrupt, encrypted, an unknown
 *   binary, over a limit, or holds no text (e.g. a scanned PDF).
 */
export async function readBytes(name, bytes, maxText = MAX_TEXT_BYTES) {
  const max = Math.min(maxText, MAX_TEXT_BYTES);
  const ext = (name.match(/\.([^./\\]+)$/)?.[1] ?? '').toLowerCase();
  let out;
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) out = { text: await pdfText(name, bytes, max), format: 'pdf' };
  else if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) out = await officeText(name, bytes, max);
  else if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    throw new ReadError(name, 'an old Word (.doc) or other legacy Office file: save it as .docx or PDF, or paste its text');
  } else {
    const decoded = (await core())(bytes);
    if (looksBinary(decoded.text)) throw new ReadError(name, 'not a text, .docx, .odt or PDF file (binary data)');
    if (ext === 'html' || ext === 'htm' || /^\s*<(!doctype html|html)[\s>]/i.test(decoded.text.slice(0, 1024))) {
      out = { text: await htmlText(name, decoded.text, max), format: 'html' };
    } else {
      if (utf8Length(decoded.text) > max) throw overText(name, max);
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

// Text has no NUL and few other control characters (tab, line breaks and
// form feed aside); binary data has many.
function looksBinary(text) {
  const sample = text.slice(0, 65536);
  if (sample.includes('\0')) return true;
  const controls = sample.match(/[\x01-\x08\x0e-\x1f\x7f]/g)?.length ?? 0;
  return controls > sample.length / 100;
}

// Block elements end a line in the text of an HTML page.
const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption',
  'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre',
  'section', 'table', 'td', 'th', 'tr', 'ul']);
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'base', 'svg', 'math']);

/**
 * The text of an HTML document's body, one line per block element.
 * @param {string} name
 * @param {string} html
 * @param {number} max most bytes of UTF-8
 * @returns {Promise<string>}
 */
export async function htmlText(name, html, max = MAX_TEXT_BYTES) {
  const { Parser } = await import('../lib/markup.js');
  const out = new Gathered(name, max);
  let skip = 0;
  const parser = new Parser({
    onopentag(tag) {
      if (SKIP.has(tag)) skip++;
      else if (!skip && BLOCK.has(tag)) out.push('\n');
    },
    onclosetag(tag) {
      if (SKIP.has(tag)) skip = Math.max(0, skip - 1);
      else if (!skip && BLOCK.has(tag)) out.push('\n');
    },
    ontext(t) {
      if (!skip) out.push(t.replace(/\s+/g, ' '));
    },
  }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return out.parts.join('').replace(/[ \t]*\n[ \t\n]*/g, (m) => (m.split('\n').length > 2 ? '\n\n' : '\n')).trim();
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const TEXT = 'urn:oasis:names:tc:opendocument:xmlns:text:1.0';

/**
 * An XML stream's paragraphs, one line each in the order they begin (a
 * paragraph nested in another, a text box, is a line of its own): a parser
 * fed strings by `write`, its lines by `end`. `ns` and `tags` name the
 * paragraphs; `run(local, attrs)` gives an element's text (a tab, a line
 * break), `SKIP_RUN` to leave its content out, or undefined to descend;
 * `textNodes`: the paragraph's own text nodes are its text, runs of white
 * space one space (OpenDocument), else only the text inside `textIn`
 * elements (WordprocessingML's w:t).
 */
const SKIP_RUN = Symbol('skip');

async function xmlParagraphs(name, max, { ns, tags, run, textNodes, textIn }) {
  const { Parser } = await import('../lib/markup.js');
  const out = new Gathered(name, max);
  const lines = []; // [parts] per paragraph, in the order they begin
  const open = []; // indexes into lines of the paragraphs open
  const prefixes = new Map();
  let inText = 0;
  let skipped = 0;
  const resolve = (qname) => {
    const i = qname.indexOf(':');
    return i < 0 ? { uri: prefixes.get(''), local: qname } : { uri: prefixes.get(qname.slice(0, i)), local: qname.slice(i + 1) };
  };
  const add = (s) => {
    if (!open.length || !s) return;
    out.push(s);
    lines[open[open.length - 1]].push(s);
  };
  const stack = []; // per open element: what closing it undoes
  const parser = new Parser({
    onprocessinginstruction(pi) {
      if (pi.toLowerCase() === '!doctype') {
        throw new ReadError(name, 'its XML declares a document type, which a .docx or .odt never does (its entities could expand without end): refused');
      }
    },
    onopentag(qname, attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (k === 'xmlns') prefixes.set('', v);
        else if (k.startsWith('xmlns:')) prefixes.set(k.slice(6), v);
      }
      const { uri, local } = resolve(qname);
      let undo = null;
      if (skipped) {
        skipped++;
        undo = 'skip';
      } else if (uri === ns && tags.includes(local)) {
        lines.push([]);
        open.push(lines.length - 1);
        undo = 'para';
      } else if (uri === ns && local === textIn) {
        inText++;
        undo = 'text';
      } else if (uri === ns) {
        const t = run(local, attrs);
        if (t === SKIP_RUN) {
          skipped = 1;
          undo = 'skip';
        } else if (t !== undefined) add(t);
      }
      stack.push(undo);
    },
    onclosetag() {
      const undo = stack.pop();
      if (undo === 'para') open.pop();
      else if (undo === 'text') inText--;
      else if (undo === 'skip') skipped--;
    },
    ontext(t) {
      if (skipped) return;
      if (textNodes) add(t.replace(/\s+/g, ' '));
      else if (inText) add(t);
    },
  }, { xmlMode: true, decodeEntities: true });
  const text = new TextDecoder('utf-8');
  return {
    write: (chunk) => parser.write(text.decode(chunk, { stream: true })),
    end: () => {
      parser.write(text.decode());
      parser.end();
      return lines.map((l) => l.join('')).join('\n');
    },
  };
}

// The text of one WordprocessingML element inside a paragraph.
function wordRun(local) {
  switch (local) {
    case 'tab': return '\t';
    case 'br': case 'cr': return '\n';
    case 'noBreakHyphen': return '-';
    case 'delText': case 'instrText': return SKIP_RUN;
    default: return undefined; // descend
  }
}

// The text of one OpenDocument element inside a paragraph.
function odfRun(local, attrs) {
  switch (local) {
    case 's': return ' '.repeat(Math.min(Number(attrs['text:c'] ?? 1) || 1, 1000));
    case 'tab': return '\t';
    case 'line-break': return '\n';
    // A note's citation (its number) is not text; its body's paragraphs are
    // lines of their own. Tracked changes hold deleted text: left out.
    case 'note-citation': case 'tracked-changes': return SKIP_RUN;
    default: return undefined;
  }
}

async function officeText(name, bytes, max) {
  const docx = await xmlParagraphs(name, max, { ns: W, tags: ['p'], run: wordRun, textNodes: false, textIn: 't' });
  const odt = await xmlParagraphs(name, max, { ns: TEXT, tags: ['p', 'h'], run: odfRun, textNodes: true, textIn: null });
  const seen = new Set();
  const ended = new Set();
  let mimetype = '';
  await streamEntries(name, bytes, {
    perEntry: MAX_XML_BYTES,
    total: 2 * MAX_XML_BYTES + 1024,
    open(info) {
      if (seen.has(info.name)) return null;
      if (info.name === 'word/document.xml') {
        seen.add(info.name);
        return { data: docx.write, end: () => ended.add(info.name) };
      }
      if (info.name === 'content.xml') {
        seen.add(info.name);
        return { data: odt.write, end: () => ended.add(info.name) };
      }
      if (info.name === 'mimetype') {
        seen.add(info.name);
        const parts = [];
        return { data: (c) => parts.push(new TextDecoder().decode(c.subarray(0, 256))), end: () => { mimetype = parts.join('').trim(); } };
      }
      return null;
    },
  });
  for (const entry of seen) {
    if (entry !== 'mimetype' && !ended.has(entry)) throw new ReadError(name, `a damaged zip archive (it ends inside ${entry})`);
  }
  if (seen.has('word/document.xml')) return { text: docx.end(), format: 'docx' };
  if (seen.has('content.xml') && mimetype === 'application/vnd.oasis.opendocument.text') {
    return { text: odt.end(), format: 'odt' };
  }
  throw new ReadError(name, 'a zip archive that is not a .docx or .odt document');
}

let pdfjs = null;
async function pdfText(name, bytes, max) {
  pdfjs ??= await import('../lib/pdf.js');
  // pdf.js parses in a worker of its own, started here (it cannot start one
  // from a worker by itself) and ended with the document.
  const port = new Worker(new URL('../lib/pdf.worker.js', import.meta.url), { type: 'module' });
  const worker = new pdfjs.PDFWorker({ port });
  const end = () => {
    task.destroy();
    worker.destroy();
    port.terminate();
  };
  let doc;
  const task = pdfjs.getDocument({
    data: bytes,
    worker,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    doc = await task.promise;
  } catch (err) {
    end();
    if (err?.name === 'PasswordException') throw new ReadError(name, 'this PDF is protected by a password');
    throw new ReadError(name, `a damaged PDF (${err?.message ?? err})`);
  }
  try {
    if (doc.numPages > MAX_PDF_PAGES) throw new ReadError(name, `${doc.numPages} pages, over the ${MAX_PDF_PAGES}-page limit`);
    const out = new Gathered(name, max);
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const content = await page.getTextContent();
      if (i > 1) out.push('\n\n');
      for (const item of content.items) {
        if (typeof item.str !== 'string') continue;
        out.push(item.hasEOL ? `${item.str}\n` : item.str);
      }
      page.cleanup();
    }
    return out.parts.join('');
  } catch (err) {
    if (err instanceof ReadError) throw err;
    throw new ReadError(name, `a damaged PDF (${err?.message ?? err})`);
  } finally {
    end();
  }
}
