// The zip reader bundled into www/lib/zip.js by scripts/build-page.mjs:
// fflate (MIT), loaded by reader.js only when a .docx, .odt or .zip is given.
export { unzipSync, strFromU8 } from 'fflate';
