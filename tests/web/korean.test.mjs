// The Korean prose as a Korean ML author writes it (no browser needed): one word per term,
// particles chosen by the filled-in number, the article references in one style, and every
// error the page can show said in Korean. Follows web/src/i18n/index.js (translator,
// particles) and web/src/ui/errors.js (packageError).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ko from '../../web/src/i18n/ko.js';
import { translator } from '../../web/src/i18n/index.js';
import { packageError } from '../../web/src/ui/errors.js';

const t = translator('ko');
const all = Object.values(ko).flat().join('\n');

test('one word per term: 쿼리 (질의 only once, in §1), 시곗바늘, no retired wording', () => {
  assert.equal(all.match(/질의/g)?.length, 1);
  assert.match(ko['s1.lead'].join(' '), /쿼리\(질의\)/);
  for (const bad of ['시계바늘', '가로대', '지름길', '값은 절대 아님', '닫힌 식', '약속은', '**interleaved**', '**half**', '번 글']) {
    assert.ok(!all.includes(bad), bad);
  }
  assert.equal(ko['s12.tableTitle'], '사다리의 단 몇 개');
  assert.equal(ko['s3.colLambda'], '한 바퀴 도는 데 걸리는 토큰 수');
  assert.match(ko['s8.lead'].join(' '), /회전은 길이를 바꾸지 않으므로, 내적은 두 벡터 사이의 각도에만 달려 있고/);
  assert.match(ko['s7.termsText'], /두 교차항이 움직이고, 그래서 점수도 움직이는 것을 보세요\./);
});

test('article references: titles once at the top, then 글 1 … 글 4 with fitting particles', () => {
  assert.match(ko['page.articles'], /글 1 「위치를 수로 적기[^]*글 4 「RoPE/);
  assert.doesNotMatch(all, /(?<![\d.])00[0-3](번|의|은|는|과|와)/);
  assert.doesNotMatch(all, /글 [24](은|과|이|을)(?![가-힣])|글 [13](는|와|가|를)(?![가-힣])/);
});

test('particles after numbers in the learned-table notes', () => {
  assert.match(t('fam.refused', { L: 16 }), /^위치 16을 조회하면 패키지가 거부합니다\./);
  assert.match(t('fam.refused', { L: 32 }), /^위치 32를 조회하면/);
  assert.match(t('fam.pastL', { L: 16 }), /L = 16은 /);
  assert.match(t('fam.pastL', { L: 32 }), /L = 32는 /);
});

test('every error the page can show reads in Korean', () => {
  const hangul = /[가-힣]/;
  const english = /\b[A-Za-z]{3,} [a-z]{3,} [a-z]{3,}\b/;
  for (const message of [
    'posenc: dim must be an integer in [2, 65536], got 3',
    'posenc: base must be a finite number > 1, got 0.5',
    'posenc: dim must be even, got 7',
    'posenc: factor is required for scaling.type \'linear\'',
    'posenc: heads must divide modelDim',
    'Cannot read properties of undefined (reading \'length\')',
    'out of memory',
  ]) {
    const said = packageError(t, new RangeError(message));
    assert.match(said, hangul, message);
    assert.doesNotMatch(said, english, said);
  }
  // English pages keep the package's own sentence.
  assert.equal(packageError(translator('en'), new RangeError('posenc: dim must be even, got 7')), 'posenc: dim must be even, got 7');
});
