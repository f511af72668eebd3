// wasm/js/train.js — "train short, test long" (core: posenc/train_protocol.hpp): a tiny
// decoder-only transformer with one position encoding, trained step by step in
// WebAssembly memory. A trainer owns its model; step/evaluate/attention read their options
// once (check.js), check the trainer live, then stage and call.
import * as check from './check.js';
import { unwrap } from './errors.js';
import { align } from './heap.js';

export const TRAIN_TASKS = ['recall', 'copy', 'induction', 'text'];
export const TRAIN_ENCODINGS = ['none', 'sinusoidal', 'learned', 't5', 'alibi', 'rope-half', 'rope-interleaved'];
export const ROPE_EXTENSIONS = ['none', 'pi', 'yarn'];

const TrainOptions = check.recordOf(class {
  task; encoding; seed; symbols; distance; text; dim; heads; layers; mlp; ropeBase; length;
  evalLengths; steps; batch; learningRate; warmupSteps; evalTokens; evalSeed;
});
const TRAIN_KEYS = check.keysOf(TrainOptions);
const EVALUATE_KEYS = ['lengths', 'extension'];
const ATTENTION_KEYS = ['tokens', 'text', 'extension'];

// The doubles staged for trainCreate, in bind_train.cpp's order (its `option` enum).
const TRAIN_NUMBERS = ['symbols', 'distance', 'dim', 'heads', 'layers', 'mlp', 'ropeBase', 'length', 'steps',
  'batch', 'learningRate', 'warmupSteps', 'evalTokens', 'evalSeed'];
const MAX_LENGTHS = 64;

// The core names fields of its config records (protocol.train_length, config.dim,
// adam.learning_rate, task.symbols); JS passes them as flat options.
const trainNames = (m) => m.replace(/\bprotocol\.trainLength\b/g, 'length')
  .replace(/\b(?:protocol|config|adam|task)\.([a-zA-Z]+)/g, '$1');

const encoder = new TextEncoder();

// A length list: integers, at most MAX_LENGTHS of them → Int32Array (ranges: the core's).
function lengthList(name, v) {
  const out = new check.Int32(MAX_LENGTHS);
  const n = check.eachElement(name, v, MAX_LENGTHS, (x, i) => { out[i] = check.integer(`${name}[${i}]`, x); });
  if (n === 0) throw new RangeError(`posenc: ${name} must hold at least one length`);
  return out.subarray(0, n);
}

// An option given, checked for its kind (its range is the core's), or NaN: the core's default.
const number = (o, key) => (o[key] === undefined ? NaN : key === 'learningRate' || key === 'ropeBase'
  ? check.number(key, o[key])
  : check.integer(key, o[key], ...(key === 'evalSeed' ? [0, Number.MAX_SAFE_INTEGER] : [])));

// A trainer. Module level (one class for every posenc instance), like Rope; #api holds the
// instance's module, heap and finalization registry.
class Trainer {
  #api;
  #handle;
  #task;
  #encoding;
  #steps;
  #done = 0;
  #length;
  #evalLengths;
  #vocab;
  #layers;
  #heads;
  #parameters;
  #maxLength;
  #memoryBytes;
  #alphabet; // the text task's bytes in token order (Int32Array), else null

