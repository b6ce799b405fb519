// The tricks that hide a copy (issue 47), as a student applies them with
// find-and-replace: shared by tests/js/tricks.test.mjs and
// scripts/eval-tricks.mjs.

/** `mark` after every `n`-th letter of a word, unless the word ends there. */
export const everyNth = (text, n, mark) => {
  let run = 0;
  return [...text].map((c, i, all) => {
    run = /\p{L}/u.test(c) ? run + 1 : 0;
    return run && run % n === 0 && /\p{L}/u.test(all[i + 1] ?? '') ? c + mark : c;
  }).join('');
};

/** Latin a e o c p x y i typed as their Cyrillic look-alikes а е о с р х у і. */
export const cyrillic = (t) => t.replace(/[aeocpxyi]/g, (c) => 'аеосрхуі'['aeocpxyi'.indexOf(c)]);

/** The four tricks of the check, by name. */
export const TRICKS = {
  'Cyrillic look-alikes': cyrillic,
  'zero-width space every 2nd letter': (t) => everyNth(t, 2, '\u200b'),
  'soft hyphen every 3rd letter': (t) => everyNth(t, 3, '\u00ad'),
  'Greek omicron with joiners': (t) => t.replaceAll('o', '\u200dο\u200d'),
};
