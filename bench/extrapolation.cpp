// posenc_extrapolation — runs the "train short, test long" protocol (posenc/train_protocol.hpp)
// on one or more tasks and writes a markdown report: task, settings, seeds, per-length
// accuracy and loss with their spread across seeds, CPU, time.
//
//   posenc_extrapolation [--out FILE] [--text FILE]... [OPTIONS] [--task NAME [OPTIONS]]...
// NAME: recall | copy | induction | text. OPTIONS before the first --task set every task's
// defaults; OPTIONS after a --task apply to that task only:
//   --encodings none,sinusoidal,...  --seeds 1,2,3  --steps N  --batch N  --length L
//   --lengths 64,128,256,512  --dim N  --heads N  --layers N  --mlp N  --lr X  --symbols N
//   --distance N  --eval-tokens N
// Without --task, runs recall with the protocol's defaults. The text task reads the files
// given by --text, concatenated (none are shipped: pass your own text).
#include "posenc/errors.hpp"
#include "posenc/train_protocol.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace posenc;

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) if (!item.empty()) out.push_back(item);
  return out;
}

std::string cpu_name() {
#ifdef __EMSCRIPTEN__
  return "not visible from WebAssembly (this report was written by the WebAssembly build)";
#endif
  std::string name = "unknown";
  if (FILE* p = popen("lscpu 2>/dev/null", "r")) {
    char line[512];
    while (std::fgets(line, sizeof line, p))
      if (std::strncmp(line, "Model name:", 11) == 0) {
        std::string s = line + 11;
        s.erase(0, s.find_first_not_of(" \t"));
        s.erase(s.find_last_not_of(" \t\n") + 1);
        name = s;
      }
    pclose(p);
  }
  return name;
}

struct stats {
  double mean = 0, sd = 0, lo = 0, hi = 0;
};

stats summarize(const std::vector<double>& v) {
  stats s;
  if (v.empty()) return s;
  s.lo = s.hi = v[0];
  for (double x : v) {
    s.mean += x;
    s.lo = std::min(s.lo, x);
    s.hi = std::max(s.hi, x);
  }
  s.mean /= double(v.size());
  for (double x : v) s.sd += (x - s.mean) * (x - s.mean);
  s.sd = v.size() > 1 ? std::sqrt(s.sd / double(v.size() - 1)) : 0.0;
  return s;
}

