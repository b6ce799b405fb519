// A PDF's text layer, by pdf.js, in the reader's worker (read/worker.js):
// the one format the core's reader hands back to the page. Pages and text
// are bounded by the core's readingLimits().
import { ReadError } from './error.js';

let pdfjs = null;

/**
 * The text of every page of a PDF, pages separated by a blank line.
 * @param {string} name the file's name or path, for messages
 * @param {Uint8Array} bytes
 * @param {number} max most bytes of UTF-8 of its text
 * @param {{pdfPages: number, textBytes: number}} limits the core's readingLimits()
 * @param {(max: number) => string} tooMuchTextReason the core's words for a
 *   text over `max` bytes (the reader module's `tooMuchTextReason`)
 * @returns {Promise<string>}
 * @throws {ReadError} when the PDF is damaged, protected by a password,
 *   has more than `limits.pdfPages` pages, a text over `max`, or no text
 *   layer (a scanned document).
 */
export async function pdfText(name, bytes, max, limits, tooMuchTextReason) {
  pdfjs ??= await import('../lib/pdf.js');
  // pdf.js parses in a worker of its own, started here (it cannot start one
  // from a worker by itself) and ended with the document.
  const port = new Worker(new URL('../lib/pdf.worker.js', import.meta.url), { type: 'module' });
  const worker = new pdfjs.PDFWorker({ port });
  const task = pdfjs.getDocument({
    data: bytes,
    worker,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  const end = () => {
    task.destroy();
    worker.destroy();
    port.terminate();
  };
  let doc;
  try {
    doc = await task.promise;
  } catch (err) {
    end();
    if (err?.name === 'PasswordException') throw new ReadError(name, 'this PDF is protected by a password');
    throw new ReadError(name, `a damaged PDF (${err?.message ?? err})`);
  }
  try {
    if (doc.numPages > limits.pdfPages) throw new ReadError(name, `${doc.numPages} pages, over the ${limits.pdfPages}-page limit`);
    const parts = [];
    const encoder = new TextEncoder();
    let size = 0;
    const push = (s) => {
      size += encoder.encode(s).length;
      if (size > max) {
        throw new ReadError(name, tooMuchTextReason(max));
      }
      parts.push(s);
    };
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const content = await page.getTextContent();
      if (i > 1) push('\n\n');
      for (const item of content.items) {
        if (typeof item.str !== 'string') continue;
        push(item.hasEOL ? `${item.str}\n` : item.str);
      }
      page.cleanup();
    }
    const text = parts.join('');
    if (!/[\p{L}\p{N}]/u.test(text)) {
      throw new ReadError(name, 'this PDF has no text layer (a scanned document?): run OCR on it, or paste its text');
    }
    return text;
  } catch (err) {
    if (err instanceof ReadError) throw err;
    throw new ReadError(name, `a damaged PDF (${err?.message ?? err})`);
  } finally {
    end();
  }
}
