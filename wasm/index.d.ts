// Type declarations of the `posenc` package (wasm/index.js).
//
// Conventions: options objects with camelCase keys; typed arrays in and out; unknown option
// names, wrong types and non-integers throw TypeError/RangeError naming the argument; values
// outside their allowed range throw RangeError from the C++ core, whose message names the
// argument and the range. After any error the module keeps working and nothing was written.
// Errors raised from the core carry `kind`: 'invalid_argument' | 'length_error' |
// 'bad_alloc' (too large for WebAssembly memory).
//
// How arguments are read (every function, every options object, nested ones like `scaling`
// and `weights` too):
// - Each option is read exactly once, from the object's own string-keyed properties only,
//   enumerable or not. A data property gives its value; an accessor property is allowed: its
//   getter is called once (with the options object as `this`) and that value is used (a
//   setter-only accessor reads as undefined). Inherited properties — anything on
//   Object.prototype — are never read; symbol keys are ignored; any other own key is a
//   TypeError. A Proxy sees one `ownKeys` and one `getOwnPropertyDescriptor` per key.
// - Values are checked, never converted: no valueOf / toString / Symbol.toPrimitive runs.
//   A number option must be a number; lists (positions, factor lists) are copied element by
//   element from own elements (a hole is a TypeError), at most 2^28 of them, checked before
//   anything is allocated.
// - Typed arrays are recognised by their internal type (a Float64Array re-labelled as a
//   Float32Array is refused, a Float32Array subclass is accepted) and measured by the
//   built-in %TypedArray% getters captured when the package loads: own or patched
//   `length`, `byteLength`, `byteOffset`, `buffer` or `constructor` change nothing.
// - Only after every option is read and checked does a call look at its handles (the rope,
//   tensors, `out`), each checked live through private state: a handle disposed by a getter
//   gives a TypeError naming it, and nothing is written. A posenc call made from inside a
//   getter, Proxy trap or list element runs on its own before the outer call touches
//   memory, so both give their own correct results.
// - Arguments that share memory are refused alike for tensors and plain arrays: `out`
//   partly overlapping `x` (the very same floats means in place), `q` overlapping `k`.
//   Lists that view WebAssembly memory are copied before anything can grow it. An array
//   detached by a getter after it was checked is a TypeError naming it.
// - SharedArrayBuffer and resizable ArrayBuffer views: measured once, and only the measured
//   elements are ever read or written (a buffer another thread grows meanwhile changes
//   nothing). Two SharedArrayBuffer objects may share memory (structuredClone, postMessage)
//   and JavaScript cannot tell: every input is read whole before anything is written, and
//   results are written back in argument order (`out` or `x`; `q`, then `k`).
// - A caller's strings appear in messages as a short excerpt (40 characters) with control,
//   separator and bidirectional characters escaped.

/**
 * Context-extension scaling of the ladder: HF transformers' `rope_scaling`, camelCase keys.
 * The resulting attention factor (given as `attentionFactor`, or yarn's ratio of `mscale`
 * and `mscaleAllDim`) must lie in [1e−4, 1e4], so that it and its inverse (invert) are
 * modest finite floats; outside → RangeError naming scaling.attentionFactor.
 */
export type Scaling =
  | { type: 'default' }
  | { type: 'linear'; factor: number }
  | { type: 'dynamic'; factor: number; maxPositionEmbeddings: number; seqLen?: number }
  /** Dynamic NTK-α (Hunyuan): the ladder of base·α^(d/(d−2)); alpha finite > 0. */
  | { type: 'dynamic'; alpha: number; factor?: number; maxPositionEmbeddings?: number; seqLen?: number }
  /**
   * Proportional RoPE (Gemma 4's global layers): θ_i = base^(−2i/rotaryDim) / factor for
   * i < ⌊partialRotaryFactor·rotaryDim/2⌋, θ_i = 0 after — the rotary width is the whole head
   * (pairs (i, i + rotaryDim/2) in half layout) and the zero-frequency pairs pass unchanged.
   * partialRotaryFactor in (0, 1] (default 1), factor ≥ 1 (default 1).
   */
  | { type: 'proportional'; partialRotaryFactor?: number; factor?: number }
  | {
      type: 'yarn';
      factor?: number;
      originalMaxPositionEmbeddings?: number;
      maxPositionEmbeddings?: number;
      attentionFactor?: number;
      betaFast?: number;
      betaSlow?: number;
      mscale?: number;
      mscaleAllDim?: number;
      truncate?: boolean;
    }
  | {
      type: 'llama3';
      factor: number;
      originalMaxPositionEmbeddings?: number;
      maxPositionEmbeddings?: number;
      lowFreqFactor?: number;
      /** ≥ lowFreqFactor; equal (Llama 4) is transformers' step at original/lowFreqFactor. */
      highFreqFactor?: number;
    }
  | {
      type: 'longrope';
      factor?: number;
      originalMaxPositionEmbeddings?: number;
      maxPositionEmbeddings?: number;
      seqLen?: number;
      attentionFactor?: number;
      shortFactor: ArrayLike<number>;
      longFactor: ArrayLike<number>;
    };

/** Pair layout of RoPE: 'half' = (x[i], x[i + d/2]) (GPT-NeoX, HF); 'interleaved' = (x[2i], x[2i+1]). */
export type RopeLayout = 'half' | 'interleaved';
/** Sinusoidal table layout: 'interleaved' = sin at 2i, cos at 2i+1; 'concat' = [sin… | cos…]. */
export type PeLayout = 'interleaved' | 'concat';
/** How positions enter attention. */
export type ScoreMode = 'none' | 'additive' | 'rotary';
/**
 * How RoPE forms its angles: 'exact' (default; p·θ in double, reduced mod 2π, rounded once)
 * or 'float32' (θ and p·θ in float32, as most implementations do; drifts at large positions,
 * offered to show that drift side by side).
 */
export type AnglePrecision = 'exact' | 'float32';
/**
 * Which way apply turns each pair: 'forward' (default; +p·θ_i, HF's rotate_half =
 * cat(−x2, x1)) or 'inverse' (−p·θ_i: nanochat, whose rotate_half is cat(x2, −x1)). cosSin
 * and row return cos/sin(p·θ_i) either way, as the model's rotary embedding does; invert and
 * shift turn the other way too.
 */
export type RopeDirection = 'forward' | 'inverse';
/**
 * A list of positions, one per token: an Int32Array, a BigInt64Array (transformers.js /
 * onnxruntime int64 `position_ids`), or an array of integers or BigInts. Each value must be
 * within ±2^53 and, as a list, within int32 [−2^31, 2^31 − 1] (contiguous positions beyond
 * int32 go through `start`, up to 2^53); otherwise RangeError naming the list and index.
 *
 * Batches: a batch is just more tokens. Lay [batch][seq] out as tokens = batch·seq and give
 * one position per token — left padding (each sequence's first real token at 0) and packed
 * sequences (positions restarting at 0 inside one row) are position lists like any other.
 */
export type Positions = Int32Array | BigInt64Array | readonly (number | bigint)[];
/**
 * Positions a rotator's apply / applyQK / cosSin / row also take: Positions, or a
 * Float64Array of real values (DINOv3's patch centres, CogVideoX 1.0's cropped grids), each
 * finite within ±2^53, float32 tensors only. The angle p·θ_i is formed and reduced in double;
 * an integral value rotates bit-identically to the same integer position.
 */
export type RopePositions = Positions | Float64Array;
/** One position, start or shift: an integer or a BigInt, |value| ≤ 2^53 − 1. */
export type Position = number | bigint;
/** 64-bit seed: a safe integer ≥ 0 or a BigInt in [0, 2^64). */
export type Seed = number | bigint;