  constructor(api, opts) {
    const { module, heap, registry } = api;
    const o = check.options(opts, 'train()', TRAIN_KEYS, new TrainOptions());
    const task = o.task === undefined ? 'recall' : check.oneOf('task', o.task, TRAIN_TASKS);
    if (o.encoding === undefined) throw new TypeError(`posenc: train() needs encoding (${TRAIN_ENCODINGS.join(', ')})`);
    const encoding = check.oneOf('encoding', o.encoding, TRAIN_ENCODINGS);
    const [seedLo, seedHi] = check.seed('seed', o.seed === undefined ? 1 : o.seed);
    if ((task === 'text') !== (o.text !== undefined)) {
      throw new TypeError(task === 'text' ? "posenc: train() with task 'text' needs text (a string)"
        : `posenc: train() takes text only with task 'text', not '${task}'`);
    }
    const text = task === 'text' ? encoder.encode(check.string('text', o.text)) : null;
    const numbers = new check.Float64(TRAIN_NUMBERS.length + 2);
    for (let i = 0; i < TRAIN_NUMBERS.length; i++) numbers[i] = number(o, TRAIN_NUMBERS[i]);
    numbers[TRAIN_NUMBERS.length] = seedLo;
    numbers[TRAIN_NUMBERS.length + 1] = seedHi;
    // None given: the binding takes L, 2L, 4L, 8L of the length the core settles on.
    const evalLengths = o.evalLengths === undefined ? new check.Int32(0) : lengthList('evalLengths', o.evalLengths);

    const nText = text === null ? 0 : text.length;
    const offL = align(8 * numbers.length);
    const offT = offL + align(4 * evalLengths.length);
    const base = heap.acquire(offT + nText, 'train()');
    let handle;
    try {
      heap.put(base, numbers, 'Float64Array');
      if (evalLengths.length !== 0) heap.put(base + offL, evalLengths, 'Int32Array');
      if (nText !== 0) check.copyInto(module.HEAPU8, text, base + offT);
      handle = module.trainCreate(task, encoding, base + offT, nText, base, base + offL, evalLengths.length);
    } finally {
      heap.release(base);
    }
    unwrap(module, handle, trainNames);
    const info = heap.take(module.trainInfo(handle), 'Float64Array');
    this.#api = api;
    this.#handle = handle;
    this.#task = task;
    this.#encoding = encoding;
    this.#length = info[4];
    this.#steps = info[5];
    this.#evalLengths = Object.freeze(Array.from(info.subarray(8)));
    this.#vocab = info[0];
    this.#heads = info[6];
    this.#layers = info[7];
    this.#parameters = info[1];
    this.#maxLength = info[2];
    // Parameters, gradients and Adam's two moments, plus one sequence's workspace: float32.
    this.#memoryBytes = 4 * (4 * info[1] + info[3]);
    this.#alphabet = task === 'text' ? heap.take(module.trainAlphabet(handle), 'Int32Array') : null;
    registry.register(this, handle, this);
    Object.freeze(this);
  }

