// The markup parser bundled into www/lib/markup.js by scripts/build-page.mjs:
// htmlparser2 (MIT), a streaming HTML and XML tokenizer that builds no DOM
// and expands no entity a document declares; loaded by the reader's worker
// only when an .html, .docx or .odt file is given.
export { Parser } from 'htmlparser2';
