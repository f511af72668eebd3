// Glue between a control and a hash-state key: the control shows the state's value and
// writes validated changes back, then the section recomputes.
import { slider, choice, select, checkbox, intListInput, button } from './controls.js';

export function boundSlider(ctx, key, opts, onUpdate) {
  const s = ctx.state.schema[key];
  const min = opts.min ?? s.min;
  const max = opts.max ?? s.max;
  // A value from the link outside this slider's range is clamped, and the slider says so.
  const asked = ctx.state.get(key);
  const value = Math.min(max, Math.max(min, asked));
  if (value !== asked) ctx.state.set(key, value);
  const hint = value !== asked ? ctx.t('common.clamped', { v: asked, min, max, c: value }) : opts.hint;
  return slider({
    name: key, min: s.min, max: s.max, even: s.even, integer: s.kind === 'int', ...opts, value, hint,
    onChange: (v) => { ctx.state.set(key, v); onUpdate(); },
  });
}

export function boundChoice(ctx, key, opts, onUpdate) {
  return choice({ name: key, value: ctx.state.get(key), ...opts,
    onChange: (v) => { ctx.state.set(key, v); onUpdate(); } });
}

export function boundSelect(ctx, key, opts, onUpdate) {
  return select({ name: key, value: ctx.state.get(key), ...opts,
    onChange: (v) => { ctx.state.set(key, v); onUpdate(); } });
}

export function boundCheck(ctx, key, opts, onUpdate) {
  return checkbox({ name: key, value: ctx.state.get(key), ...opts,
    onChange: (v) => { ctx.state.set(key, v); onUpdate(); } });
}

export function boundList(ctx, key, opts, onUpdate) {
  const s = ctx.state.schema[key];
  return intListInput({ name: key, value: ctx.state.get(key), min: s.min, max: s.max, maxLen: s.maxLen,
    invalidText: ctx.t('common.badList', { min: s.min, max: s.max, n: s.maxLen }), ...opts,
    onChange: (v) => { ctx.state.set(key, v); onUpdate(); } });
}

/**
 * An "as in the article" button: sets each [key, value, control] (state and control), then
 * redraws once. `entries` may be a function (for controls made after the button). `which` is
 * the data-preset value ('article' for the section's main one).
 */
export function presetButton(ctx, label, entries, onUpdate, which = 'article') {
  return button(label, () => {
    for (const [key, value, control] of typeof entries === 'function' ? entries() : entries) {
      ctx.state.set(key, value);
      control.set(value);
    }
    onUpdate();
  }, { 'data-preset': which, class: 'btn preset' });
}
