// pdf.js's parsing worker (pdfjs-dist, Apache-2.0), bundled as
// www/lib/pdf.worker.js; started by www/lib/pdf.js from this origin.
import 'pdfjs-dist/build/pdf.worker.mjs';