/**
 * One item of a sequence for mropePositions, in token order. `text`: a run of that many
 * tokens (vision special tokens such as <|vision_start|> / <|vision_end|> and Qwen3-VL's
 * frame timestamps are text: count them here). `image` / `video`: HF's `image_grid_thw` /
 * `video_grid_thw` row (t, h, w) in vision patches before the spatial merge (a 448 × 448
 * Qwen2-VL image is [1, 32, 32]: 16 × 16 = 256 tokens); an array of 3 integers (numbers or
 * BigInts) or an Int32Array / BigInt64Array of 3. `secondsPerGrid`: HF's
 * `second_per_grid_ts` entry of a video (qwen2.5-vl only).
 */
export type MropeItem =
  | { text: number | bigint; image?: never; video?: never; secondsPerGrid?: never }
  | { image: ArrayLike<number | bigint>; text?: never; video?: never; secondsPerGrid?: never }
  | { video: ArrayLike<number | bigint>; secondsPerGrid?: number; text?: never; image?: never };

export interface MropePositionsOptions {
  items: readonly MropeItem[];
  model: 'qwen2-vl' | 'qwen2.5-vl' | 'qwen3-vl';
  spatialMerge?: number;
  tokensPerSecond?: number;
}

export interface LadderOptions {
  /** Even, in [2, 65536] (the rotary dim with partial rotary). */
  dim: number;
  /** Finite, > 1. Default 10000. */
  base?: number;
  scaling?: Scaling;
}

/** What a tensor holds: float32 values, or the bits of float16 / bfloat16 values. */
export type TensorDtype = 'float32' | HalfDtype;

/**
 * An array living in WebAssembly memory: calls that take it work on it in place with zero
 * copies. `array` is a Float32Array (dtype 'float32') or a Uint16Array of the 16-bit bits
 * (dtype 'float16' | 'bfloat16'; view it as a Float16Array yourself where the engine has
 * one). `Tensor` alone is a float32 tensor. `array` is re-made whenever memory grows (old
 * views detach), so read it after each posenc call rather than keeping it; keep the handle
 * alive while you use it.
 */
export interface Tensor<D extends TensorDtype = 'float32'> {
  /** Number of elements (floats, or 16-bit values). */
  readonly length: number;
  readonly dtype: D;
  /** The tensor's memory (a view of WebAssembly memory). Throws TypeError once disposed. */
  readonly array: D extends 'float32' ? Float32Array : Uint16Array;
  readonly disposed: boolean;
  /** Frees the memory now (a FinalizationRegistry frees forgotten tensors eventually). */
  dispose(): void;
}

/**
 * Something an in-place kernel can work on: a tensor of this instance (zero-copy), or any
 * Float32Array (copied into WebAssembly memory and back around one call; big arrays in
 * chunks of whole tokens). The package reads a tensor's address, length and liveness from
 * private state only, never from its public properties.
 */
export type FloatTarget = Float32Array | Tensor<'float32'>;

/**
 * 16-bit storage: a 16-bit tensor of this instance (pe.tensor(n, { dtype }); its dtype is
 * implied, zero-copy) or a Uint16Array / Float16Array view of one's memory (zero-copy), or
 * any Uint16Array holding float16 or bfloat16 bits (give `dtype`) or Float16Array (dtype
 * implied 'float16'), copied into WebAssembly memory and back around one call. The values
 * are widened exactly to float32, rotated as a float32 tensor would be, and rounded back to
 * nearest, ties to even (within 1 ulp of the 16-bit format of the exact rotation;
 * subnormals kept, beyond the format's range ±Inf, NaN stays NaN; dims ≥ rotaryDim keep
 * their bits). TypeError: a dtype with float32 data, a Uint16Array without one, a dtype
 * other than a tensor's or a Float16Array's own, a view of WebAssembly memory no live
 * tensor of that dtype owns. `out` (rope.apply) must hold x's dtype: a 16-bit x takes a
 * 16-bit out of the same dtype, a float32 x a float32 out (no call converts between
 * storage types; TypeError naming out). q and k of applyQK share one dtype likewise.
 */
// Float16Array is in the ES2025 library; older TypeScript libs do not declare it.
export type HalfTarget = Uint16Array | Tensor<HalfDtype> | (typeof globalThis extends { Float16Array: infer F }
  ? F extends abstract new (...args: never[]) => infer A ? A : never : never);
export type HalfDtype = 'float16' | 'bfloat16';

/**
 * Multimodal RoPE (HF `mrope_section`, `mrope_interleaved`): three positions per token
 * (t, h, w); pair i takes one of them, the angle stays p·θ_i.
 *  - interleaved false (Qwen2-VL, Qwen2.5-VL; HF apply_multimodal_rotary_pos_emb): the
 *    first section[0] rungs take t, the next section[1] h, the last section[2] w (HF
 *    splits the full-width cos/sin by mrope_section·2: the same sections in both halves).
 *  - interleaved true (Qwen3-VL; HF apply_interleaved_mrope): rung i takes h when
 *    i ≡ 1 (mod 3) and i < 3·section[1], w when i ≡ 2 (mod 3) and i < 3·section[2], else t.
 *  - interleaved 'hw' (ERNIE 4.5 VL; HF Ernie4_5_VLMoeTextRotaryEmbedding, inv_freq_3d and
 *    recomposition_to_3d): rung i < section[1] + section[2] takes h when i is even, w when
 *    odd; the last section[0] rungs take t. HF's mrope_section lists these counts as
 *    (h, w, t): its default [22, 22, 20] is section [20, 22, 22] here.
 * The sections (integers ≥ 0) sum to rotaryDim/2 (partial rotary included); interleaved
 * also needs 3·section[1] ≤ rotaryDim/2 + 1 and 3·section[2] ≤ rotaryDim/2, 'hw'
 * section[1] = section[2]. Otherwise RangeError naming mrope.section. Text tokens (t = h = w) rotate exactly as plain RoPE.
 */
export interface MropeOptions {
  /** [t, h, w] rung counts, e.g. [16, 24, 24] (Qwen2-VL) or [24, 20, 20] (Qwen3-VL). */
  section: readonly number[] | Float64Array | Float32Array;
  /** Default false. */
  interleaved?: MropeInterleaving;
}

/** How M-RoPE's rungs take t, h and w: false contiguous, true round-robin, 'hw' (see MropeOptions). */
export type MropeInterleaving = boolean | 'hw';

/**
 * 2-D rotary of vision towers: two positions per patch (row, col).
 *  - 'qwen2-vl' (Qwen2-VL / Qwen2.5-VL vision; HF VisionRotaryEmbedding(headDim/2),
 *    rot_pos_emb, apply_rotary_pos_emb_vision): with φ_j = base^(−4j/rotaryDim), rung
 *    i < rotaryDim/4 is row·φ_i, rung rotaryDim/4 + i is col·φ_i.
 *  - 'pixtral' (Pixtral; HF PixtralRotaryEmbedding): rung i < rotaryDim/4 is row·θ_{2i},
 *    rung rotaryDim/4 + i is col·θ_{2i+1}. HF rotates it in layout 'half'; Mistral's
 *    reference (precompute_freqs_cis_2d) in layout 'interleaved': the same angles.
 * rotaryDim must be a multiple of 4; scaling must be absent or 'default'. Positions cannot
 * be given as `start`.
 */
export type Vision2d = 'qwen2-vl' | 'pixtral';

