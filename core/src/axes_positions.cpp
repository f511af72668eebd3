// axes_positions.cpp — the grids of posenc/axes_positions.hpp, one builder per model.
#include "posenc/axes_positions.hpp"

#include "posenc/detail/check.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace posenc {
namespace {

constexpr int kMaxSide = 1 << 20;
constexpr int kMaxText = 1 << 26;
constexpr std::int64_t kMaxTokens = std::int64_t{1} << 26;

// Appends tokens one by one: axis a of token t lands at a·tokens + t once finished.
class grid_writer {
public:
  grid_writer(std::string_view model, int axes, std::int64_t tokens) : axes_(axes), tokens_(tokens) {
    if (tokens > kMaxTokens)
      detail::fail_length(std::string(model), " grid holds ", tokens, " tokens, more than ", kMaxTokens);
    out_.axes = axes;
    out_.tokens = tokens;
    out_.positions.assign(static_cast<std::size_t>(axes * tokens), 0.0);
  }
  void put(double p0, double p1, double p2 = 0, double p3 = 0) {
    const double p[4] = {p0, p1, p2, p3};
    for (int a = 0; a < axes_; ++a) {
      out_.positions[static_cast<std::size_t>(a * tokens_ + next_)] = p[a];
      if (p[a] != std::floor(p[a])) out_.integral = false;
    }
    ++next_;
  }
  // n tokens at the origin (text or prefix tokens the model leaves unrotated).
  void zeros(int n) {
    for (int i = 0; i < n; ++i) put(0, 0, 0, 0);
  }
  axes_grid done() { return std::move(out_); }

private:
  int axes_;
  std::int64_t tokens_;
  std::int64_t next_ = 0;
  axes_grid out_;
};

std::int64_t area(int f, int h, int w) {
  return static_cast<std::int64_t>(f) * h * w;
}

void check_side(const char* name, int v) { detail::check_range(name, v, 1, kMaxSide); }

// What a model's grid reads besides frames / height / width (anything else is refused).
struct grid_model {
  std::string_view name;
  bool frames, text, references, cogvideox, prefix;
  axes_grid (*build)(const axes_grid_request&);
};

// Refuses a request field the model does not read.
void refuse_unread(const grid_model& g, const axes_grid_request& r) {
  const std::string m(g.name);
  if (!g.frames && r.frames != 1) detail::fail_argument("frames: ", m, " positions are images (one frame)");
  if (!g.text && r.text_tokens != 0)
    detail::fail_argument("textTokens: ", m, " puts no text tokens in its rotated sequence");
  if (!g.references && !r.references.empty())
    detail::fail_argument("references: ", m, " takes no reference images (flux2 and qwen-image do)");
  if (!g.cogvideox && !r.version.empty()) detail::fail_argument("version: only cogvideox has versions");
  if (!g.cogvideox && (r.base_height != 0 || r.base_width != 0))
    detail::fail_argument("baseHeight / baseWidth: only cogvideox crops a base grid");
  if (!g.prefix && r.prefix_tokens != 0)
    detail::fail_argument("prefixTokens: only dinov3 has prefix (CLS, register) tokens");
}

axes_grid flux(const axes_grid_request& r) {
  grid_writer g(r.model, 3, r.text_tokens + area(1, r.height, r.width));
  g.zeros(r.text_tokens);
  for (int i = 0; i < r.height; ++i)
    for (int j = 0; j < r.width; ++j) g.put(0, i, j);
  return g.done();
}

axes_grid flux2(const axes_grid_request& r) {
  std::int64_t tokens = r.text_tokens + area(1, r.height, r.width);
  for (const grid_size& s : r.references) tokens += area(1, s.height, s.width);
  grid_writer g(r.model, 4, tokens);
  for (int l = 0; l < r.text_tokens; ++l) g.put(0, 0, 0, l);
  for (int i = 0; i < r.height; ++i)
    for (int j = 0; j < r.width; ++j) g.put(0, i, j, 0);
  for (std::size_t k = 0; k < r.references.size(); ++k)
    for (int i = 0; i < r.references[k].height; ++i)
      for (int j = 0; j < r.references[k].width; ++j)
        g.put(10.0 + 10.0 * static_cast<double>(k), i, j, 0);
  return g.done();
}

axes_grid qwen_image(const axes_grid_request& r) {
  std::vector<grid_size> images{{r.height, r.width}};
  images.insert(images.end(), r.references.begin(), r.references.end());
  std::int64_t tokens = r.text_tokens;
  int m = 0;  // max_vid_index
  for (std::size_t k = 0; k < images.size(); ++k) {
    tokens += area(k == 0 ? r.frames : 1, images[k].height, images[k].width);
    m = std::max({m, images[k].height / 2, images[k].width / 2});
  }
  grid_writer g(r.model, 3, tokens);
  for (int j = 0; j < r.text_tokens; ++j) g.put(m + j, m + j, m + j);
  for (std::size_t k = 0; k < images.size(); ++k) {
    const int h = images[k].height, w = images[k].width;
    for (int f = 0; f < (k == 0 ? r.frames : 1); ++f)
      for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j)
          g.put(static_cast<double>(k) + f, i - (h - h / 2), j - (w - w / 2));
  }
  return g.done();
}