std::string percent(const stats& s) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.1f ± %.1f (%.1f–%.1f)", 100 * s.mean, 100 * s.sd, 100 * s.lo,
                100 * s.hi);
  return buf;
}

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string join(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

// The training curves: mean loss over each tenth of the steps, then across seeds.
std::string curves(const std::vector<std::string>& order,
                   std::map<std::string, std::vector<const protocol_run*>>& by_encoding) {
  std::ostringstream md;
  md << "Training loss by tenth of the steps (mean over the tenth, then across seeds):\n\n| encoding |";
  for (int k = 1; k <= 10; ++k) md << " " << k * 10 << "% |";
  md << "\n|---|";
  for (int k = 0; k < 10; ++k) md << "---|";
  md << "\n";
  for (const auto& e : order) {
    md << "| " << e << " |";
    for (int k = 0; k < 10; ++k) {
      double sum = 0;
      for (const auto* r : by_encoding[e]) {
        const std::size_t n = r->train_loss.size(), from = n * k / 10, to = std::max(from + 1, n * (k + 1) / 10);
        double part = 0;
        for (std::size_t i = from; i < to && i < n; ++i) part += r->train_loss[i];
        sum += part / double(to - from);
      }
      md << " " << fixed(sum / double(by_encoding[e].size()), 3) << " |";
    }
    md << "\n";
  }
  return md.str();
}

// The report section of one task.
std::string report(const protocol_config& c, const std::vector<protocol_run>& runs, double seconds) {
  std::ostringstream md;
  const task_source task(c.task);
  const auto& m = c.model;
  md << "## Task: " << to_string(c.task.kind) << "\n\n";
  switch (c.task.kind) {
    case train_task::recall: md << "Predict the symbol " << c.task.distance << " positions back (" << c.task.symbols << " symbols).\n\n"; break;
    case train_task::copy: md << "Copy the first half after a separator (" << c.task.symbols << " symbols): the answer sits length/2 + 1 back.\n\n"; break;
    case train_task::induction: md << "Induction: … A B … A → B (" << c.task.symbols << " symbols), most recent earlier occurrence.\n\n"; break;
    case train_task::text: md << "Byte-level language model on " << c.task.text.size() << " bytes of text (" << task.vocab() << " distinct bytes).\n\n"; break;
  }
  model_config mc = m;
  mc.vocab = task.vocab();
  mc.max_positions = c.train_length;
  for (int t : c.eval_lengths) mc.max_positions = std::max(mc.max_positions, t);
  std::size_t params_none = 0;
  {
    mc.encoding = train_encoding::none;
    params_none = transformer<float>(mc, 1).parameters().size();
  }
  md << "Settings: dim " << m.dim << ", heads " << m.heads << ", layers " << m.layers << ", mlp "
     << m.mlp << ", vocab " << task.vocab() << " (" << params_none
     << " parameters without position parameters); train length L = " << c.train_length << ", "
     << c.steps << " steps × batch " << c.batch << ", Adam lr " << c.adam.learning_rate
     << " (β " << c.adam.beta1 << ", " << c.adam.beta2 << ", warm-up " << c.adam.warmup_steps
     << ", cosine to 10%, clip " << c.adam.clip_norm << "); evaluation: " << c.eval_tokens
     << " tokens per length (⌈tokens/T⌉ sequences seed " << c.eval_seed << " + T), the same for every model. Seeds:";
  for (auto s : c.seeds) md << " " << s;
  md << ". Workspace per sequence at the longest length: " << transformer<float>(mc, 1).workspace(mc.max_positions) * 4 / 1024
     << " KiB (float).\n\n";
  md << "Accuracy (%) on scored targets, mean ± sd across seeds (min–max):\n\n| encoding | train acc (last 10% of steps) |";
  for (int t : c.eval_lengths) md << " T = " << t << (t == c.train_length ? " (L)" : "") << " |";
  md << "\n|---|---|";
  for (std::size_t i = 0; i < c.eval_lengths.size(); ++i) md << "---|";
  md << "\n";
  // rows: encoding (+ extension)
  std::map<std::string, std::vector<const protocol_run*>> by_encoding;
  std::vector<std::string> order;
  for (const auto& r : runs) {
    const std::string e(to_string(r.encoding));
    if (!by_encoding.count(e)) order.push_back(e);
    by_encoding[e].push_back(&r);
  }
  std::ostringstream loss_md;
  loss_md << "Mean loss (nats per scored target), mean across seeds:\n\n| encoding |";
  for (int t : c.eval_lengths) loss_md << " T = " << t << " |";
  loss_md << "\n|---|";
  for (std::size_t i = 0; i < c.eval_lengths.size(); ++i) loss_md << "---|";
  loss_md << "\n";
  for (const auto& e : order) {
    const auto& rs = by_encoding[e];
    for (std::size_t x = 0; x < rs[0]->evaluations.size(); ++x) {
      const auto ext = rs[0]->evaluations[x].extension;
      std::string label = e + (ext == rope_extension::none ? "" : "+" + std::string(to_string(ext)));
      std::vector<double> train_acc;
      for (const auto* r : rs) {
        const std::size_t n = r->train_accuracy.size(), from = n - std::max<std::size_t>(1, n / 10);
        double a = 0;
        for (std::size_t i = from; i < n; ++i) a += r->train_accuracy[i];
        train_acc.push_back(a / double(n - from));
      }
      md << "| " << label << " | " << (x == 0 ? percent(summarize(train_acc)) : "(same model)") << " |";
      loss_md << "| " << label << " |";
      for (std::size_t i = 0; i < c.eval_lengths.size(); ++i) {
        std::vector<double> acc, loss;
        for (const auto* r : rs) {
          acc.push_back(r->evaluations[x].by_length[i].accuracy());
          loss.push_back(r->evaluations[x].by_length[i].loss());
        }
        md << " " << percent(summarize(acc)) << " |";
        loss_md << " " << fixed(summarize(loss).mean, 3) << " |";
      }
      md << "\n";
      loss_md << "\n";
    }
  }
  md << "\n" << loss_md.str() << "\n" << curves(order, by_encoding) << "\nTime: " << fixed(seconds, 1) << " s for " << runs.size()
     << " runs (" << fixed(seconds / double(runs.size()), 2) << " s per run: training and evaluation).\n\n";
  return md.str();
}

// Applies option argv[i] (and its value) to c; false if it is not a per-task option.
bool apply(const std::string& a, const std::string& v, protocol_config& c) {
  if (a == "--encodings") {
    c.encodings.clear();
    for (auto& e : split(v)) c.encodings.push_back(parse_train_encoding(e));
  } else if (a == "--seeds") {
    c.seeds.clear();
    for (auto& s : split(v)) c.seeds.push_back(std::stoull(s));
  } else if (a == "--lengths") {
    c.eval_lengths.clear();
    for (auto& s : split(v)) c.eval_lengths.push_back(std::stoi(s));
  } else if (a == "--steps") c.steps = std::stoi(v);
  else if (a == "--batch") c.batch = std::stoi(v);
  else if (a == "--length") c.train_length = std::stoi(v);
  else if (a == "--dim") c.model.dim = std::stoi(v);
  else if (a == "--heads") c.model.heads = std::stoi(v);
  else if (a == "--layers") c.model.layers = std::stoi(v);
  else if (a == "--mlp") c.model.mlp = std::stoi(v);
  else if (a == "--lr") c.adam.learning_rate = std::stod(v);
  else if (a == "--symbols") c.task.symbols = std::stoi(v);
  else if (a == "--distance") c.task.distance = std::stoi(v);
  else if (a == "--eval-tokens") c.eval_tokens = std::stoi(v);
  else return false;
  return true;
}

int run(int argc, char** argv) {
  std::string out;
  std::vector<std::string> texts;
  protocol_config base;  // the protocol's defaults (posenc/train_protocol.hpp)
  std::vector<protocol_config> tasks;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) throw invalid_argument("posenc_extrapolation: " + a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--out") out = v;
    else if (a == "--text") texts.push_back(v);
    else if (a == "--task") {
      tasks.push_back(base);
      tasks.back().task.kind = parse_train_task(v);
    } else if (!apply(a, v, tasks.empty() ? base : tasks.back()))
      throw invalid_argument("posenc_extrapolation: unknown option " + a);
  }
  if (tasks.empty()) tasks.push_back(base);  // recall with every default
  std::string text;
  for (const auto& path : texts) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw invalid_argument("posenc_extrapolation: cannot read --text " + path);
    text += std::string(std::istreambuf_iterator<char>(f), {});
  }
  std::ostringstream md;
  const auto started = std::chrono::steady_clock::now();
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  md << "# Train short, test long: measured\n\nWritten by `posenc_extrapolation` (bench/extrapolation.cpp) on "
     << date << ", CPU: " << cpu_name() << ", one thread. Command:\n\n```\nposenc_extrapolation";
  for (int i = 1; i < argc; ++i) md << " " << argv[i];
  md << "\n```\n\nEach model is trained at length L and scored at L, 2L, 4L, 8L on fresh sequences. "
        "Learned tables have 8L rows; rows past L are never trained and keep their initial values. "
        "rope-half+pi / +yarn are the rope-half models scored with PI (linear, factor T/L) or YaRN "
        "(factor T/L, original length L) past L.\n\n";
  for (protocol_config c : tasks) {
    const std::string name(to_string(c.task.kind));
    if (c.task.kind == train_task::text) {
      if (text.empty()) throw invalid_argument("posenc_extrapolation: --task text needs --text FILE");
      c.task.text = text;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const auto runs = run_protocol(c, [&](int step, double loss) {
      if ((step + 1) % 100 == 0) std::cerr << name << " step " << step + 1 << " loss " << loss << "\n";
      return true;
    });
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    md << report(c, runs, s);
    std::cerr << "task " << name << " done in " << s << " s\n";
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  md << "Total time: " << fixed(total, 1) << " s.\n";
  if (out.empty()) std::cout << md.str();
  else std::ofstream(out, std::ios::binary) << md.str();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