/**
 * Image and video models: the rotary dims cut into one chunk per axis, each chunk its own
 * ladder θ_j = base^(−2j/d_a) (times the axis' scale) on that axis' position. Presets
 * (head_dim 128 unless noted; base; layout):
 *  - 'flux': t 16, h 56, w 56; 10000; interleaved (diffusers FluxPosEmbed)
 *  - 'flux2': t 32, h 32, w 32, l 32; 2000; interleaved (Flux2PosEmbed)
 *  - 'hunyuan-video': t 16, h 56, w 56; 256; interleaved (HunyuanVideoRotaryPosEmbed)
 *  - 'wan': h = w = 2·⌊d/6⌋, t the rest (44, 42, 42); 10000; interleaved (WanRotaryPosEmbed)
 *  - 'qwen-image': t 16, h 56, w 56; 10000; interleaved (QwenEmbedRope)
 *  - 'cogvideox': t d/4, h = w = 3·⌊d/8⌋ (d 64: 16, 24, 24); 10000; interleaved (get_3d_rotary_pos_embed)
 *  - 'dinov3': y d/2, x d/2, angles × 2π, real positions in (−1, 1); 100; half
 *    (transformers DINOv3ViTRopePositionEmbedding)
 *  - 'stable-audio': one axis of d/2 (partial rotary); 10000; half (get_1d_rotary_pos_embed
 *    with repeat_interleave_real=False)
 *  - 'allegro': t, h, w d/3 each (d 96: 32, 32, 32); 10000; half pairs inside each chunk
 *    (apply_rotary_emb_allegro: x.chunk(3), rotate_half per chunk); float32 tensors only
 *  - 'muse-glimmer': w d/2, h d/2, columns first (d 96: 48, 48); 10000; half (transformers
 *    MuseGlimmerVisionRotaryEmbedding; positions (col + 1, row + 1): axesPositions)
 * 'interleaved' pairs dims adjacently inside each chunk (diffusers repeat_interleave_real,
 * Wan's and Qwen-Image's complex pairs). A preset fixes layout and rotary width (base may be
 * overridden). An explicit description: { dims: [16, 56, 56], names?: ['t', 'h', 'w'],
 * scales?: [1, 1, 1] } with `layout` and `base` from the rope options; 1 to 4 axes whose
 * dims (even, ≥ 2) sum to at most headDim (the rest passes through). A description that
 * does not fit (dims not summing to the rotary width, odd widths, flux at headDim 64) is a
 * RangeError naming axes; scaling and rotaryDim are TypeErrors with axes.
 */
export type AxesPreset = 'flux' | 'flux2' | 'hunyuan-video' | 'wan' | 'qwen-image' | 'cogvideox' | 'dinov3'
  | 'stable-audio' | 'allegro' | 'muse-glimmer';
export interface AxesDescription {
  dims: readonly number[] | Float64Array | Float32Array;
  /** For messages; default a0, a1, … (no commas). */
  names?: readonly string[];
  /** Each axis' angle factor (finite, > 0); default 1. */
  scales?: readonly number[] | Float64Array | Float32Array;
}

export interface AxesPositionsOptions {
  model: 'flux' | 'flux2' | 'qwen-image' | 'wan' | 'hunyuan-video' | 'cogvideox' | 'dinov3' | 'allegro'
    | 'muse-glimmer';
  height: number;
  width: number;
  /** Video latent frames after temporal patching (qwen-image, wan, hunyuan-video, cogvideox, muse-glimmer); default 1. */
  frames?: number;
  textTokens?: number;
  /** Edit pipelines' reference images [height, width] in tokens (flux2, qwen-image). */
  references?: readonly (readonly [number, number])[];
  /** cogvideox: '1.0' | '1.5'. */
  version?: '1.0' | '1.5';
  /** cogvideox: the transformer's sample size / patch size. */
  baseHeight?: number;
  baseWidth?: number;
  /** dinov3: CLS + register tokens before the patches. */
  prefixTokens?: number;
}

export interface RopeOptions {
  /** Elements per head row, in [2, 65536]. */
  headDim: number;
  /** Even, in [2, headDim]; default headDim. Dims ≥ rotaryDim pass through untouched. */
  rotaryDim?: number;
  /** Default 10000. */
  base?: number;
  /** Default 'half'. */
  layout?: RopeLayout;
  scaling?: Scaling;
  /** Default 'exact'. */
  angles?: AnglePrecision;
  /** The model's sense of rotation (see RopeDirection); default 'forward'. */
  direction?: RopeDirection;
  /** First cached position (default 0). Positions outside the cache are computed on the fly. */
  cacheStart?: number;
  /**
   * Number of cached cos/sin rows, an integer in [0, 2^31) (the core caps
   * cacheLength·rotaryDim/2 at 2^28); 0 computes every row on the fly. The cache costs
   * cacheLength·rotaryDim·4 bytes. Omitted: the cache grows as positions are seen — the
   * first call reaching past it rebuilds it from cacheStart at twice the length (at least
   * 256 rows, rounded up to a power of two) — up to 2^20 floats (4 MiB, 8192 rows at
   * rotaryDim 128); positions past that are computed on the fly. Cached and on-the-fly rows
   * are bit-identical, so the choice changes speed and memory only, never a result.
   */
  cacheLength?: number;
  /** Multimodal RoPE: three positions (t, h, w) per token. Not with vision2d. */
  mrope?: MropeOptions;
  /** 2-D rotary: two positions (row, col) per patch. Not with mrope. */
  vision2d?: Vision2d;
  /** Image and video models (see AxesPreset): a preset or an explicit description. Not with mrope / vision2d. */
  axes?: AxesPreset | AxesDescription;
}

/**
 * pe.ropeFromConfig options. Each read once, own properties only; an unknown key is a TypeError.
 */
export interface RopeFromConfigOptions {
  /** Overrides the family's layout (GPT-J, CodeGen, DeepSeek-V2/V3: 'interleaved'; else 'half'). */
  layout?: RopeLayout;
  /**
   * The sequence length the rotator serves, an integer in [1, 2^31): longrope takes its long
   * factors iff seqLen > original_max_position_embeddings (decided once, here); dynamic NTK
   * scales by max(seqLen, max_position_embeddings). Default: unset (short factors).
   */
  seqLen?: number;
  /**
   * 'full_attention' (default), 'sliding_attention' (Gemma 3/4's local rotary; v5
   * per-layer-type rope_parameters) or 'chunked_attention'; Zaya's own names 'hybrid' (=
   * 'full_attention') and 'hybrid_sliding' (= 'sliding_attention') too (other families:
   * RangeError naming layerType). DeepSeek-V4 has no 'full_attention': 'sliding_attention'
   * (its 'main' rotary), 'compressed_sparse_attention' and 'heavily_compressed_attention' (its
   * 'compress' rotary; other families: RangeError naming layerType).
   */
  layerType?: 'full_attention' | 'sliding_attention' | 'chunked_attention' | 'hybrid' | 'hybrid_sliding'
    | 'compressed_sparse_attention' | 'heavily_compressed_attention';
  /**
   * A decoder layer in [0, layers): its rotator, or null when the layer has no RoPE (Llama 4's
   * and SmolLM3's no-RoPE layers, Cohere2's and EXAONE 4's full-attention layers, Mllama's
   * cross-attention) and for a layer that is no attention (the linear / Mamba, conv, MoE / MLP
   * blocks of hybrid models). Out of range: RangeError naming `layer`. Per-layer lists
   * (GraniteSWA / Muse Glimmer `layer_rope_theta`, Step 3.5 / 3.7 `rope_theta` and
   * `partial_rotary_factors`) give that layer's own ladder.
   */
  layer?: number;
  /**
   * 'attention' (default) or 'indexer': a lightning indexer's rotator, the same θ. DeepSeek-V3.2:
   * its index_head_dim head, the first qk_rope_head_dim dims rotated in half layout. MiniMax-M3:
   * cos[..., :index_head_dim] of the layer's rotary, so the same rotated dims of an
   * index_head_dim head (sparse_attention_config.sparse_index_dim wins; narrower than the
   * rotated dims: RangeError). DeepSeek-V4 (compressed_sparse_attention layers only): the
   * 'compress' rotator, whose headDim is the rotated slice, placed on the trailing dims of an
   * index_head_dim head (LayerDescription.indexerSlice). Other families: RangeError.
   */
  part?: 'attention' | 'indexer';
  /**
   * A listed family's name (README: conventions table) whose rules read this config on purpose.
   * Without it, an unlisted or missing model_type is a RangeError naming model_type.
   */
  family?: string;
  /**
   * 'text' (default: the language model's rotary) or 'vision': the vision tower's 2-D
   * rotary from `vision_config` (Qwen2.5-Omni / Qwen3-Omni: `thinker_config.vision_config`) —
   * Qwen2-VL (head_dim = embed_dim / num_heads), Qwen2.5-VL, Qwen3-VL, Qwen2.5-Omni and
   * Qwen3-Omni (hidden_size / num_heads), base 10000 → vision2d 'qwen2-vl'; Pixtral (head_dim or
   * hidden_size / num_attention_heads, rope_theta) → vision2d 'pixtral'.
   */
  tower?: 'text' | 'vision';
  /**
   * Encoder-decoder configs (T5Gemma, T5Gemma 2): 'encoder' or 'decoder', the stack whose text
   * config is read (`encoder` / `decoder`; T5Gemma 2's encoder `encoder.text_config`); required
   * for the wrapper config (else RangeError naming `stack`). A stack's own config
   * (t5_gemma_module by its is_decoder, t5gemma2_encoder / t5gemma2_text / t5gemma2_decoder)
   * is that stack, and a contradicting `stack` is a RangeError. Single-stack models accept their
   * own ('decoder'; 'encoder' for OpenAI Privacy Filter) and refuse the other. DiffusionGemma
   * (diffusion_gemma, diffusion_gemma_text) runs one text_config as both stacks and requires
   * it: 'encoder' the prompt's causal layers, 'decoder' the canvas's bidirectional ones
   * (modelFromConfig refuses a decoder with sliding layers, naming layer_types[i]).
   */
  stack?: 'encoder' | 'decoder';
  /** As for pe.rope. */
  cacheLength?: number;
  cacheStart?: number;
  angles?: AnglePrecision;
}

