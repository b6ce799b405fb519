// The two-text view's inputs: text A, source B and up to four more
// sources, each a text area with an "Open a file" button (or a file dropped
// on it), read by reader.js; swap, clear and the example. Every change
// calls the view's `onChange`.
import { shownName } from '../names.js';
import { readFile } from '../reader.js';
import { SOURCE_COLOURS } from '../highlight.js';
import { $, state } from './state.js';

export const textA = $('text-a');
export const textB = $('text-b');

/** The source text areas: B, then those added with "+ Add a source". */
export function sourceAreas() {
  return [textB, ...document.querySelectorAll('#more-sources textarea')];
}

/** A source's name as the view says it: "B", "source 3", "source 2 (essay.docx)". */
export function sourceName(k) {
  const area = sourceAreas()[k];
  return area?.dataset.file ? `source ${k + 1} (${area.dataset.file})` : k === 0 ? 'B' : `source ${k + 1}`;
}

/** The character count under a text area, with its file and encoding. */
export function countLabel(area) {
  const s = area.value;
  if (!s) return '';
  const from = area.dataset.file ? ` · from ${area.dataset.file}` : '';
  const read = area.dataset.encoding && area.dataset.encoding !== 'UTF-8' ? ` · read as ${area.dataset.encoding}` : '';
  return `${s.length.toLocaleString()} characters${from}${read}`;
}

let onChange = () => {};

// Files: an "Open a file" button per text, or drop a file on its text area.
// The reader (reader.js) reads .txt, .md, .html, .docx, .odt and .pdf, and
// refuses anything else with the reason, shown under the text area.
async function readFileInto(file, area, errorBox) {
  if (!file) return;
  errorBox.hidden = true;
  area.setAttribute('aria-busy', 'true');
  try {
    const { text, encoding, format, hidden } = await readFile(file);
    area.value = text;
    area.dataset.file = shownName(file.name);
    area.dataset.format = format;
    // Runs of hidden text the reader left out (said with the score).
    area.dataset.hidden = String(hidden?.runs ?? 0);
    if (encoding) area.dataset.encoding = encoding;
    else delete area.dataset.encoding;
    onChange();
  } catch (err) {
    errorBox.textContent = `Not read: ${shownName(String(err?.message ?? err))}`;
    errorBox.hidden = false;
  } finally {
    area.removeAttribute('aria-busy');
  }
}

function wireArea(area, input, errorBox) {
  area.addEventListener('input', () => {
    state.pair = null; // edited: the class set's ranges no longer apply
    delete area.dataset.encoding; // typed or pasted: no longer the file's
    delete area.dataset.file;
    delete area.dataset.hidden;
    errorBox.hidden = true;
    onChange();
  });
  input.addEventListener('change', () => {
    readFileInto(input.files[0], area, errorBox);
    input.value = '';
  });
  area.addEventListener('dragover', (e) => {
    e.preventDefault();
    area.classList.add('drop');
  });
  area.addEventListener('dragleave', () => area.classList.remove('drop'));
  area.addEventListener('drop', (e) => {
    e.preventDefault();
    area.classList.remove('drop');
    readFileInto(e.dataTransfer.files[0], area, errorBox);
  });
}

// Sources are numbered by position: after a removal the later ones move up.
function relabelSources() {
  document.querySelectorAll('#more-sources .source').forEach((box, j) => {
    const k = j + 1;
    const label = box.querySelector('.source-head label');
    label.htmlFor = `text-b${k + 1}`;
    label.querySelector('.swatch').className = `swatch src-${k}`;
    label.lastChild.textContent = `Source ${k + 1}`;
    const area = box.querySelector('textarea');
    area.id = `text-b${k + 1}`;
    area.dataset.testid = `source-${k + 1}`;
    box.querySelector('input[type=file]').dataset.testid = `file-source-${k + 1}`;
    box.querySelector('.remove').setAttribute('aria-label', `Remove source ${k + 1}`);
  });
}

