// Number formatting for tables and read-outs. Uses the true minus sign (U+2212) so
// negative columns line up and screen readers say "minus".

const MINUS = '\u2212';

function signed(text) {
  return text.startsWith('-') ? MINUS + text.slice(1) : text;
}

/** Fixed decimals; −0.0000 prints as 0.0000. */
export function fixed(x, places = 4) {
  if (!Number.isFinite(x)) return String(x);
  const text = x.toFixed(places);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : signed(text);
}

/** Significant digits (0.0099998 for 5), no exponent for ordinary magnitudes. */
export function sig(x, digits = 5) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const ax = Math.abs(x);
  if (ax >= 1e-4 && ax < 1e7) {
    const text = x.toPrecision(digits);
    return signed(text.includes('e') ? Number(text).toString() : text);
  }
  return sci(x, digits - 1);
}

/** Scientific notation as 1.23 × 10⁻⁷. */
export function sci(x, places = 2) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const [mant, exp] = x.toExponential(places).split('e');
  // 1.0, not 1.0 × 10⁰.
  return Number(exp) === 0 ? signed(mant) : `${signed(mant)} × 10${superscript(Number(exp))}`;
}

const SUP = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
export function superscript(n) {
  return String(n).split('').map((c) => SUP[c] ?? c).join('');
}

/** Integers with thin grouping: 1 000 000. */
export function int(n) {
  return signed(Math.trunc(n).toString()).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}

/** A compact value for ladder tables: 1, 0.1, 0.01, 0.001, 1.0e-4 → chosen by magnitude. */
export function compact(x, digits = 4) {
  if (!Number.isFinite(x)) return String(x);
  const ax = Math.abs(x);
  if (ax !== 0 && (ax < 1e-3 || ax >= 1e6)) return sci(x, digits - 2);
  return signed(String(Number(x.toPrecision(digits))));
}

/**
 * Throughput in a readable unit: English "1.2 Gvalues/s"; Korean (lang 'ko') groups by
 * 만 and 억 as Korean does, "초당 12.3억 개".
 */
export function rate(perSecond, unit = 'values/s', lang = 'en') {
  if (lang === 'ko') {
    for (const [scale, word] of [[1e8, '억'], [1e4, '만']]) {
      if (perSecond >= scale) return `초당 ${(perSecond / scale).toFixed(1)}${word} 개`;
    }
    return `초당 ${perSecond.toFixed(0)}개`;
  }
  const steps = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [scale, prefix] of steps) {
    if (perSecond >= scale) return `${(perSecond / scale).toFixed(1)} ${prefix}${unit}`;
  }
  return `${perSecond.toFixed(0)} ${unit}`;
}

/**
 * Fixed decimals for a float32 value, rounded from its shortest round-trip decimal (as numpy
 * prints float32): cos 0.01 stored as float32 is 0.99994999…, whose shortest form 0.99995
 * rounds to 1.0000 — the digits a reader expects from the true value, not 0.9999.
 */
export function fixed32(x, places = 4) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return (0).toFixed(places);
  const f = Math.fround(x);
  let digits = 9;
  for (let p = 1; p <= 9; p++) {
    if (Math.fround(Number(f.toPrecision(p))) === f) { digits = p; break; }
  }
  const [mant, expText] = Math.abs(f).toExponential(digits - 1).split('e');
  const intDigits = BigInt(mant.replace('.', ''));
  const scale = digits - 1 - Number(expText);  // value = intDigits / 10^scale
  let q;
  if (scale <= places) {
    q = intDigits * 10n ** BigInt(places - scale);
  } else {
    const div = 10n ** BigInt(scale - places);
    q = intDigits / div;
    if ((intDigits % div) * 2n >= div) q += 1n;  // half away from zero
  }
  const text = q.toString().padStart(places + 1, '0');
  const body = places ? `${text.slice(0, -places)}.${text.slice(-places)}` : text;
  return f < 0 && /[1-9]/.test(body) ? MINUS + body : body;
}

/** A length written as a multiple of π (2π, 20π, 2000π; otherwise 4 significant digits + π). */
export function piMultiple(x) {
  if (!Number.isFinite(x)) return String(x);
  const m = x / Math.PI;
  const r = Math.round(m);
  if (r !== 0 && Math.abs(m - r) <= 1e-9 * Math.abs(m)) return `${int(r)}π`;
  return `${compact(m, 4)}π`;
}
