// Issue 48 through npm: the reader's own module (`neardup/read`, built from
// the core's `read`) reads a .docx with its hidden text left out and
// counted, an archive entry by entry, says a PDF is the caller's, refuses
// wrong types with a TypeError; `withHiddenText` (the main module) adds the
// reader's count to a comparison's obfuscation with the core's sentence.
// Documents are zipped by fflate; the visible text is written out here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { initSync, readFile, readFiles, readingLimits } from '../../pkg/neardup_read.js';
import { compare, withHiddenText } from '../../pkg/node.js';
import { repo } from './helpers.mjs';

initSync({ module: readFileSync(join(repo, 'pkg/neardup_read_bg.wasm')) });

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const docx = (body) => zipSync({ 'word/document.xml': strToU8(`<w:document ${W}><w:body>${body}</w:body></w:document>`) });

test('a .docx reads as what is seen; its hidden runs are counted', () => {
  const bytes = docx('<w:p><w:r><w:t xml:space="preserve">Seen words. </w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden words</w:t></w:r></w:p>'
    + '<w:p><w:r><w:rPr><w:sz w:val="2"/></w:rPr><w:t>tiny</w:t></w:r><w:r><w:t>More seen.</w:t></w:r></w:p>');
  const read = readFile('essay.docx', bytes);
  assert.equal(read.text, 'Seen words. \nMore seen.');
  assert.equal(read.format, 'docx');
  assert.deepEqual(read.hidden, { runs: 2, bytes: 'hidden words'.length + 'tiny'.length });
  assert.equal(read.sha256, createHash('sha256').update(bytes).digest('hex'));
});

test('an archive is read entry by entry; a PDF is handed back; bad files are named', () => {
  const pdf = strToU8('%PDF-1.4 not really');
  const out = readFiles('class/all.zip', zipSync({
    'ann/essay.txt': strToU8('Ann wrote this.'),
    'bob/essay.pdf': pdf,
    'bob/photo.jpg': new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]),
  }));
  assert.deepEqual(out.texts.map((t) => [t.path, t.text, t.format]), [['class/ann/essay.txt', 'Ann wrote this.', 'text']]);
  assert.equal(out.pdfs.length, 1);
  assert.equal(out.pdfs[0].path, 'class/bob/essay.pdf');
  assert.ok(out.pdfs[0].bytes instanceof Uint8Array);
  assert.deepEqual([...out.pdfs[0].bytes], [...pdf]);
  assert.deepEqual(out.failed, [{ path: 'class/bob/photo.jpg', reason: 'not a text, .docx, .odt or PDF file (binary data)' }]);
  assert.equal(out.textBytes, 'Ann wrote this.'.length);
});

test('errors have a kind; wrong types are TypeErrors; the limits are the core\'s', () => {
  assert.throws(() => readFile('a.txt', strToU8('%PDF-1.7')), (e) => e.kind === 'pdf' && /read by the page only/.test(e.message));
  assert.throws(() => readFile('a.txt', new Uint8Array(0)), (e) => e.kind === 'noText');
  assert.throws(() => readFile('a.txt', 'not bytes'), TypeError);
  assert.throws(() => readFiles(42, new Uint8Array(1)), TypeError);
  const limits = readingLimits();
  assert.equal(limits.fileBytes, 50 * 2 ** 20);
  assert.equal(limits.textBytes, 16 * 2 ** 20);
  assert.equal(limits.archiveFiles, 5000);
});

test('withHiddenText adds the reader\'s runs to a comparison\'s obfuscation, in the core\'s words', () => {
  const r = compare('The river runs to the sea.', 'The river runs to the sea.');
  assert.equal(r.obfuscationA.warning, undefined);
  const o = withHiddenText(r.obfuscationA, 3);
  assert.equal(o.hidden, 3);
  assert.equal(o.warning, '3 runs of hidden text left out: a known way to hide copying from a checker.');
  assert.throws(() => withHiddenText(r.obfuscationA, -1), RangeError);
});

test('a real .docx made by the docx package: hidden, white and 1-pt runs are left out and counted', async () => {
  const { Document, Packer, Paragraph, TextRun } = await import('docx');
  const doc = new Document({
    sections: [{
      children: [
        new Paragraph({ children: [new TextRun('The copied sentence stays. '), new TextRun({ text: 'vanished padding', vanish: true })] }),
        new Paragraph({ children: [new TextRun({ text: 'white padding', color: 'FFFFFF' }), new TextRun('Second line seen.')] }),
        new Paragraph({ children: [new TextRun({ text: 'tiny padding', size: 2 }), new TextRun({ text: 'Grey but read.', color: '999999' })] }),
      ],
    }],
  });
  const bytes = new Uint8Array(await Packer.toBuffer(doc));
  const read = readFile('essay.docx', bytes);
  assert.equal(read.text, 'The copied sentence stays. \nSecond line seen.\nGrey but read.');
  assert.equal(read.hidden.runs, 3);
  assert.equal(read.hidden.bytes, 'vanished padding'.length + 'white padding'.length + 'tiny padding'.length);
});

// Issue 51 item 1 through npm: the overlapping-entry zip of
// tests/data/overlapping.zip (1,000 entries on one 4 MiB record; see its
// generator) is refused as overlapping without inflating an entry, as a
// .zip, a .docx and an .odt; an archive beside it is still read.
test('an archive whose entries overlap is refused, whatever its name', () => {
  const bomb = readFileSync(join(repo, 'tests/data/overlapping.zip'));
  for (const name of ['class/bomb.zip', 'class/essay.docx', 'class/essay.odt']) {
    const out = readFiles(name, bomb);
    assert.deepEqual(out.texts, [], name);
    assert.equal(out.failed.length, 1, name);
    assert.equal(out.failed[0].path, name);
    assert.match(out.failed[0].reason, /overlap .*zip bomb/);
    assert.equal(out.textBytes, 0);
  }
  assert.throws(() => readFile('essay.docx', bomb), (e) => /overlap/.test(e.message));
});