/** pe.modelFromConfig options (each read once, own properties only). */
export interface ModelFromConfigOptions {
  layout?: RopeLayout;
  seqLen?: number;
  tower?: 'text' | 'vision';
  family?: string;
  /** As for ropeFromConfig: the stack of an encoder-decoder config. */
  stack?: 'encoder' | 'decoder';
  cacheLength?: number;
  cacheStart?: number;
  angles?: AnglePrecision;
}

/** q·scale(p), scale(p) = log(floor((p + offset) / floorScale) + 1) · attnScale + 1. */
export interface QueryScale {
  readonly floorScale: number;
  readonly attnScale: number;
  /** 1 for Llama 4 (attn_temperature_tuning), 0 for Ministral 3 (llama_4_scaling_beta). */
  readonly offset: number;
}

/** One decoder layer of pe.modelFromConfig (a frozen null-prototype record). */
export interface LayerDescription {
  readonly index: number;
  /** The key of its rotator in `encodings`, or null: the layer has no RoPE. */
  readonly rope: string | null;
  /**
   * 'windowed': a vision tower's 2-D window attention (patchWindow; Qwen2.5-VL's blocks not in
   * fullatt_block_indexes). 'sparse': indexer-selected keys (DeepSeek-V3.2's
   * deepseek_sparse_attention, MiniMax-M3's minimax_m3_sparse blocks); Zaya's 'hybrid' /
   * 'hybrid_sliding' are 'full' / 'sliding'; 'compressed_sparse' / 'heavily_compressed':
   * DeepSeek-V4's compressed_sparse_attention / heavily_compressed_attention (a sliding branch of
   * `window` keys plus compressed keys, compressRate); 'cross':
   * Mllama's cross-attention (no RoPE). No attention, so no RoPE: 'linear' (linear attention or
   * Mamba), 'conv' (LFM2's convolutions), 'none' (Nemotron-H's MoE / MLP blocks).
   */
  readonly attention:
    | 'full' | 'sliding' | 'chunked' | 'sparse' | 'linear' | 'conv' | 'cross' | 'none' | 'windowed'
    | 'compressed_sparse' | 'heavily_compressed';
  /**
   * sliding: the keys at or before the query it sees, 0 ≤ i − j < window (causal layers:
   * sliding_window; bidirectional ones as HF's mask applies it), else null.
   */
  readonly window: number | null;
  /** chunked: the chunk (attention_chunk_size), else null. */
  readonly chunk: number | null;
  readonly queryScale: QueryScale | null;
  /**
   * true: a layer that also sees keys after the query (OpenAI Privacy Filter, T5Gemma encoders,
   * Muse Glimmer's draft model, Gemma 4 with use_bidirectional_attention 'all', whose sliding
   * layers then see |i − j| ≤ (sliding_window // 2) + 1 as its mask functions build it;
   * transformers' flash-attention path sees one key fewer each side); false: causal.
   */
  readonly bidirectional: boolean;
  /**
   * bidirectional sliding: the keys after the query it sees, 0 < j − i ≤ lookahead, else null.
   * |i − j| ≤ sliding_window (create_bidirectional_sliding_window_mask): window sliding_window + 1,
   * lookahead sliding_window; T5Gemma 2: window (w + 1) // 2, lookahead w // 2.
   */
  readonly lookahead: number | null;
  /**
   * A decoder layer's attention to the encoder's output, whose keys carry no RoPE: 'separate'
   * (T5Gemma; Evolla's sequence aligner on every (n // aligner_num_add_layers)-th layer; IDEFICS's
   * gated block every cross_layer_interval: a second attention, neither queries nor keys rotated), 'merged' (T5Gemma 2: the
   * encoder's keys joined to the self-attention's keys, the queries rotated), else null.
   */
  readonly crossAttention: 'separate' | 'merged' | null;
  /** windowed: its windows, else null. */
  readonly patchWindow: PatchWindow | null;
  /**
   * compressed_sparse / heavily_compressed: one compressed key per compressRate tokens
   * (compress_rates[layer type]); compressed key w sums tokens [w·rate, (w + 1)·rate), is rotated
   * with this layer's rotator at position w·rate, and the query at position p sees the keys
   * w < floor((p + 1) / rate) (DeepseekV4HCACompressor / DeepseekV4Indexer). Else null.
   */
  readonly compressRate: number | null;
  /**
   * Where the rotator sits in the heads when not at dim 0 (DeepSeek-V4: the trailing slice of
   * [nope | rope] heads), else null: the rotator (headDim = the slice) rotates dims
   * [offset, offset + headDim) of each `head`-wide head — apply it to x.subarray(offset) with
   * headStride `head` (tokenStride heads · head).
   */
  readonly ropeSlice: RopeSlice | null;
  /**
   * true: the attention output's rope slice is rotated back at the query positions (DeepSeek-V4,
   * K = V: apply_rotary_pos_emb(out, cos, -sin)) — rope.apply(out, { inverse: true, positions })
   * with the same ropeSlice strides.
   */
  readonly outputInverse: boolean;
  /**
   * compressed_sparse: the lightning indexer's queries and compressed keys rotate with this
   * layer's rotator at this slice of its index_head_dim-wide heads (ropeFromConfig's part
   * 'indexer'), else null.
   */
  readonly indexerSlice: RopeSlice | null;
}

/** A rotator's place in a wider head: dims [offset, offset + rope.headDim) of `head`. */
export interface RopeSlice {
  readonly head: number;
  readonly offset: number;
}

