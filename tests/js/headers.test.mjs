// The page's Content Security Policy is the same wherever it is stated: the
// <meta> tag of www/index.html (the page), the header scripts/serve.mjs
// sends with every file, and www/_headers, which static hosts (Cloudflare
// Pages, Netlify) send with every file — the only way it covers the page's
// Web Worker. And it forbids what the page promises never to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CSP } from '../../scripts/serve.mjs';
import { repo } from './helpers.mjs';

test('the Content Security Policy is one, in the page, the local server and www/_headers', () => {
  const html = readFileSync(join(repo, 'www/index.html'), 'utf8');
  const meta = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)[1];
  const headers = readFileSync(join(repo, 'www/_headers'), 'utf8').split('\n');
  const at = headers.indexOf('/*');
  assert.ok(at >= 0, 'a rule for every path');
  const policy = headers
    .slice(at + 1)
    .filter((l) => /^\s+Content-Security-Policy:/.test(l))
    .map((l) => l.replace(/^\s+Content-Security-Policy:\s*/, ''));
  assert.equal(policy.length, 1);
  assert.equal(policy[0], meta);
  assert.equal(CSP, meta);
  const rules = Object.fromEntries(meta.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  for (const d of ['default-src', 'connect-src', 'worker-src', 'script-src']) {
    assert.ok(rules[d].includes("'self'") && !rules[d].some((v) => v === '*' || v.startsWith('http')), `${d}: ${rules[d]}`);
  }
  assert.deepEqual(rules['object-src'], ["'none'"]);
  assert.deepEqual(rules['form-action'], ["'none'"]);
});
