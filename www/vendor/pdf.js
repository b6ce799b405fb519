// The PDF reader bundled into www/lib/pdf.js by scripts/build-page.mjs:
// Mozilla's pdf.js (pdfjs-dist, Apache-2.0), loaded by the reader's worker only when a
// PDF is given (OPS: for the print test, which reads a printout's colours). Its worker is bundled beside it as www/lib/pdf.worker.js.
export { getDocument, GlobalWorkerOptions, OPS, PDFWorker } from 'pdfjs-dist/build/pdf.mjs';