/**
 * A vision tower's window attention (transformers' get_vision_window_index): each frame's grid of
 * merged tokens (merge × merge patches, kept adjacent) is cut from its top-left corner into
 * side × side windows (partial at the right and bottom edges; side · merge patches a side); the
 * tokens, their rotary positions with them, are reordered window by window (row-major inside each
 * window and across windows) before the first block, a windowed block attends within each window
 * only (both ways), a full block within the whole frame, and the patch order is restored after the
 * last block. Qwen2.5-VL: side = window_size // spatial_merge_size // patch_size (112 // 2 // 14 = 4),
 * merge = spatial_merge_size.
 */
export interface PatchWindow {
  /** The window side in merged tokens. */
  readonly side: number;
  /** A merged token's side in patches. */
  readonly merge: number;
}

/** pe.modelFromConfig's result (frozen, null-prototype records). */
export interface ModelDescription {
  /** The text model's model_type as the config says it ('' with a family option and none). */
  readonly modelType: string;
  /** The family whose rules read it ('vision' for a vision tower). */
  readonly family: string;
  readonly layers: readonly LayerDescription[];
  /** 'e0', 'e1', …: one rotator per distinct encoding. */
  readonly encodings: Readonly<Record<string, Rope>>;
  /** The scaling each encoding was built with ({ type: 'default' } for none). */
  readonly scaling: Readonly<Record<string, Readonly<{ type: string } & Record<string, unknown>>>>;
  /** Disposes every encoding. */
  dispose(): void;
}

interface Strides {
  /** Elements between consecutive tokens; default heads·headDim. */
  tokenStride?: number;
  /** Elements between consecutive heads; default headDim ([heads][tokens][dim]: tokens·headDim). */
  headStride?: number;
}

export type RopeApplyOptions = Strides & {
  /** Default 1. */
  heads?: number;
  /** Rotate back: R(−p·θ)/attentionFactor. Default false. */
  inverse?: boolean;
  /**
   * Write the result here (same length and strides as x; x is left unchanged): of x's
   * dtype (see HalfTarget); the very same array as x is in place, an overlapping one a
   * RangeError.
   */
  out?: FloatTarget | HalfTarget;
  /** What the bits of a Uint16Array x (and out) hold; a tensor's or Float16Array's own (see HalfTarget). */
  dtype?: HalfDtype;
} & (
    | { positions: RopePositions; tokens?: number; start?: never }
    | { tokens: number; start?: Position; positions?: never }
  );

export type RopeApplyQKOptions = {
  qHeads?: number;
  kHeads?: number;
  qTokenStride?: number;
  qHeadStride?: number;
  kTokenStride?: number;
  kHeadStride?: number;
  /** q and k are 16-bit of this dtype (see HalfTarget). */
  dtype?: HalfDtype;
} & (
  | { positions: RopePositions; tokens?: number; start?: never }
  | { tokens: number; start?: Position; positions?: never }
);

export interface RopeShiftOptions extends Strides {
  tokens: number;
  heads?: number;
  /** Positions to move the keys by (|delta| ≤ 2^53). */
  delta: Position;
}

/** A reusable rotator that owns its ladder and cos/sin cache in WebAssembly memory. */
export interface Rope {
  readonly headDim: number;
  readonly rotaryDim: number;
  readonly base: number;
  readonly layout: RopeLayout;
  readonly angles: AnglePrecision;
  /** 'inverse' when apply turns each pair by −p·θ_i (nanochat), else 'forward'. */
  readonly direction: RopeDirection;
  /** HF's attention_scaling (yarn, longrope), multiplied into rotated dims; 1 otherwise. */
  readonly attentionFactor: number;
  /** θ'_i as used by rung i, rotaryDim/2 values (vision2d: the row and column rungs). */
  readonly invFreq: Float64Array;
  /**
   * Positions per token: 1, 3 (mrope) or 2 (vision2d). With more than 1, `positions` holds
   * axes·tokens values in HF's position_ids order [axes][tokens] (all t, then all h, then
   * all w; or all rows, then all columns), and `start` means every axis at start + t
   * (M-RoPE's text tokens; refused by vision2d).
   */
  readonly axes: 1 | 2 | 3 | 4;
  /** The image / video preset ('flux', …), 'custom' for an explicit description, else null. */
  readonly axesName: AxesPreset | 'custom' | null;
  readonly mrope: Readonly<{ section: readonly number[]; interleaved: MropeInterleaving }> | null;
  readonly vision2d: Vision2d | null;
  readonly disposed: boolean;
  /**
   * Rotates x [tokens][heads][headDim] in place; returns x. For a batch, tokens =
   * batch·seq with one position per token (see Positions).
   */
  apply<T extends FloatTarget>(x: T, options: RopeApplyOptions & { out?: undefined }): T;
  /** Rotates x into out (x unchanged); returns out. */
  apply<O extends FloatTarget>(x: FloatTarget, options: RopeApplyOptions & { out: O }): O;
  /** apply with inverse: true. */
  invert<T extends FloatTarget>(x: T, options: Omit<RopeApplyOptions, 'inverse'> & { out?: undefined }): T;
  invert<O extends FloatTarget>(x: FloatTarget, options: Omit<RopeApplyOptions, 'inverse'> & { out: O }): O;
  /** Rotates a 16-bit x in place, or into a 16-bit out of its dtype (see HalfTarget). */
  apply<T extends HalfTarget>(x: T, options: RopeApplyOptions & { out?: undefined }): T;
  apply<O extends HalfTarget>(x: HalfTarget, options: RopeApplyOptions & { out: O }): O;
  invert<T extends HalfTarget>(x: T, options: Omit<RopeApplyOptions, 'inverse'> & { out?: undefined }): T;
  invert<O extends HalfTarget>(x: HalfTarget, options: Omit<RopeApplyOptions, 'inverse'> & { out: O }): O;
  /** Rotates q and k forward in place, one cos/sin row per token shared by both. */
  applyQK<Q extends FloatTarget, K extends FloatTarget>(q: Q, k: K, options: RopeApplyQKOptions): [Q, K];
  applyQK<Q extends HalfTarget, K extends HalfTarget>(q: Q, k: K, options: RopeApplyQKOptions): [Q, K];
  /** Keys rotated at p become keys rotated at p + delta (pure rotation, no attention factor). */
  shift<T extends FloatTarget>(k: T, options: RopeShiftOptions): T;
  /**
   * cos/sin(position·θ_i), rotaryDim/2 values each, without the attention factor. A
   * multi-axis rotator also takes one position per axis ([t, h, w] or [row, col]) and
   * returns the merged row apply uses.
   */
  row(position: Position | RopePositions): { cos: Float32Array; sin: Float32Array };
  /**
   * HF's (cos, sin) pair as a model's rotary embedding returns it: [tokens][rotaryDim]
   * each, full width in the rotator's layout (half: c_0 … c_{r/2−1} c_0 … c_{r/2−1};
   * interleaved: c_0 c_0 c_1 c_1 …), multiplied by attentionFactor. An mrope / vision2d
   * rotator takes axes·tokens positions in HF's position_ids order [axes][tokens] ((t, h, w)
   * or (row, col)) and returns each token's merged row: the cos/sin HF multiplies by after
   * apply_multimodal_rotary_pos_emb's / apply_interleaved_mrope's section merge, or
   * apply_rotary_pos_emb_vision's row and column rungs (not HF's per-axis [3][T][D]); start
   * gives M-RoPE text tokens (t = h = w) and is a RangeError for vision2d. Max error vs float64:
   * 3e−7·attentionFactor for |p| ≤ 2^24.
   */
  cosSin(options: RopeCosSinOptions): { cos: Float32Array; sin: Float32Array };
  dispose(): void;
}

export type RopeCosSinOptions =
  | { positions: RopePositions; tokens?: number; start?: never }
  | { tokens: number; start?: Position; positions?: never };