// (frame, row, col) after `before` origin tokens and before `after` ones.
axes_grid video(const axes_grid_request& r, int before, int after) {
  grid_writer g(r.model, 3, before + after + area(r.frames, r.height, r.width));
  g.zeros(before);
  for (int f = 0; f < r.frames; ++f)
    for (int i = 0; i < r.height; ++i)
      for (int j = 0; j < r.width; ++j) g.put(f, i, j);
  g.zeros(after);
  return g.done();
}

// torch.linspace(start, end, n) in float64: start + k·(end − start)/(n − 1).
double linspace_at(double start, double end, int n, int k) {
  return n == 1 ? start : start + k * ((end - start) / (n - 1));
}

axes_grid cogvideox(const axes_grid_request& r) {
  if (r.version != "1.0" && r.version != "1.5")
    detail::fail_argument("version (cogvideox) must be \"1.0\" or \"1.5\", got \"",
                          std::string(r.version), "\"");
  const bool base = r.base_height != 0 || r.base_width != 0;
  if (base || r.version == "1.0") {
    check_side("baseHeight", r.base_height);
    check_side("baseWidth", r.base_width);
  }
  if (r.version == "1.5") {
    if (base && (r.height > r.base_height || r.width > r.base_width))
      detail::fail_argument("height x width (cogvideox 1.5) must fit the base grid ", r.base_height,
                            " x ", r.base_width, ", got ", r.height, " x ", r.width);
    return video(r, r.text_tokens, 0);
  }
  // get_resize_crop_region_for_grid((h, w), tgt_width = base_width, tgt_height = base_height);
  // Python's round() rounds half to even, as nearbyint does.
  const double th = r.base_height, tw = r.base_width, h = r.height, w = r.width;
  double rh = 0, rw = 0;
  if (h / w > th / tw) {
    rh = th;
    rw = std::nearbyint(th / h * w);
  } else {
    rw = tw;
    rh = std::nearbyint(tw / w * h);
  }
  const double top = std::nearbyint((th - rh) / 2.0), left = std::nearbyint((tw - rw) / 2.0);
  const double bottom = top + rh, right = left + rw;
  grid_writer g(r.model, 3, r.text_tokens + area(r.frames, r.height, r.width));
  g.zeros(r.text_tokens);
  for (int f = 0; f < r.frames; ++f) {
    const double t = linspace_at(0, r.frames * (r.frames - 1.0) / r.frames, r.frames, f);
    for (int i = 0; i < r.height; ++i)
      for (int j = 0; j < r.width; ++j)
        g.put(t, linspace_at(top, bottom * (h - 1) / h, r.height, i),
              linspace_at(left, right * (w - 1) / w, r.width, j));
  }
  return g.done();
}

