// A package error (TypeError/RangeError "posenc: <argument> must be …") as a sentence in the
// page's language. The package speaks English; in Korean the argument and its range are read
// out of the message and said in Korean, so no English sentence reaches a Korean page.

const CONDITIONS = [
  [/^a finite number\s*(>=|>|<=|<)\s*(\S+)$/, (op, v) => ({ op, v, kind: 'number' })],
  [/^an integer in \[([^,]+), ([^\]]+)\]$/, (lo, hi) => ({ lo, hi, kind: 'range' })],
  [/^(?:an? )?even(?: integer)?/, () => ({ kind: 'even' })],
];

/** The error as text for `t` (the page's translator). */
export function packageError(t, err) {
  const message = String(err?.message ?? err);
  if (t.lang !== 'ko') return message;
  // Not the package's own message (a bug of the page or the browser): say so in Korean.
  if (!/^posenc:/.test(message)) return t('common.errInternal');
  const body = message.replace(/^posenc:\s*/, '');
  const required = body.match(/^(\S+)(?: \(or (\S+)\))? is required for (\S+) '([^']+)'/);
  if (required) {
    const [, arg, alt, what, value] = required;
    return t('common.errRequired', { arg: alt ? `${arg} / ${alt}` : arg, what, value });
  }
  const must = body.match(/^(\S+) must be (.+?), got (.+)$/);
  if (must) {
    const [, arg, condition, got] = must;
    for (const [pattern, read] of CONDITIONS) {
      const m = condition.match(pattern);
      if (!m) continue;
      const c = read(...m.slice(1));
      if (c.kind === 'number') return t(`common.errNumber.${{ '>=': 'ge', '>': 'gt', '<=': 'le', '<': 'lt' }[c.op]}`, { arg, v: c.v, got });
      if (c.kind === 'range') return t('common.errRange', { arg, lo: c.lo, hi: c.hi, got });
      return t('common.errEven', { arg, got });
    }
    return t('common.errValue', { arg, got });
  }
  const arg = body.match(/^([A-Za-z][\w.]*)/)?.[1] ?? '';
  return t('common.errOther', { arg });
}

/**
 * A config.json the package refused, in the page's language: in English the package's own
 * message (it names the key and the way forward); in Korean a Korean sentence naming the key.
 */
export function configError(t, err) {
  const message = String(err?.message ?? err);
  if (t.lang !== 'ko' && /^posenc:/.test(message)) return message.replace(/^posenc:\s*/, '');
  const body = message.replace(/^posenc:\s*/, '');
  const family = body.match(/^(\S+) = '([^']*)' is not a family/);
  if (family) return t('common.errNotFamily', { key: family[1], value: family[2] });
  const missing = body.match(/^(\S+) is missing/);
  if (missing) return t('common.errMissing', { key: missing[1] });
  return packageError(t, err);
}