export interface ScoreOptions {
  /** q [Tq][dim] and k [Tk][dim], row-major. */
  q: Float32Array;
  k: Float32Array;
  dim: number;
  /** One position per q row (default 0 … Tq−1). */
  qPositions?: Positions;
  /** One position per k row (default 0 … Tk−1). */
  kPositions?: Positions;
  /** Default 'rotary'. */
  mode?: ScoreMode;
  /** RoPE pair layout (rotary). Default 'half'. */
  layout?: RopeLayout;
  /** Sinusoidal table layout (additive). Default 'interleaved'. */
  peLayout?: PeLayout;
  base?: number;
  /** Rotary: even, in [2, dim]; default dim. */
  rotaryDim?: number;
  scaling?: Scaling;
  /** Multiply by 1/√dim. Default false. */
  scale?: boolean;
  /** Rotary angle formation. Default 'exact'. */
  angles?: AnglePrecision;
}

export interface ScoreTerms {
  /** q·k */
  content: Float32Array;
  /** q·p_n */
  queryPosition: Float32Array;
  /** p_m·k */
  positionKey: Float32Array;
  /** p_m·p_n (the only term that depends on n − m alone) */
  positionPosition: Float32Array;
}

export interface AttentionWeights {
  /** modelDim² floats each, nn.Linear [out][in] order. */
  wq: Float32Array;
  wk: Float32Array;
  wv: Float32Array;
  wo: Float32Array;
}

export interface AttentionOptions {
  /** [tokens][modelDim] row-major. */
  x: Float32Array;
  weights: AttentionWeights;
  modelDim: number;
  /** Default x.length / modelDim. */
  tokens?: number;
  /** Default 1; must divide modelDim. */
  heads?: number;
  /** How positions enter: none (default), additive sinusoidal table, or rotary (Q and K). */
  mode?: ScoreMode;
  /** Mask keys after the query. Default false. */
  causal?: boolean;
  base?: number;
  layout?: RopeLayout;
  peLayout?: PeLayout;
  /** One position per token (default 0 … T−1). */
  positions?: Positions;
}

/** A learned absolute position table (see Posenc.learnedTable). */
export interface LearnedTable {
  readonly positions: number;
  readonly dim: number;
  /** positions·dim trainable parameters (nn.Embedding(512, 32): 16 384). */
  readonly parameters: number;
  /**
   * Rows P[p] for the listed positions, [list.length][dim]; a position outside
   * [0, positions) throws RangeError: a learned table has no vector past its trained length.
   */
  lookup(positions: Int32Array | readonly number[]): Float32Array;
}
export interface Posenc {
  /** True when the SIMD128 binary was loaded. */
  readonly simd: boolean;

  /** θ_i and HF's attention factor. */
  inverseFrequencies(options: LadderOptions): { invFreq: Float64Array; attentionFactor: number };
  /** λ_i = 2π/θ_i. */
  wavelengths(options: LadderOptions): Float64Array;

  /**
   * Sinusoidal table, positions × dim row-major: rows start … start+positions−1 (a count)
   * or PE(p) for each listed position. A new Float32Array, or with `out` (exactly
   * positions × dim floats) that array or tensor, filled and returned: a tensor receives
   * the table in place, with no copy and no allocation.
   */
  sinusoidal<T extends FloatTarget>(
    options: { dim: number; base?: number; layout?: PeLayout; out: T } & (
      | { positions: number; start?: Position }
      | { positions: Positions; start?: never }
    ),
  ): T;
  sinusoidal(
    options: { dim: number; base?: number; layout?: PeLayout; out?: undefined } & (
      | { positions: number; start?: Position }
      | { positions: Positions; start?: never }
    ),
  ): Float32Array;
  /** One row PE(position), |position| ≤ 2^40. */
  sinusoidalRow(options: { dim: number; base?: number; position: Position; layout?: PeLayout }): Float32Array;
  /** M(k), dim×dim row-major: PE(p+k) = M(k)·PE(p). dim ≤ 2048. */
  shiftMatrix(options: { dim: number; base?: number; k: number; layout?: PeLayout }): Float64Array;
  /** M(k)·row in double; dim = row.length. */
  applyShift(row: Float32Array, options: { k: number; base?: number; layout?: PeLayout }): Float64Array;
  /** PE(position)·PE(position + kFirst + j) for j < kCount. */
  peDotByDistance(options: { dim: number; base?: number; position?: Position; kFirst?: number; kCount: number }): Float64Array;
  /** Σ_i cos((kFirst + j)·θ_i) for j < kCount. */
  peDotClosedForm(options: { dim: number; base?: number; kFirst?: number; kCount: number }): Float64Array;
  /** ‖PE(start + r)‖ for r < count. */
  peNorms(options: { dim: number; base?: number; start?: Position; count: number }): Float64Array;
  /** The closest pair of encodings among start … start+count−1. */
  peMinDistance(options: { dim: number; base?: number; start?: Position; count: number }): { distance: number; p: number; q: number };

  /** A RoPE rotator; dispose() it when done. */
  rope(options: RopeOptions): Rope;

  /**
   * The rotator of a Hugging Face config.json, passed exactly as published (the parsed
   * object, snake_case keys): the one transformers' rotary embedding of that model uses,
   * built as pe.rope(options) builds it. Reads v4 `rope_scaling` (wins when non-empty) or v5
   * `rope_parameters` (flat or per layer type); `rope_type`, else legacy `type`
   * ('su' = longrope; Phi-3's 'yarn' = longrope; 'mrope' = default with sections); head_dim,
   * else hidden_size / num_attention_heads (DeepSeek-V2/V3: qk_rope_head_dim; GPT-J: n_embd /
   * n_head); int(head_dim · partial_rotary_factor) rotary dims (GPT-NeoX: rotary_pct;
   * GPT-J: rotary_dim); rope_theta (GPT-NeoX: rotary_emb_base; GPT-J: 10000); a nested
   * text_config; HF config-class defaults where keys are absent (Gemma 2/3, Phi-3, GPT-NeoX);
   * `mrope_section` → mrope (contiguous; interleaved with `mrope_interleaved` or any Qwen3-VL
   * text model, whose section defaults to [24, 20, 20]; GLM-4.1V / 4.5V / OCR / Image always
   * contiguous, default [8, 12, 12], in the family's pair layout; ERNIE 4.5 VL 'hw', its
   * (h, w, t) mrope_section default [22, 22, 20] read as section [t, h, w]). nanochat's
   * rotator has direction 'inverse' (its rotate_half turns by −p·θ).
   *
   * The config is read once: own enumerable string keys only (as JSON.stringify sees them),
   * each property read once through its descriptor (a getter called once), nothing inherited;
   * functions, symbols, BigInts and arrays that are not all numbers are kept as unreadable
   * values; a key holding '.' too (it cannot be one step of a key path). A cycle is a
   * TypeError, more than 32 levels, 65536 key paths, 2^20 list values or 2^22 characters a
   * RangeError, each naming the config key path. Keys or values the mapping cannot use are a
   * TypeError (wrong type: "rope_scaling.factor must be a number") or RangeError (unknown
   * rope type, a key the rope type does not take, a value out of range, a value given twice
   * with different values) naming the config key, e.g. `rope_scaling.rope_type`.
   */
  ropeFromConfig(config: object, options?: RopeFromConfigOptions & { layer?: undefined }): Rope;
  /** With `layer`: that decoder layer's rotator, or null for a layer without RoPE. */
  ropeFromConfig(config: object, options: RopeFromConfigOptions & { layer: number }): Rope | null;

