// Colour scales for heatmaps. Viridis (van der Walt & Smith, matplotlib) is perceptually
// uniform and readable with the common colour-vision deficiencies and in greyscale.
// Anchors are matplotlib's viridis at 0, 1/9, …, 1; a 256-entry table interpolates them.
const VIRIDIS = ['#440154', '#482878', '#3e4989', '#31688e', '#26828e',
  '#1f9e89', '#35b779', '#6ece58', '#b5de2b', '#fde725'];

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function table(anchors) {
  const stops = anchors.map(rgb);
  const lut = new Uint8ClampedArray(256 * 4);
  for (let i = 0; i < 256; i++) {
    const x = (i / 255) * (stops.length - 1);
    const j = Math.min(Math.floor(x), stops.length - 2);
    const f = x - j;
    for (let c = 0; c < 3; c++) lut[i * 4 + c] = Math.round(stops[j][c] * (1 - f) + stops[j + 1][c] * f);
    lut[i * 4 + 3] = 255;
  }
  return lut;
}

export const viridis = table(VIRIDIS);

/** Line colours for plots: Okabe–Ito, the colour-blind-safe qualitative set. */
export const LINES = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000'];
