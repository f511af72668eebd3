// Language choice: URL hash first (a shared link), then the visitor's remembered choice
// (localStorage), then the browser's language. Strings live in en.js / ko.js with the same keys.
import en from './en.js';
import ko from './ko.js';

export const LANGS = { en, ko };
const STORAGE_KEY = 'posenc-demo-lang';

export function storedLang() {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return Object.hasOwn(LANGS, v ?? '') ? v : null;
  } catch {
    return null;  // storage disabled (private mode): fall through to the browser language
  }
}

export function rememberLang(lang) {
  try { localStorage.setItem(STORAGE_KEY, lang); } catch { /* not fatal */ }
}

export function browserLang() {
  const list = navigator.languages?.length ? navigator.languages : [navigator.language ?? 'en'];
  return list.some((l) => String(l).toLowerCase().startsWith('ko')) ? 'ko' : 'en';
}

/**
 * A translator for `lang`: t('s3.title'), t('note.badValue', { key: 'd' }) fills {key}.
 * Falls back to English, then to the key itself (visible, so a missing string is noticed).
 */
export function translator(lang) {
  const table = Object.hasOwn(LANGS, lang) ? LANGS[lang] : en;
  const t = (key, vars) => {
    let s = Object.hasOwn(table, key) ? table[key] : Object.hasOwn(en, key) ? en[key] : undefined;
    if (s === undefined) return key;
    if (Array.isArray(s)) s = s.join('\n\n');
    if (vars) s = s.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
    return s;
  };
  t.lang = lang;
  t.has = (key) => Object.hasOwn(table, key) || Object.hasOwn(en, key);
  return t;
}