/** "+ Add a source": up to five sources, each compared with A. */
export function addSource() {
  const k = sourceAreas().length;
  if (k >= SOURCE_COLOURS) return null;
  const box = document.createElement('div');
  box.className = 'source';
  const head = document.createElement('div');
  head.className = 'source-head';
  const label = document.createElement('label');
  const swatch = document.createElement('span');
  swatch.className = 'swatch';
  label.append(swatch, document.createTextNode(''));
  const file = document.createElement('label');
  file.className = 'file';
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = $('file-b').accept;
  file.append('Open a file', input);
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'remove';
  remove.textContent = 'Remove';
  const area = document.createElement('textarea');
  area.spellcheck = false;
  area.placeholder = 'Paste another possible source, or drop a file here';
  const errorBox = document.createElement('div');
  errorBox.className = 'file-error';
  errorBox.setAttribute('role', 'alert');
  errorBox.hidden = true;
  wireArea(area, input, errorBox);
  remove.addEventListener('click', () => {
    box.remove();
    $('add-source').disabled = false;
    relabelSources();
    onChange();
  });
  head.append(label, file, remove);
  box.append(head, area, errorBox);
  $('more-sources').append(box);
  relabelSources();
  $('add-source').disabled = sourceAreas().length >= SOURCE_COLOURS;
  return area;
}

/** Removes the added sources. */
export function clearSources() {
  $('more-sources').replaceChildren();
  $('add-source').disabled = false;
}

/** Fills A and B (and their file names), the added sources removed. */
export function fill(pairs) {
  clearSources();
  for (const [area, text, name] of pairs) {
    area.value = text;
    if (name) area.dataset.file = name;
    else delete area.dataset.file;
    delete area.dataset.encoding;
    delete area.dataset.format;
  }
}

const EXAMPLE_B =
  'A hash table stores values in an array of buckets. A hash function turns each key into an index, ' +
  'so that a lookup only has to inspect one bucket instead of the whole collection. When two keys map ' +
  'to the same bucket the table must resolve the collision, for example by keeping a short list in ' +
  'every bucket or by probing the next free slot. As the table fills up, collisions become more ' +
  'frequent, so most implementations grow the array and rehash every key once a load factor is reached.';
const EXAMPLE_A =
  'Hash tables are a common data structure. A hash function turns each key into an index, so that ' +
  'a lookup only needs to look at one bucket rather than the whole collection. If two different keys ' +
  'land in the same bucket, the table has to resolve the collision, for example by keeping a short ' +
  'list in every bucket. I think this is why they are fast in practice.';

/** Wires the inputs; `change` is called whenever what to compare changes. */
export function wireInputs(change) {
  onChange = change;
  wireArea(textA, $('file-a'), $('error-a'));
  wireArea(textB, $('file-b'), $('error-b'));
  $('add-source').addEventListener('click', () => addSource()?.focus());
  $('swap').addEventListener('click', () => {
    if (state.pair) state.pair = { a: state.pair.b, b: state.pair.a, commonA: [] };
    [textA.value, textB.value] = [textB.value, textA.value];
    for (const key of ['encoding', 'file', 'format']) {
      const [x, y] = [textA.dataset[key], textB.dataset[key]];
      if (y === undefined) delete textA.dataset[key];
      else textA.dataset[key] = y;
      if (x === undefined) delete textB.dataset[key];
      else textB.dataset[key] = x;
    }
    onChange();
  });
  // "Clear": A, B and every added source, with their files and errors.
  $('clear').addEventListener('click', () => {
    state.pair = null;
    fill([[textA, '', ''], [textB, '', '']]);
    for (const id of ['error-a', 'error-b']) $(id).hidden = true;
    onChange();
  });
  $('example').addEventListener('click', () => {
    textA.value = EXAMPLE_A;
    textB.value = EXAMPLE_B;
    onChange();
  });
}
