// The zip reader bundled into www/lib/zip.js by scripts/build-page.mjs:
// fflate (MIT), loaded by the reader's worker only when a .docx, .odt or .zip
// is given; its streaming inflater lets the reader count the bytes actually
// produced, whatever an archive declares.
export { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
