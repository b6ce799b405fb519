// Shared helpers for the JS tests: where things are, and text decoding.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

export const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const dataDir = process.env.NEARDUP_DATA ?? join(repo, '..', 'shared', 'data');

// UTF-8 when valid, else Windows-1252 (as the CLI does).
export function readText(path) {
  const bytes = readFileSync(path);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

export function clough(file) {
  return readText(join(dataDir, 'clough-abc', 'texts', file));
}

// The labelled pairs of clough-abc: [{file, source, category}].
export function cloughLabels() {
  const [header, ...rows] = readFileSync(join(dataDir, 'clough-abc', 'labels.csv'), 'utf8').trim().split(/\r?\n/);
  const cols = header.split(',');
  return rows.map((r) => {
    const f = r.split(',');
    const get = (name) => f[cols.indexOf(name)];
    return { file: get('file'), source: get('source_file'), category: get('category') };
  });
}
