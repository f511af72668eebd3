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
    return lang === 'ko' ? particles(s) : s;
  };
  t.lang = lang;
  t.has = (key) => Object.hasOwn(table, key) || Object.hasOwn(en, key);
  return t;
}

// Korean particles after a filled-in value: "{a}{~와} {b}" becomes "0과 1" or "2와 3", chosen
// by whether the word before ends in a final consonant (받침), read as Korean reads it:
// a Hangul syllable by its jongseong, a digit by its Korean name (영 일 이 삼 …), a Latin
// letter by its English name (엘, 엠, 엔, 알 end in a consonant). Quotes, brackets and
// primes after the word are skipped, so "“고양이는”{~가}" gives "“고양이는”가" → "“고양이는”이"
// only when the quoted word ends in a consonant.
const PAIRS = { 은: ['은', '는'], 는: ['은', '는'], 이: ['이', '가'], 가: ['이', '가'], 을: ['을', '를'],
  를: ['을', '를'], 과: ['과', '와'], 와: ['과', '와'], 으로: ['으로', '로'], 로: ['으로', '로'] };
const DIGIT_FINAL = '1101001110';  // 영 일 이 삼 사 오 육 칠 팔 구: 1 = ends in a consonant
const DIGIT_RIEUL = '0100000110';  // 일 칠 팔 end in ㄹ (으로 → 로)

/** { final, rieul } of the last readable character of `text`, or null. */
function lastSound(text) {
  for (let i = text.length - 1; i >= 0; i--) {
    const ch = text[i];
    const code = ch.charCodeAt(0);
    if (code >= 0xac00 && code <= 0xd7a3) {
      const jong = (code - 0xac00) % 28;
      return { final: jong !== 0, rieul: jong === 8 };
    }
    if (ch >= '0' && ch <= '9') return { final: DIGIT_FINAL[ch] === '1', rieul: DIGIT_RIEUL[ch] === '1' };
    const low = ch.toLowerCase();
    if (low >= 'a' && low <= 'z') return { final: 'lmnr'.includes(low), rieul: low === 'l' || low === 'r' };
    if (!'”"’\')]}′″ ₀₁₂₃₄₅₆₇₈₉ᵢ'.includes(ch)) return null;
  }
  return null;
}

export function particles(s) {
  return s.replace(/\{~(은|는|이|가|을|를|과|와|으로|로)\}/g, (m, p, offset) => {
    const sound = lastSound(s.slice(0, offset));
    const [withFinal, without] = PAIRS[p];
    if (!sound) return `${withFinal}(${without})`.replace('으로(로)', '(으)로');
    if (withFinal === '으로') return sound.final && !sound.rieul ? '으로' : '로';
    return sound.final ? withFinal : without;
  });
}
