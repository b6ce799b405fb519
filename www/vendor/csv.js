// The CSV writer bundled into www/lib/csv.js by scripts/build-page.mjs:
// Papa Parse (MIT), loaded by class-set.js only when a CSV is exported.
export { unparse } from 'papaparse';
