// Browser tests of the two-text view a teacher can trust (issue 23): every
// file format read (the files made here with well-kept libraries: `docx`
// for Word, Chromium's own printing for PDF, fflate for OpenDocument),
// files that cannot be read refused with the reason, the printout keeping
// its highlights, wrapped quotations, the typo list, the report, keyboard
// access and an axe-core accessibility audit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { zipSync, strToU8 } from 'fflate';
import * as nd from '../../pkg/node.js';
import { clough, repo } from '../js/helpers.mjs';
import { cyrillic, everyNth } from '../js/tricks.mjs';
import { clickHighlight, launch, openPage, scoreAfter, waitHot } from './browser.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const A_FILE = 'g0pA_taskb.txt'; // a "cut" answer of the Clough–Stevenson corpus
const B_FILE = 'orig_taskb.txt'; // its Wikipedia source

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const paragraphsOf = (text) => text.split(/\n\s*\n|\r?\n/).map((p) => p.trim()).filter(Boolean);

async function docxOf(text) {
  const doc = new Document({
    sections: [{ children: paragraphsOf(text).map((p) => new Paragraph({ children: [new TextRun(p)] })) }],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

// An OpenDocument text, written as the format says (a stored mimetype
// first, then content.xml), zipped by fflate.
function odtOf(text) {
  const ns = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  const body = paragraphsOf(text).map((p) => `<text:p>${escapeHtml(p).replace(/ {2}/g, ' <text:s/>')}</text:p>`).join('');
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns} office:version="1.3"><office:body><office:text>${body}</office:text></office:body></office:document-content>`;
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
    'content.xml': strToU8(content),
  });
}

// A PDF with a text layer, printed by Chromium from an HTML page of the text.
async function pdfOf(text) {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const body = paragraphsOf(text).map((p) => `<p>${escapeHtml(p)}</p>`).join('');
  await page.setContent(`<!doctype html><meta charset="utf-8"><body style="font: 12pt serif; font-variant-ligatures: none">${body}</body>`);
  const pdf = new Uint8Array(await page.pdf({ format: 'A4' }));
  await context.close();
  return pdf;
}

async function setFile(page, testid, name, bytes, mimeType = 'application/octet-stream') {
  await page.setInputFiles(`[data-testid=${testid}]`, { name, mimeType, buffer: Buffer.from(bytes) });
}

// Empties A (the page goes idle), gives it a file, and waits for the score.
async function scoreOfFile(page, give) {
  await page.fill('[data-testid=text-a]', '');
  await page.waitForFunction(() => document.querySelector('[data-testid=score]').dataset.value === undefined);
  await give();
  await page.waitForFunction(() => document.querySelector('[data-testid=score]').dataset.value !== undefined, null, { timeout: 30_000 });
  return Number(await page.getAttribute('[data-testid=score]', 'data-value'));
}

// Drops a file on an element, as a drag from the desktop does.
async function dropFile(page, selector, name, bytes) {
  await page.evaluate(
    ({ selector, name, data }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], name));
      const target = document.querySelector(selector);
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { selector, name, data: [...bytes] },
  );
}

test('a .docx, .pdf, .odt, .html and .md of a real answer score as its .txt does; a dropped .docx too', async () => {
  const a = clough(A_FILE);
  const b = clough(B_FILE);
  const want = nd.compare(a, b).score;
  const { context, page, errors, consoleErrors, requests } = await openPage(env);
  await page.fill('[data-testid=source-1]', b);
  const txt = await scoreAfter(page, () => setFile(page, 'file-a', 'answer.txt', new TextEncoder().encode(a), 'text/plain'));
  assert.ok(Math.abs(txt - want) < 1e-12, `.txt ${txt} vs ${want}`);
  assert.ok(!requests.some((u) => u.includes('/lib/pdf')), 'no PDF reader loaded for a .txt');

  const html = `<!doctype html><html><head><title>x</title><style>p{color:red}</style><script>window.__ran=1</script></head><body>${paragraphsOf(a).map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}</body></html>`;
  const files = [
    ['answer.docx', await docxOf(a), 'docx'],
    ['answer.pdf', await pdfOf(a), 'pdf'],
    ['answer.odt', odtOf(a), 'odt'],
    ['answer.html', new TextEncoder().encode(html), 'html'],
    ['answer.md', new TextEncoder().encode(`# My answer\n\n${a}`), 'markdown'],
  ];
  for (const [name, bytes, format] of files) {
    const score = await scoreOfFile(page, () => setFile(page, 'file-a', name, bytes)).catch(async (e) => { throw new Error(`${name}: ${e.message}; error box: ${await page.textContent('#error-a')}; A: ${(await page.inputValue('[data-testid=text-a]')).slice(0, 200)}`); });
    assert.equal(await page.getAttribute('[data-testid=text-a]', 'data-format'), format);
    const read = await page.inputValue('[data-testid=text-a]');
    assert.ok(!read.includes('\u0000') && !read.includes('PK'), `${name}: no bytes in the box`);
    const expected = name.endsWith('.md') ? nd.compare(`# My answer\n\n${a}`, b).score : want;
    assert.ok(Math.abs(score - expected) < 1e-12, `${name}: ${score} vs ${expected}\n${read.slice(0, 300)}`);
    assert.match(await page.textContent('#count-a'), new RegExp(`from ${name.replace('.', '\\.')}`));
  }
  assert.equal(await page.evaluate(() => window.__ran), undefined, 'the HTML file’s script never ran');
  // pdf.js loaded for the PDF only; every other format read by the core
  // (issue 48: the page parses no document format itself).
  assert.ok(requests.some((u) => u.endsWith('/lib/pdf.js')), 'pdf.js loaded for the PDF');
  assert.ok(!requests.some((u) => /\/lib\/(zip|markup)\.js$/.test(u)), `no parser of the page's own: ${requests}`);

  // Dropped on the text box: the same reader.
  const docx = await docxOf(a);
  const dropped = await scoreOfFile(page, () => dropFile(page, '[data-testid=text-a]', 'dropped.docx', docx));
  assert.equal(await page.getAttribute('[data-testid=text-a]', 'data-file'), 'dropped.docx');
  assert.ok(Math.abs(dropped - want) < 1e-12, `dropped .docx ${dropped}`);
  assert.deepEqual(errors, []);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('files that cannot be read are refused with the reason, never compared as bytes', async () => {
  const a = clough(A_FILE);
  const b = clough(B_FILE);
  const { context, page, errors } = await openPage(env);
  const score = await scoreAfter(page, async () => {
    await page.fill('[data-testid=source-1]', b);
    await page.fill('[data-testid=text-a]', a);
  });
  const docx = await docxOf(a);
  const blank = await (async () => {
    const c = await env.browser.newContext();
    const p = await c.newPage();
    await p.setContent('<!doctype html><body><div style="width:10cm;height:5cm;border:2px solid black"></div></body>');
    const pdf = new Uint8Array(await p.pdf({ format: 'A4' }));
    await c.close();
    return pdf;
  })();
  const random = new Uint8Array(4096).map((_, i) => (i * 2654435761) >>> 24);
  const cases = [
    ['essay.docx', docx.slice(0, docx.length >> 1), /damaged/],
    ['scan.pdf', blank, /no text layer/],
    ['broken.pdf', new TextEncoder().encode('%PDF-1.7\nnot really a pdf'), /damaged PDF/],
    ['photo.jpg', random, /binary data/],
    ['old.doc', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), /old Word/],
    ['archive.zip', zipSync({ 'a.txt': strToU8('hello') }), /not a \.docx or \.odt/],
  ];
  for (const [name, bytes, reason] of cases) {
    await setFile(page, 'file-a', name, bytes);
    await page.waitForFunction(() => !document.querySelector('#error-a').hidden);
    const message = await page.textContent('#error-a');
    assert.match(message, reason, `${name}: ${message}`);
    assert.ok(message.includes(name), `the message names the file: ${message}`);
    assert.equal(await page.inputValue('[data-testid=text-a]'), a, `${name}: the text box keeps its text`);
    assert.equal(Number(await page.getAttribute('[data-testid=score]', 'data-value')), score);
    await page.evaluate(() => { document.querySelector('#error-a').hidden = true; });
  }
  assert.deepEqual(errors, []);
  await context.close();
});

// The zip's declared sizes of its first entry (local header and directory)
// set to `size`: an archive that lies about what it holds.
function lie(zip, size) {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  view.setUint32(22, size, true); // local header: uncompressed size
  for (let i = out.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === 0x02014b50) {
      // The first directory record (archives here hold one entry).
      view.setUint32(i + 24, size, true);
    }
  }
  return out;
}