axes_grid dinov3(const axes_grid_request& r) {
  grid_writer g(r.model, 2, r.prefix_tokens + area(1, r.height, r.width));
  g.zeros(r.prefix_tokens);
  for (int i = 0; i < r.height; ++i)
    for (int j = 0; j < r.width; ++j)
      g.put(2.0 * ((i + 0.5) / r.height) - 1.0, 2.0 * ((j + 0.5) / r.width) - 1.0);
  return g.done();
}

// get_3d_rotary_pos_embed_allegro: grid_t, grid_h, grid_w = torch.linspace(0, n·(n − 1)/n, n)
// (0 … n − 1) divided by AllegroTransformer3DModel's interpolation scales (2.2, 2.0, 2.0);
// the pipeline indexes those tables by (frame, row, col).
axes_grid allegro(const axes_grid_request& r) {
  grid_writer g(r.model, 3, area(r.frames, r.height, r.width));
  for (int f = 0; f < r.frames; ++f)
    for (int i = 0; i < r.height; ++i)
      for (int j = 0; j < r.width; ++j) g.put(f / 2.2, i / 2.0, j / 2.0);
  return g.done();
}

// MuseGlimmerVisionModel.forward: get_vision_position_ids (raster (row, col) per frame),
// .flip(-1) + 1: (col + 1, row + 1), before the window reordering.
axes_grid muse_glimmer(const axes_grid_request& r) {
  grid_writer g(r.model, 2, area(r.frames, r.height, r.width));
  for (int f = 0; f < r.frames; ++f)
    for (int i = 0; i < r.height; ++i)
      for (int j = 0; j < r.width; ++j) g.put(j + 1, i + 1);
  return g.done();
}

axes_grid wan(const axes_grid_request& r) { return video(r, 0, 0); }
axes_grid hunyuan_video(const axes_grid_request& r) { return video(r, 0, r.text_tokens); }

constexpr grid_model kModels[] = {
    // name            frames text   refs   cogvideox prefix
    {"flux",           false, true,  false, false, false, flux},
    {"flux2",          false, true,  true,  false, false, flux2},
    {"qwen-image",     true,  true,  true,  false, false, qwen_image},
    {"wan",            true,  false, false, false, false, wan},
    {"hunyuan-video",  true,  true,  false, false, false, hunyuan_video},
    {"cogvideox",      true,  true,  false, true,  false, cogvideox},
    {"dinov3",         false, false, false, false, true,  dinov3},
    {"allegro",        true,  false, false, false, false, allegro},
    {"muse-glimmer",   true,  false, false, false, false, muse_glimmer},
};

}  // namespace

axes_grid axes_positions(const axes_grid_request& r) {
  check_side("frames", r.frames);
  check_side("height", r.height);
  check_side("width", r.width);
  detail::check_range("textTokens", r.text_tokens, 0, kMaxText);
  detail::check_range("prefixTokens", r.prefix_tokens, 0, kMaxText);
  for (std::size_t k = 0; k < r.references.size(); ++k) {
    const std::string at = detail::concat("references[", k, "]");
    check_side((at + ".height").c_str(), r.references[k].height);
    check_side((at + ".width").c_str(), r.references[k].width);
  }
  for (const grid_model& g : kModels) {
    if (g.name != r.model) continue;
    refuse_unread(g, r);
    return g.build(r);
  }
  if (r.model == "stable-audio")
    detail::fail_argument("model: stable-audio positions are 0 … n − 1 on one axis: use start");
  std::string names;
  for (const grid_model& g : kModels) names += (names.empty() ? "\"" : ", \"") + std::string(g.name) + "\"";
  detail::fail_argument("model must be one of ", names, ", got \"", std::string(r.model), "\"");
}

}  // namespace posenc