  /**
   * Every decoder layer of a config.json (tower 'vision': the vision tower's layers): which use
   * RoPE and which rotator (identical rotators shared), the attention pattern, and the
   * position-dependent query scale posenc computes (Llama 4, Ministral 3). The layer pattern is
   * `layer_types` when the config lists it, else the family's rule. Errors as ropeFromConfig.
   */
  modelFromConfig(config: object, options?: ModelFromConfigOptions): ModelDescription;

  /**
   * A layer's query scale at each position: log(floor((p + offset) / floorScale) + 1) ·
   * attnScale + 1, in double (within 2 ulp). Positions: integers in [0, 2^53], else RangeError.
   */
  queryScale(scale: QueryScale, positions: ArrayLike<number>): Float64Array;

  /**
   * The compressed keys a query sees at each position (LayerDescription.compressRate, DeepSeek-V4's
   * compressed layers): floor((p + 1) / compressRate) — keys w = 0 … that − 1, key w rotated at
   * position w · compressRate. compressRate an integer in [1, 2^31); positions integers in
   * [0, 2^53), else RangeError. Exact.
   */
  compressedKeys(compressRate: number, positions: ArrayLike<number>): Float64Array;

  /** Attention logits S[m][n] = ⟨q'_m, k'_n⟩, [Tq][Tk] row-major; terms in 'additive' mode. */
  scores(options: ScoreOptions): { scores: Float32Array; terms?: ScoreTerms };
  /** max |S(m+shift, n+shift) − S(m, n)|. */
  shiftInvariance(options: ScoreOptions & { shift: number }): number;
  /** qᵀR(δθ)k in double for one pair of rows (dim = q.length). */
  relativeKernel(options: { q: Float32Array; k: Float32Array; delta: Position; base?: number; layout?: RopeLayout }): {
    score: number;
    dot: number;
    area: number;
  };
  /** RoFormer's long-term-decay bound for δ = 0 … maxDistance. */
  decayBound(options: { dim: number; base?: number; maxDistance: number }): Float64Array;

  /** Seeded weights uniform in ±1/√modelDim (bit-identical to the native library). */
  attentionWeights(options: { modelDim: number; seed: Seed }): AttentionWeights;
  /** Multi-head self-attention: output [T][D] and softmax weights [H][T][T]. */
  selfAttention(options: AttentionOptions): { output: Float32Array; weights: Float32Array };
  /** max |shuffle(out(X)) − out(shuffle(X))|: ~1e−7 without positions, O(1) with them. */
  permutationTest(options: Omit<AttentionOptions, 'positions'> & { seed: Seed }): number;

  /**
   * M-RoPE position ids of a text + image + video sequence, exactly as Hugging Face's
   * `get_rope_index` computes them (Qwen2-VL, Qwen2.5-VL, Qwen3-VL), ready for
   * `pe.rope({ mrope }).apply(x, { positions })`; see MropeItem for the items. Positions:
   * a text run continues from the previous position on all three axes; a visual item with
   * merged grid (T, H, W) = (t, h/m, w/m) starts at the next position p and gives its token
   * (ti, hi, wi) the ids (p + time(ti), p + hi, p + wi); the next item starts one past the
   * largest. time(ti) = ti (qwen2-vl, qwen3-vl); for qwen2.5-vl videos
   * trunc(ti · secondsPerGrid · tokensPerSecond) in float32 as torch computes it, 0 for
   * qwen2.5-vl images. qwen3-vl takes a video frame by frame, as HF splits it: each frame its
   * own { video: [1, h, w] } item with its timestamp and vision start/end tokens as text
   * between (t ≠ 1 is a RangeError).
   * `delta` is HF's `rope_deltas` (largest position + 1 − tokens, 0 when empty): decoding
   * continues with token n (0-based, counting the prompt) at position n + delta on every axis.
   * Ranges (RangeError naming the argument, nothing computed): spatialMerge in [1, 1024]
   * (default 2, HF's spatial_merge_size); grid values integers in [1, 2^31 − 1], h and w
   * multiples of spatialMerge; text in [0, 2^26]; at most 2^26 tokens and 2^20 items; every
   * position ≤ 2^31 − 1; for qwen2.5-vl videos tokensPerSecond (HF
   * vision_config.tokens_per_second, 2 in the released checkpoints) in (0, 2^24] is required
   * and secondsPerGrid in [0, 2^24] (default 1, as HF without second_per_grid_ts). Exact.
   */
  mropePositions(options: MropePositionsOptions): { positions: Int32Array; tokens: number; delta: number };

  /**
   * The positions [axes][tokens] of an image / video model's sequence, built as its
   * reference code builds them, in the token order its attention sees, for
   * `pe.rope({ axes: model })`. Sizes are token grids (after VAE and patching / packing: a
   * 1024×1024 Flux image is 64×64). Per model:
   *  - 'flux': textTokens at (0, 0, 0), then (0, row, col) (pipeline_flux _prepare_latent_image_ids).
   *  - 'flux2': text (0, 0, 0, l), the image (0, row, col, 0), reference k (10 + 10k, row, col, 0).
   *  - 'qwen-image': text at m + j on every axis (m = the largest ⌊h/2⌋, ⌊w/2⌋), then image k
   *    (the generated one, then references) at (k + frame, row − ⌈h/2⌉, col − ⌈w/2⌉) (scale_rope).
   *  - 'wan': (frame, row, col); no text.
   *  - 'hunyuan-video': (frame, row, col), then textTokens at (0, 0, 0) (not rotated: identity).
   *  - 'cogvideox': textTokens at (0, 0, 0) first, then (frame, row, col); version '1.0' crops
   *    the base grid (baseHeight × baseWidth, required) and spaces rows / columns by
   *    torch.linspace (real numbers off the base grid); '1.5' takes integer slices.
   *  - 'dinov3': prefixTokens (CLS + registers) at (0, 0), then patch centres
   *    (2(i + ½)/h − 1, 2(j + ½)/w − 1).
   *  - 'allegro': (frame / 2.2, row / 2, col / 2) (AllegroTransformer3DModel's interpolation scales).
   *  - 'muse-glimmer': (col + 1, row + 1) per patch, raster order, each frame again
   *    (MuseGlimmerVisionModel.forward: position_ids.flip(-1) + 1; the model then reorders patches by
   *    window: LayerDescription.patchWindow).
   * positions: Int32Array when every value is an integer, else Float64Array. Ranges
   * (RangeError naming the option): sides in [1, 2^20], textTokens / prefixTokens in [0, 2^26],
   * at most 2^26 tokens; an option the model does not read is refused by name.
   */
  axesPositions(options: AxesPositionsOptions): { positions: Int32Array | Float64Array; axes: number; tokens: number };

  /**
   * diffusers get_2d_sincos_pos_embed (DiT, MAE, SD3, PixArt): Float32Array
   * [(extraTokens + h·w)][dim], token i·w + j = [PE_{dim/2}(x_j) | PE_{dim/2}(y_i)] with the
   * concat-layout sinusoidal row (sin | cos, base 10000), x_j = (left + j)/(W/baseSize)/
   * interpolationScale, y_i likewise (W × H = the grid, or maxSize² cropped at its centre:
   * SD3's pos_embed_max_size); extraTokens zero rows first. dim a multiple of 4; baseSize
   * default 16, interpolationScale 1 (diffusers' defaults; MAE's own grid is baseSize = the
   * side). Max error vs float64: 0.5 ulp(float) + |p|·2⁻⁵³ per value.
   */
  sinusoidal2d(options: {
    dim: number; grid: readonly [number, number]; baseSize?: number; interpolationScale?: number;
    maxSize?: number; extraTokens?: number; out?: undefined;
  }): Float32Array;
  /** The same table into `out` (a tensor: no copy; or a Float32Array), exactly rows·dim floats; returns out. */
  sinusoidal2d<O extends FloatTarget>(options: {
    dim: number; grid: readonly [number, number]; baseSize?: number; interpolationScale?: number;
    maxSize?: number; extraTokens?: number; out: O;
  }): O;

