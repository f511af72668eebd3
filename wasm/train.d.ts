// Type declarations of `posenc/train` (wasm/train.js): "train short, test long", a tiny
// decoder-only transformer with one position encoding, trained step by step in WebAssembly.
// Its own entry with its own two binaries (SIMD and scalar, chosen and checked as the
// package's: see index.d.ts for how options and errors behave; they behave the same here).
import type { CreateOptions, Seed } from './index.js';

export type TrainTask = 'recall' | 'copy' | 'induction' | 'text';
export type TrainEncoding = 'none' | 'sinusoidal' | 'learned' | 't5' | 'alibi' | 'rope-half' | 'rope-interleaved';
/** How a RoPE model meets a length past its training length L: plain, PI (×T/L) or YaRN (factor T/L, original L). */
export type RopeExtension = 'none' | 'pi' | 'yarn';

export interface TrainOptions {
  /**
   * recall (default): random symbols, each target the token `distance` back; copy: n symbols,
   * a separator, then the same n again; induction: … A B … A → B; text: next-byte prediction
   * on `text` (UTF-8 bytes, 2 … 2^30 of them, at least 2 distinct).
   */
  task?: TrainTask;
  encoding: TrainEncoding;
  /** Weights from posenc's generator seeded so; batches from seed ^ 0x5DEECE66D. Default 1. */
  seed?: Seed;
  /** recall, copy, induction: distinct symbols, in [2, 4096]; default 16. */
  symbols?: number;
  /** recall: how far back the answer sits, in [1, 8191]; default 8. */
  distance?: number;
  /** text: the training text (required for task 'text', refused otherwise). */
  text?: string;
  /** Model width, in [2, 1024], a multiple of heads (rope-*: dim/heads even; sinusoidal: dim even); default 16. */
  dim?: number;
  /** Attention heads, in [1, 64]; default 2. */
  heads?: number;
  /** Layers, in [1, 8]; default 2. */
  layers?: number;
  /** MLP hidden width, in [1, 8192]; default 32. */
  mlp?: number;
  /** rope-*: θ base, finite > 1; default 10000. */
  ropeBase?: number;
  /** Training length L, in the task's range; default 64. */
  length?: number;
  /** Lengths evaluate() scores by default (1 … 64 of them, each ≤ 8192); default L, 2L, 4L, 8L. */
  evalLengths?: readonly number[];
  /** Steps of the schedule, in [1, 10^6]; default 300. */
  steps?: number;
  /** Sequences per step, in [1, 4096]; default 8. */
  batch?: number;
  /** Adam's peak rate (warm-up, then cosine to 10%), finite > 0; default 0.01. */
  learningRate?: number;
  /** Linear warm-up steps; default 20. */
  warmupSteps?: number;
  /** Tokens scored per length: ⌈evalTokens / T⌉ sequences of T, in [1, 2^20]; default 1024. */
  evalTokens?: number;
  /** Length T's evaluation batch is drawn from evalSeed + T; default 1000. */
  evalSeed?: number;
}

export interface TrainScore {
  length: number;
  /** Mean cross-entropy (nats) over the scored targets. */
  loss: number;
  /** correct / scored (argmax, ties to the lowest token). */
  accuracy: number;
  correct: number;
  scored: number;
}

export interface Trainer {
  readonly task: TrainTask;
  readonly encoding: TrainEncoding;
  /** Steps of the schedule, and steps taken. */
  readonly steps: number;
  readonly stepsDone: number;
  /** The training length L. */
  readonly length: number;
  readonly evalLengths: readonly number[];
  readonly vocab: number;
  /** Trainable scalars. */
  readonly parameters: number;
  /** Longest input evaluate() and attention() accept (the largest of length and evalLengths). */
  readonly maxLength: number;
  /** WebAssembly memory the trainer holds: parameters, gradients, Adam's moments, one sequence's workspace. */
  readonly memoryBytes: number;
  /** The text task's bytes in token order (code points 0–255), else null. */
  readonly alphabet: string | null;
  readonly disposed: boolean;
  /**
   * The next `count` steps (default 1; at most the steps left, else RangeError): each
   * step's training-batch loss and accuracy, measured before its update.
   */
  step(count?: number): { loss: Float64Array; accuracy: Float64Array };
  /** Scores on the protocol's evaluation batch of each length (default evalLengths). */
  evaluate(options?: { lengths?: readonly number[]; extension?: RopeExtension }): TrainScore[];
  /**
   * Attention probabilities of one input: tokens in [0, vocab), or for the text task a text
   * whose bytes are in alphabet; weights [layers][heads][length][length], zero above the diagonal.
   */
  attention(options: { tokens: Int32Array | ArrayLike<number>; extension?: RopeExtension } |
    { text: string; extension?: RopeExtension }): { layers: number; heads: number; length: number; weights: Float32Array };
  /** Frees the model (idempotent). */
  dispose(): void;
}

/** The loaded trainer module: one per createTrainer() call. */
export interface PosencTrain {
  /** true when the SIMD binary was loaded. */
  readonly simd: boolean;
  /**
   * "Train short, test long": a tiny decoder-only transformer (token embedding, `layers` of
   * pre-norm causal multi-head attention and ReLU MLP, tied output) with one position
   * encoding, trained by Adam on a task at length `length` and scored at other lengths.
   * Deterministic for a seed: the same options give the same weights and batches as the
   * native library's posenc::protocol_trainer. The SIMD binary's losses equal the x86-64
   * native build's; the scalar binary sums in another order, which 100 steps amplify to
   * ~2e−3 in loss. Step it with trainer.step(n);
   * stop a run by not stepping; free it with dispose().
   */
  train(options: TrainOptions): Trainer;
  /** Debug: WebAssembly memory size and allocator bytes in use. */
  memoryStats(): { memoryBytes: number; heapInUse: number };
}

/**
 * Loads the trainer's binary: the .wasm next to the entry's JS ('posenc/train', the files
 * posenc-train-simd.wasm and posenc-train-scalar.wasm) or embedded ('posenc/train/inline',
 * CommonJS). Options as createPosenc's; `wasm` and `locateWasm` give the trainer's binaries.
 * Rejects, never hangs, when the binary is missing, not WebAssembly, not posenc's, the
 * package's instead of the trainer's, or the wrong flavour; the message says what arrived.
 */
export function createTrainer(options?: CreateOptions): Promise<PosencTrain>;
/** True when this engine can run the SIMD binary: it validates WebAssembly SIMD128 and exception-handling code. */
export function simdSupported(): boolean;
export default createTrainer;