  get task() { return this.#task; }
  get encoding() { return this.#encoding; }
  /** Steps of the schedule (the run's length). */
  get steps() { return this.#steps; }
  /** Steps taken so far. */
  get stepsDone() { return this.#done; }
  /** The training length L. */
  get length() { return this.#length; }
  /** The lengths evaluate() scores by default (frozen). */
  get evalLengths() { return this.#evalLengths; }
  /** Tokens 0 … vocab − 1. */
  get vocab() { return this.#vocab; }
  /** Trainable scalars. */
  get parameters() { return this.#parameters; }
  /** The longest sequence evaluate() and attention() accept. */
  get maxLength() { return this.#maxLength; }
  /** WebAssembly memory the trainer holds (model, gradients, Adam, one sequence's workspace). */
  get memoryBytes() { return this.#memoryBytes; }
  /** The text task's characters in token order (a string of bytes as code points 0–255), else null. */
  get alphabet() { return this.#alphabet === null ? null : String.fromCharCode(...this.#alphabet); }

  get disposed() {
    Trainer.#check(this, 'trainer.disposed');
    return this.#handle === 0;
  }

  static #check(t, fn) {
    if (typeof t !== 'object' || t === null || !(#handle in t)) {
      throw new TypeError(`posenc: ${fn} must be called on a trainer made by pe.train()`);
    }
  }

  #live(fn) {
    Trainer.#check(this, fn);
    if (this.#handle === 0) throw new TypeError('posenc: this trainer has been disposed');
    return this.#handle;
  }

  /**
   * Runs `count` (default 1) more steps of the schedule: { loss, accuracy }, Float64Array(count)
   * each, every step's training batch scored before its update.
   */
  step(count) {
    Trainer.#check(this, 'trainer.step()');
    const left = this.#steps - this.#done;
    const n = count === undefined ? 1 : check.integer('count', count, 0);
    if (n > left) throw new RangeError(`posenc: count must be at most the ${left} steps left of ${this.#steps}, got ${n}`);
    const handle = this.#live('trainer.step()');
    const { module, heap } = this.#api;
    const both = heap.take(unwrap(module, module.trainStep(handle, n), trainNames), 'Float64Array');
    this.#done += n;
    const loss = new check.Float64(n);
    const accuracy = new check.Float64(n);
    for (let i = 0; i < n; i++) {
      loss[i] = both[2 * i];
      accuracy[i] = both[2 * i + 1];
    }
    return { loss, accuracy };
  }

  /**
   * Scores the model on the protocol's evaluation batch of each length (default: evalLengths):
   * [{ length, loss, accuracy, correct, scored }]. extension ('none' | 'pi' | 'yarn') applies to
   * rope-* models past the training length.
   */
  evaluate(opts) {
    Trainer.#check(this, 'trainer.evaluate()');
    const o = check.options(opts, 'trainer.evaluate()', EVALUATE_KEYS);
    const lengths = o.lengths === undefined ? Int32Array.from(this.#evalLengths) : lengthList('lengths', o.lengths);
    const extension = o.extension === undefined ? 'none' : check.oneOf('extension', o.extension, ROPE_EXTENSIONS);
    const handle = this.#live('trainer.evaluate()');
    const { module, heap } = this.#api;
    const base = heap.acquire(4 * lengths.length, 'trainer.evaluate()');
    let r;
    try {
      heap.put(base, lengths, 'Int32Array');
      r = module.trainEvaluate(handle, base, lengths.length, extension);
    } finally {
      heap.release(base);
    }
    const v = heap.take(unwrap(module, r, trainNames), 'Float64Array');
    const out = [];
    for (let i = 0; i < lengths.length; i++) {
      const scored = v[3 * i + 2];
      out.push({ length: lengths[i], loss: v[3 * i], accuracy: scored === 0 ? 0 : v[3 * i + 1] / scored,
        correct: v[3 * i + 1], scored });
    }
    return out;
  }

  /**
   * Attention probabilities of one input — `tokens` (integers in [0, vocab)) or, for the text
   * task, `text` (its characters must be in alphabet): { layers, heads, length, weights:
   * Float32Array [layers][heads][length][length] }, zero above the diagonal.
   */
  attention(opts) {
    Trainer.#check(this, 'trainer.attention()');
    const o = check.options(opts, 'trainer.attention()', ATTENTION_KEYS);
    const { module, heap } = this.#api;
    if ((o.tokens === undefined) === (o.text === undefined)) {
      throw new TypeError('posenc: trainer.attention() takes either tokens or text');
    }
    let tokens;
    if (o.text !== undefined) {
      if (this.#alphabet === null) throw new TypeError(`posenc: text is for the text task; this trainer's task is '${this.#task}' (pass tokens)`);
      tokens = this.#tokensOf(check.string('text', o.text));
    } else {
      tokens = check.positions('tokens', o.tokens, heap.buffer);
    }
    const extension = o.extension === undefined ? 'none' : check.oneOf('extension', o.extension, ROPE_EXTENSIONS);
    const handle = this.#live('trainer.attention()');
    const n = check.lengthOf(tokens);
    const base = heap.acquire(4 * n, 'trainer.attention()');
    let r;
    try {
      heap.put(base, tokens, 'Int32Array', 'tokens');
      r = module.trainAttention(handle, base, n, extension);
    } finally {
      heap.release(base);
    }
    const weights = heap.take(unwrap(module, r, (m) => trainNames(m).replace(/\bbatch\.tokens\b/g, 'tokens')),
      'Float32Array');
    return { layers: this.#layers, heads: this.#heads, length: n, weights };
  }

  // The text's UTF-8 bytes as tokens (their index in alphabet).
  #tokensOf(text) {
    const bytes = encoder.encode(text);
    const out = new check.Int32(bytes.length);
    for (let i = 0; i < bytes.length; i++) {
      const t = this.#alphabet.indexOf(bytes[i]);
      if (t < 0) {
        throw new RangeError(`posenc: text holds byte ${bytes[i]} at ${i}, which the training text never had ` +
          `(alphabet: ${check.quote(this.alphabet)})`);
      }
      out[i] = t;
    }
    return out;
  }

  /** Frees the model (idempotent); a FinalizationRegistry frees a forgotten one when collected. */
  dispose() {
    Trainer.#check(this, 'trainer.dispose()');
    const { module, registry } = this.#api;
    if (this.#handle === 0) return;
    registry.unregister(this);
    module.trainDestroy(this.#handle);
    this.#handle = 0;
  }
}

export function trainApi({ module, heap }) {
  const api = Object.freeze({
    module,
    heap,
    registry: new FinalizationRegistry((handle) => module.trainDestroy(handle)),
  });
  return {
    /** A model of the "train short, test long" protocol, to step; see train.d.ts for the options. */
    train: (opts) => new Trainer(api, opts),
  };
}