// Gives a file to an input as a user's pick would (a File from the page's
// own memory and a change event), and returns the long tasks (over 50 ms,
// by the browser's Long Tasks API) of the page's main thread from then
// until `done` holds. The file is made before the watch starts (`bytes`
// base64, or `repeat` × `unit` of text), so only the page's own work counts.
async function longTasksReading(page, testid, name, { bytes, unit, repeat }, done) {
  await page.evaluate(([testid, name, b64, unit, repeat]) => {
    const data = b64 ? Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)) : new TextEncoder().encode(unit.repeat(repeat));
    window.__file = new File([data], name);
    window.__long = [];
    window.__observer = new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => Math.round(e.duration))));
    window.__observer.observe({ type: 'longtask' });
    const input = document.querySelector(`[data-testid=${testid}]`);
    const dt = new DataTransfer();
    dt.items.add(window.__file);
    input.files = dt.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, [testid, name, bytes ? Buffer.from(bytes).toString('base64') : null, unit ?? null, repeat ?? 0]);
  await page.waitForFunction(done, null, { timeout: 60_000 });
  return page.evaluate(() => {
    window.__observer.disconnect();
    return window.__long;
  });
}

test('files that lie about their size, declare entities or hold too much are refused in the reader\'s worker, the page never stalled', async () => {
  const { context, page, errors } = await openPage(env);
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const doc = (body, head = '') => strToU8(`<?xml version="1.0"?>${head}<w:document ${w}><w:body>${body}</w:body></w:document>`);
  // 256 MiB of zeros declared as 4 KB (~250 KB of deflate).
  const bomb = lie(zipSync({ 'word/document.xml': new Uint8Array(256 << 20) }, { level: 9 }), 4096);
  assert.ok(bomb.length < 1 << 20);
  // One 100 KB entity referenced 10,000 times (a "billion laughs" .docx).
  const entity = zipSync({
    'word/document.xml': doc(`<w:p><w:r><w:t>${'&big;'.repeat(10000)}</w:t></w:r></w:p>`, `<!DOCTYPE d [<!ENTITY big "${'x'.repeat(100000)}">]>`),
  }, { level: 9 });
  assert.ok(entity.length < 200_000);
  // 80 MiB of real XML in well under a megabyte: over the 64 MiB an XML may inflate to.
  const huge = zipSync({ 'word/document.xml': doc('<w:p><w:r><w:t>essay words</w:t></w:r></w:p>'.repeat(1_900_000)) }, { level: 9 });
  assert.ok(huge.length < 2 << 20, `${huge.length}`);
  const cases = [
    ['bomb.docx', { bytes: bomb }, /bomb\.docx: word\/document\.xml: expands past the 4096 bytes it declares \(a zip bomb\?\): refused/],
    ['entity.docx', { bytes: entity }, /entity\.docx: its XML declares a document type/],
    ['huge.docx', { bytes: huge }, /huge\.docx: word\/document\.xml: \d+ bytes, over the 64 MiB limit/],
    // 20 MiB of plain text: over the 16 MiB of one text.
    ['long.txt', { unit: 'many words of a very long essay ', repeat: 655_360 }, /long\.txt: its text is over the 16 MiB limit of one text/],
  ];
  for (const [name, file, reason] of cases) {
    const long = await longTasksReading(page, 'file-a', name, file, () => !document.querySelector('#error-a').hidden);
    assert.match(await page.textContent('#error-a'), reason);
    // Read in the reader's worker: no task of the page's own thread came
    // near the seconds such files once took (6 s to 347 s).
    assert.ok(long.every((ms) => ms < 500), `${name}: long tasks ${long}`);
    await page.evaluate(() => { document.querySelector('#error-a').hidden = true; });
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the printout keeps the highlights, the full texts, the settings and the date', async () => {
  // A long answer: the four Clough–Stevenson answers of task b, one after another.
  const a = ['g0pA_taskb.txt', 'g0pB_taskb.txt', 'g0pC_taskb.txt', 'g0pD_taskb.txt'].map(clough).join('\n\n');
  const b = clough(B_FILE);
  const { context, page, errors } = await openPage(env);
  await scoreAfter(page, async () => {
    await page.fill('[data-testid=source-1]', b);
    await page.fill('[data-testid=text-a]', a);
  });
  await page.waitForFunction(() => document.querySelector('#view-a').dataset.done === 'true' && document.querySelector('#view-b').dataset.done === 'true');
  await page.emulateMedia({ media: 'print' });
  const layout = await page.evaluate(() => {
    const shown = (sel) => getComputedStyle(document.querySelector(sel)).display !== 'none';
    const view = document.querySelector('#view-a');
    // A <mark>'s colours, or the ranges' (the Custom Highlight API).
    const mark = view.querySelector('mark');
    return {
      textareas: shown('.inputs'),
      info: shown('#print-info'),
      infoText: document.querySelector('#print-info').textContent,
      cut: view.scrollHeight > view.clientHeight + 1,
      adjust: getComputedStyle(mark ?? view).printColorAdjust,
      background: mark ? getComputedStyle(mark).backgroundColor : getComputedStyle(view, '::highlight(nd-src-0)').backgroundColor,
    };
  });
  assert.equal(layout.textareas, false, 'no text areas on paper');
  assert.equal(layout.info, true);
  assert.match(layout.infoText, /Printed .*Minimum match length: none.*Ignore quotes in A: off/s);
  assert.equal(layout.cut, false, 'A is printed in full');
  assert.equal(layout.adjust, 'exact');
  assert.equal(layout.background, 'rgb(255, 229, 138)');
  await page.emulateMedia({ media: null });

  // Print to PDF, then read the PDF back with pdf.js in the page: the
  // highlight colour is painted, and A's last words are on paper.
  const pdf = [...new Uint8Array(await page.pdf({ format: 'A4' }))];
  const found = await page.evaluate(async (data) => {
    const pdfjs = await import('/lib/pdf.js');
    pdfjs.GlobalWorkerOptions.workerSrc = '/lib/pdf.worker.js';
    const doc = await pdfjs.getDocument({ data: new Uint8Array(data), isEvalSupported: false }).promise;
    const colours = new Set();
    let text = '';
    for (let i = 1; i <= doc.numPages; i++) {
      const p = await doc.getPage(i);
      const ops = await p.getOperatorList();
      ops.fnArray.forEach((fn, j) => {
        if (fn === pdfjs.OPS.setFillRGBColor) colours.add(String(ops.argsArray[j]).toLowerCase());
      });
      text += (await p.getTextContent()).items.map((it) => it.str ?? '').join(' ') + ' ';
    }
    return { colours: [...colours], text, pages: doc.numPages };
  }, pdf);
  assert.ok(found.colours.some((c) => c.includes('ffe58a') || c === '255,229,138'), `highlight colour painted: ${found.colours}`);
  const squash = (s) => s.replace(/\s+/g, '');
  const lastWords = a.trim().split(/\s+/).slice(-6).join(' ');
  assert.ok(squash(found.text).includes(squash(lastWords)), `A's last words on paper (${found.pages} pages)`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a quotation that runs over a line break is ignored with "Ignore quotes in A"; a blank line ends it', async () => {
  const b = clough(B_FILE);
  const quoted = 'PageRank is a link analysis algorithm used by the Google Internet search engine that assigns a numerical weighting to each element of a hyperlinked set of documents';
  assert.ok(b.includes(quoted));
  // Hard-wrapped at about 60 characters, as an e-mail or a plain-text editor does.
  const wrapped = quoted.replace(/(.{40,60}?) /g, '$1\n');
  assert.ok(wrapped.includes('\n'));
  const a = `In my own words, ranking pages matters a lot. As the textbook puts it, "${wrapped}." That is why my results look the way they do.`;
  const { context, page, errors } = await openPage(env);
  const full = await scoreAfter(page, async () => {
    await page.fill('[data-testid=source-1]', b);
    await page.fill('[data-testid=text-a]', a);
  });
  assert.ok(full > 0.4, `with the quote ${full}`);
  const without = await scoreAfter(page, () => page.check('[data-testid=quotes-switch]'));
  assert.ok(without < 0.1, `without the wrapped quote ${without}`);
  assert.equal(await page.textContent('#view-a'), a, 'the text is shown as typed');
  // A stray quotation mark does not swallow the next paragraph.
  const stray = `He said "so.\n\n${clough('g0pA_taskb.txt')}`;
  const kept = await scoreAfter(page, () => page.fill('[data-testid=text-a]', stray));
  assert.ok(kept > 0.8, `the paragraph after a blank line still counts: ${kept}`);
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 47 item 3: a .docx copy padded with hidden words (Word's hidden
// text and white text) is read by the core's reader without them, scores as
// the copy, and the padding is said beside the score.
test('a .docx copy padded with hidden text scores as the copy and the hidden runs are said (issue 47)', async () => {
  const a = clough(A_FILE);
  const b = clough(B_FILE);
  const padding = clough('g4pC_taska.txt').split(/\n+/).filter((l) => l.trim());
  const lines = a.split(/\n+/).filter((l) => l.trim());
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = lines.map((l, i) => {
    const trick = i % 2 ? '<w:color w:val="FFFFFF"/>' : '<w:vanish/>';
    return `<w:p><w:r><w:t xml:space="preserve">${esc(l)}</w:t></w:r><w:r><w:rPr>${trick}</w:rPr><w:t xml:space="preserve"> ${esc(padding[i % padding.length])}</w:t></w:r></w:p>`;
  }).join('');
  const docx = zipSync({ 'word/document.xml': strToU8(`<?xml version="1.0"?><w:document ${w}><w:body>${body}</w:body></w:document>`) });
  const { context, page, errors } = await openPage(env);
  await page.fill('[data-testid=source-1]', b);
  const score = await scoreOfFile(page, () => setFile(page, 'file-a', 'copy.docx', docx));
  // The text read is the visible lines, one a paragraph: scored as that text.
  assert.equal(await page.inputValue('[data-testid=text-a]'), lines.join('\n'));
  assert.ok(Math.abs(score - nd.compare(lines.join('\n'), b).score) < 1e-12, `${score}`);
  await page.waitForSelector('[data-testid=obfuscation-warning]', { state: 'visible', timeout: 30_000 });
  assert.match(await page.textContent('[data-testid=obfuscation-warning]'), new RegExp(`${lines.length} runs of hidden text left out`));
  assert.equal(await page.getAttribute('[data-testid=obfuscation-warning]', 'data-hidden'), String(lines.length));
  // Typed over, the text is no longer the file's: nothing hidden is said.
  // (The same words may score the same: wait for the warning to go.)
  await page.fill('[data-testid=text-a]', a);
  await page.waitForSelector('[data-testid=obfuscation-warning]', { state: 'hidden', timeout: 30_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a copy hidden by look-alike letters or invisible characters scores as the copy and is said (issue 47); a half-quoted text is said too', async () => {
  const a = clough(A_FILE);
  const b = clough(B_FILE);
  const { context, page, errors } = await openPage(env);
  const plain = await scoreAfter(page, async () => {
    await page.fill('[data-testid=source-1]', b);
    await page.fill('[data-testid=text-a]', a);
  });
  assert.equal(await page.isVisible('[data-testid=obfuscation-warning]'), false, 'an honest copy is not flagged');
  // No class is open: no way back to one (the style sheet once showed it).
  assert.equal(await page.isVisible('[data-testid=back-to-class]'), false);
  const tricked = everyNth(cyrillic(a), 2, '\u200b');
  // Undone, the copy may score exactly as before: wait for the warning.
  await page.fill('[data-testid=text-a]', tricked);
  await page.waitForSelector('[data-testid=obfuscation-warning]', { state: 'visible', timeout: 30_000 });
  const score = Number(await page.getAttribute('[data-testid=score]', 'data-value'));
  assert.ok(score >= plain - 0.02, `${score} < ${plain}`);
  const warning = await page.textContent('[data-testid=obfuscation-warning]');
  assert.match(warning, /look-alike letters/);
  assert.match(warning, /invisible characters/);
  assert.match(warning, /known way to hide copying/);
  assert.ok(Number(await page.getAttribute('[data-testid=obfuscation-warning]', 'data-lookalikes')) > 50);
  assert.equal(await page.textContent('#view-a'), tricked, 'the text is shown as given');
  // "Show where" marks the words that held a trick (wavy underline): as
  // ranges of the nd-trick highlight inside passages, as .trick spans
  // outside them; the text is unchanged. "Hide where" takes them away.
  const marked = () =>
    page.evaluate(() => (globalThis.CSS?.highlights?.get('nd-trick')?.size ?? 0) + document.querySelectorAll('#view-a .trick').length);
  assert.equal(await marked(), 0, 'nothing marked until asked');
  await page.click('[data-testid=obfuscation-show]');
  await page.waitForFunction(() => document.querySelector('#view-a').dataset.done === 'true');
  await page.waitForFunction(() => (globalThis.CSS?.highlights?.get('nd-trick')?.size ?? 0) + document.querySelectorAll('#view-a .trick').length > 20);
  assert.equal(await page.getAttribute('[data-testid=obfuscation-show]', 'aria-pressed'), 'true');
  assert.equal(await page.textContent('#view-a'), tricked, 'marking changes no text');
  await page.click('[data-testid=obfuscation-show]');
  await page.waitForFunction(() => document.querySelector('#view-a').dataset.done === 'true');
  await page.waitForFunction(() => (globalThis.CSS?.highlights?.get('nd-trick')?.size ?? 0) + document.querySelectorAll('#view-a .trick').length === 0);
  // A text written in Russian, compared with itself, is not a trick.
  const russian = 'Наследование — это механизм, позволяющий создавать новые классы на основе уже существующих.';
  await scoreAfter(page, async () => {
    await page.fill('[data-testid=source-1]', russian);
    await page.fill('[data-testid=text-a]', russian);
  });
  assert.equal(await page.getAttribute('[data-testid=score]', 'data-value'), '1');
  assert.equal(await page.isVisible('[data-testid=obfuscation-warning]'), false);
  await page.fill('[data-testid=source-1]', b);
  // Wrapped in quotation marks and left out, a copy says so.
  // (One paragraph: a quotation ends at a blank line.)
  const oneParagraph = a.replace(/\s+/g, ' ').replaceAll('"', "'");
  await scoreAfter(page, () => page.fill('[data-testid=text-a]', `My answer. “${oneParagraph}”`));
  await scoreAfter(page, () => page.check('[data-testid=quotes-switch]'));
  assert.match(await page.textContent('[data-testid=note]'), /inside quotation marks and was left out/);
  assert.equal(await page.isVisible('[data-testid=obfuscation-warning]'), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the typo list leaves out correct words matched by sound ("is" and "has")', async () => {
  const b = 'The method has been used widely by the committee for many years in practice.';
  const a = 'The method is been used widely by the comittee for many years in practice.';
  // The English dictionary the page ships: "is" is a word, "comittee" is not.
  const speller = nd.Speller.fromBytes(readFileSync(join(repo, 'assets/dictionary-en.bin')));
  assert.equal(speller.has('is'), true);
  assert.equal(speller.has('comittee'), false);
  const { context, page, errors } = await openPage(env);
  await scoreAfter(page, async () => {
    await page.fill('[data-testid=source-1]', b);
    await page.fill('[data-testid=text-a]', a);
  });
  await scoreAfter(page, () => page.check('[data-testid=typos-switch]'));
  await page.waitForSelector('[data-testid=typos-found]:not([hidden])');
  const found = await page.textContent('[data-testid=typos-found]');
  assert.match(found, /Treated as misspellings \(1\): comittee → committee/);
  assert.ok(!found.includes('is → has'), found);
  assert.match(found, /1 other match of sound-alike correct words/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the report records every source and setting, and neither its download nor the report logs an error', async () => {
  const a = `${clough('g0pA_taskb.txt')}\n\n${clough('g0pE_taska.txt')}`;
  const { context, page, errors, consoleErrors } = await openPage(env);
  await scoreAfter(page, async () => {
    await page.fill('[data-testid=source-1]', clough('orig_taskb.txt'));
    await page.fill('[data-testid=text-a]', a);
  });
  await page.click('[data-testid=add-source]');
  await page.fill('[data-testid=source-2]', clough('orig_taska.txt'));
  await page.waitForFunction(() => document.querySelectorAll('#sources tbody tr').length === 2);
  // On paper every source is printed, not only the one shown (issue 49):
  // the other in a block only print shows, with its passages marked.
  const printed = async () => page.evaluate(() => {
    const box = document.querySelector('[data-testid=print-sources]');
    return { shown: getComputedStyle(box).display !== 'none', sources: [...box.querySelectorAll('.view')].map((v) => v.dataset.source), marks: box.querySelectorAll('mark').length };
  });
  assert.equal((await printed()).shown, false, 'not on screen');
  await page.emulateMedia({ media: 'print' });
  const onPaper = await printed();
  assert.equal(onPaper.shown, true);
  const showing = await page.inputValue('[data-testid=show-source]');
  assert.deepEqual(onPaper.sources, [showing === '0' ? '1' : '0']);
  assert.ok(onPaper.marks > 0, 'its passages marked');
  await page.emulateMedia({ media: null });
  await page.check('[data-testid=quotes-switch]');
  await page.check('[data-testid=typos-switch]');
  await page.click('.controls summary');
  await page.selectOption('#min-words', '3');
  await page.waitForFunction(() => /3 words or more/.test(document.querySelector('#status').textContent) && !document.querySelector('[data-testid=typos-found]').hidden);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=report]')]);
  const html = readFileSync(await download.path(), 'utf8');
  for (const want of ['Minimum match length', '3 words', 'Ignore quotes in A', 'Tolerate typos (sound-alike words match)', 'on (SoundD)',
    'Words treated as misspellings', 'Source 1', 'Source 2', 'of A’s 3-word phrases are found in']) {
    assert.ok(html.includes(want), `report has “${want}”`);
  }
  assert.equal((html.match(/class="view"/g) ?? []).length, 3, 'A and both sources, highlighted');
  assert.ok(/print-color-adjust:exact/.test(html));
  assert.ok(!/<script|<link|src=/i.test(html), 'self-contained');
  assert.deepEqual(consoleErrors, [], 'no console error on download');
  // Opened on its own, the report logs nothing either.
  const viewer = await context.newPage();
  const reportErrors = [];
  viewer.on('console', (m) => m.type() === 'error' && reportErrors.push(m.text()));
  viewer.on('pageerror', (e) => reportErrors.push(String(e)));
  await viewer.setContent(html);
  assert.ok((await viewer.$$('mark')).length > 2);
  assert.deepEqual(reportErrors, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('keyboard: every file input is reached with Tab, passages open with Enter', async () => {
  const { context, page, errors } = await openPage(env);
  await page.focus('[data-testid=text-a]');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'file-a');
  await page.focus('[data-testid=source-1]');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'file-source-1');
  await page.click('[data-testid=add-source]');
  assert.ok(await page.$('[data-testid=file-source-2]'), 'an added source has its file input');
  await scoreAfter(page, async () => {
    await page.fill('[data-testid=source-1]', clough(B_FILE));
    await page.fill('[data-testid=text-a]', clough(A_FILE));
  });
  await page.focus('#passages li');
  await page.keyboard.press('Enter');
  await waitHot(page, '#view-b');
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone a tap on a passage shows both sides', async () => {
  const { context, page, errors } = await openPage(env, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await scoreAfter(page, async () => {
    await page.fill('[data-testid=source-1]', clough(B_FILE));
    await page.fill('[data-testid=text-a]', clough('g0pC_taskb.txt'));
  });
  await clickHighlight(page, '#view-a', 0, { tap: true });
  await page.waitForSelector('#pair-note:not([hidden])');
  const note = await page.evaluate(() => {
    const r = document.querySelector('#pair-note').getBoundingClientRect();
    return { text: document.querySelector('#pair-note').textContent, top: r.top, bottom: r.bottom };
  });
  assert.match(note.text, /A: “.+”.*Source 1: “.+”/s);
  assert.ok(note.top < 844 && note.bottom > 0, `the note is in view: ${note.top}–${note.bottom}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('axe-core finds no accessibility violation of any impact', async () => {
  const { context, page, errors } = await openPage(env);
  await scoreAfter(page, async () => {
    await page.fill('[data-testid=source-1]', clough(B_FILE));
    await page.fill('[data-testid=text-a]', clough(A_FILE));
  });
  await page.click('[data-testid=add-source]');
  await page.check('[data-testid=typos-switch]');
  await page.waitForSelector('[data-testid=typos-found]:not([hidden])');
  await page.waitForFunction(() => document.querySelector('#view-a').dataset.done === 'true' && document.querySelector('#view-b').dataset.done === 'true');
  // axe's source runs through the DevTools protocol (not a script tag, which
  // the page's Content Security Policy refuses).
  await page.evaluate(readFileSync(join(repo, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  });
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  await context.close();
});

// Issue 49: the server goes away after the page has loaded (Wi-Fi drops, a
// redeploy): the comparison says it failed; when the server is back, the
// next edit compares, without a reload (a worker that failed to load is
// replaced, an engine or model that failed to load is fetched again).
test('a page whose server went away and came back compares again without a reload', async () => {
  const { context, page } = await openPage(env);
  const away = (route) => route.abort('internetdisconnected');
  await context.route(/\/(worker\.js|pkg\/.*|model\.json)(\?.*)?$/, away);
  // Loaded again with the engine's files away: its load at start fails.
  await page.reload();
  await page.fill('[data-testid=source-1]', clough(B_FILE));
  await page.fill('[data-testid=text-a]', clough(A_FILE));
  await page.waitForFunction(() => document.querySelector('#score').classList.contains('error'), null, { timeout: 30_000 });
  assert.match(await page.textContent('#reading'), /comparison engine failed/);
  await context.unroute(/\/(worker\.js|pkg\/.*|model\.json)(\?.*)?$/, away);
  // The reader's own module away: a file cannot be read, then can.
  const file = { name: 'answer.txt', mimeType: 'text/plain', buffer: Buffer.from('A file read once the server is back.') };
  await context.route(/neardup_read/, away);
  await page.setInputFiles('#file-a', file);
  await page.waitForSelector('#error-a', { state: 'visible', timeout: 30_000 });
  assert.match(await page.textContent('#error-a'), /^Not read: /);
  await context.unroute(/neardup_read/, away);
  await page.setInputFiles('#file-a', []);
  await page.setInputFiles('#file-a', file);
  await page.waitForFunction(() => document.querySelector('#text-a').value === 'A file read once the server is back.', null, { timeout: 30_000 });
  const score = await scoreAfter(page, () => page.fill('[data-testid=text-a]', clough(A_FILE) + ' Back.'));
  assert.ok(score > 0.5, `${score}`);
  // With the verdict: the model was fetched again too.
  await page.waitForFunction(() => document.querySelector('#verdict')?.dataset.class !== undefined, null, { timeout: 30_000 });
  await context.close();
});
