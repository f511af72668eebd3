// The speed section's reference loop (bench/plain-js-rope.mjs) must compute the same RoPE as
// posenc (half layout) where float32 angles are still accurate, or the race is not fair.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPosenc } from '../../wasm/index.js';
import { plainCosSinCache, plainRopeApply } from '../../bench/plain-js-rope.mjs';

test('plain-JS RoPE agrees with posenc (half layout) for positions < 512', async () => {
  const pe = await createPosenc();
  const tokens = 512; const heads = 3; const headDim = 64;
  const x = pe.fillUniform(new Float32Array(tokens * heads * headDim), { seed: 42 });
  const ours = pe.rope({ headDim, layout: 'half' }).apply(Float32Array.from(x), { tokens, heads, start: 0 });
  const theirs = plainRopeApply(Float32Array.from(x), plainCosSinCache({ rotaryDim: headDim, positions: tokens }),
    { tokens, heads, headDim });
  let worst = 0;
  for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(ours[i] - theirs[i]));
  // float32 angles p·θ at p < 512 are off by < 512·2⁻²⁴ ≈ 3e−5 rad.
  assert.ok(worst < 1e-4, `max |posenc − plain JS| = ${worst}`);
});