  /** p·θ_i for each listed position (int32), [positions][dim/2] row-major, in double, not reduced mod 2π. */
  positionAngles(options: { dim: number; base?: number; positions: Positions }): Float64Array;
  /**
   * scale·e + PE(positions[r]) row by row (the transformer's input layer; scale √dim as in
   * Vaswani et al.): e is positions.length × dim floats. Each value rounded once from double.
   */
  addSinusoidal(options: { e: Float32Array; dim: number; positions: Positions; base?: number; scale?: number; layout?: PeLayout }): Float32Array;

  /**
   * ALiBi slopes m_h (Press et al. 2022): 2^(−8(h+1)/c) for the c = 2^⌊log2 heads⌋ first
   * heads, then every other slope of the 2c ladder (BLOOM's and MPT's rule for any count).
   * heads in [1, 65536].
   */
  alibiSlopes(options: { heads: number }): Float64Array;
  /**
   * ALiBi bias [heads][queries][keys] = −m_h·|P_i − j| (float32, rounded once), query i at key
   * position P_i = keys − queries + i (queries defaults to keys, must be ≤ keys); causal:
   * j > P_i → −Infinity. heads·queries·keys ≤ 2^28.
   */
  alibiBias(options: { heads: number; queries?: number; keys: number; causal?: boolean }): Float32Array;
  /**
   * T5 relative buckets [queries][keys] of (key j − query i), HF transformers'
   * `_relative_position_bucket` including its float32 log step. Defaults: keys = queries,
   * bidirectional true, numBuckets 32 (≥ 4 bidirectional, ≥ 2 causal), maxDistance 128
   * (> numBuckets/4 bidirectional, > numBuckets/2 causal).
   */
  t5Buckets(options: { queries: number; keys?: number; bidirectional?: boolean; numBuckets?: number; maxDistance?: number }): Int32Array;
  /** Shaw et al. 2018: [queries][keys] of clip(j − i, −maxDistance, maxDistance); keys defaults to queries. */
  clippedDistances(options: { queries: number; keys?: number; maxDistance: number }): Int32Array;
  /**
   * A seeded stand-in for a trained absolute table (nn.Embedding(positions, dim)): values
   * uniform in [−1, 1) from the package generator (seed default 0). positions·dim ≤ 2^26.
   */
  learnedTable(options: { positions: number; dim: number; seed?: Seed }): LearnedTable;
  /** Fills out with uniform floats in [lo, hi) (default [−1, 1)) from seed; returns out. */
  fillUniform<T extends FloatTarget>(out: T, options: { seed: Seed; lo?: number; hi?: number }): T;
  /** A seeded permutation of 0 … n−1. */
  permutation(options: { n: number; seed: Seed }): Int32Array;

  /**
   * A tensor of `length` zeros, or a copy of `data`, in WebAssembly memory. Calls of this
   * instance use it in place; another instance copies it like any array. dtype: 'float32'
   * (default; data a Float32Array), 'float16' | 'bfloat16' (data a Uint16Array of those
   * bits, or a Float16Array: float16). tensor() copies, it never converts: a dtype other
   * than the data's own is a TypeError, as is a Uint16Array without a 16-bit dtype.
   */
  tensor(length: number, options?: { dtype?: 'float32' }): Tensor<'float32'>;
  tensor<D extends TensorDtype>(length: number, options: { dtype: D }): Tensor<D>;
  tensor(data: Float32Array, options?: { dtype?: 'float32' }): Tensor<'float32'>;
  tensor<D extends HalfDtype>(data: Uint16Array, options: { dtype: D }): Tensor<D>;
  tensor(data: Exclude<HalfTarget, Uint16Array | Tensor<HalfDtype>>, options?: { dtype?: 'float16' }): Tensor<'float16'>;
  /**
   * The trainer ("train short, test long") is its own entry with its own binaries, so pages
   * that only encode positions never download it: `import { createTrainer } from
   * 'posenc/train'`. This member only throws a TypeError saying so.
   */
  train(options?: unknown): never;
  /** Debug: WebAssembly memory size and allocator bytes in use. */
  memoryStats(): { memoryBytes: number; heapInUse: number };
}

/** A binary from elsewhere: URL (string or URL), bytes or a compiled module. At most 32 MiB of a URL is read. */
export type WasmSource = string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

export interface CreateOptions {
  /** true/false forces the SIMD/scalar binary; default: SIMD when the engine validates SIMD128. */
  simd?: boolean;
  /** One binary from elsewhere; its flavour is read from it unless `simd` says which it must be. */
  wasm?: WasmSource;
  /** Self-hosting both binaries: the URL (or bytes) of the flavour the engine needs. */
  locateWasm?: (flavour: 'simd' | 'scalar') => WasmSource | Promise<WasmSource>;
}

/**
 * Loads posenc: the .wasm next to the package's JS (default entry) or embedded ('posenc/inline',
 * CommonJS). Rejects, never hangs, when the binary is missing, not WebAssembly (an HTML page, a
 * truncated file), not posenc's or the wrong flavour; the message says what arrived.
 */
export function createPosenc(options?: CreateOptions): Promise<Posenc>;
/** True when this engine can run the SIMD binary: it validates WebAssembly SIMD128 and exception-handling code. */
export function simdSupported(): boolean;
/** goldenVectors options. */
export interface GoldenVectorsOptions {
  /** Written as the document's `posenc` field (the CLI writes the package's version). */
  version: string;
  /** Integer positions for cos/sin, as rope.cosSin accepts them. */
  positions: readonly number[];
  seqLen?: number;
  tower?: 'text' | 'vision';
  family?: string;
  stack?: 'encoder' | 'decoder';
}

/** One distinct rotary of a golden-vectors document. */
export interface GoldenEncoding {
  headDim: number;
  rotaryDim: number;
  layout: RopeLayout;
  /** 'inverse': the model's rotate_half turns these cos/sin by −p·θ (nanochat). */
  direction: RopeDirection;
  base: number;
  scaling: { type: string } & Record<string, unknown>;
  mrope: { section: number[]; interleaved: MropeInterleaving } | null;
  vision2d: Vision2d | null;
  /** An axes preset's name (Muse Glimmer's vision tower: 'muse-glimmer'), else null. */
  axes: AxesPreset | 'custom' | null;
  attentionFactor: number;
  /** θ_i in float64. */
  invFreq: number[];
  /** HF-shaped rows: [positions][rotaryDim], multiplied by attentionFactor (rope.cosSin). */
  cos: number[][];
  sin: number[][];
}

/** The document `posenc vectors` writes (the key order is fixed). */
export interface GoldenVectors {
  posenc: string;
  modelType: string;
  family: string;
  positions: number[];
  layers: Array<{ index: number; rope: string | null; attention: LayerDescription['attention'];
    window: number | null; chunk: number | null; queryScale: QueryScale | null;
    bidirectional: boolean; lookahead: number | null; crossAttention: 'separate' | 'merged' | null;
    patchWindow: { side: number; merge: number } | null }>;
  encodings: Record<string, GoldenEncoding>;
}

/**
 * The golden vectors of a parsed config.json, exactly as `npx posenc vectors` writes them
 * (JSON.stringify(doc, null, 1) + newline is the CLI's output): pe.modelFromConfig's layers and,
 * per encoding, rope.cosSin at each position (each axis at that position for M-RoPE / vision2d),
 * exact to rope.cosSin's contract. Errors as pe.modelFromConfig and rope.cosSin; nothing is kept.
 */
export function goldenVectors(pe: Posenc, config: object, options: GoldenVectorsOptions): GoldenVectors;
export default createPosenc;
