// check.cpp — the out-of-line half of posenc/detail/check.hpp: error messages joined from
// their parts, and the number formatting they use (no printf, see the header).
#include "posenc/detail/check.hpp"

#include <charconv>
#include <cmath>

namespace posenc::detail {
namespace {

// 10^k for 0 ≤ k ≤ 308 by binary powering: exact up to 10^22, within a few ulp beyond.
double power_of_ten(int k) noexcept {
  double result = 1.0, square = 10.0;
  for (; k > 0; k >>= 1, square *= square)
    if (k & 1) result *= square;
  return result;
}

// round(v · 10^shift) for a result below 2^53. Where 10^|shift| is exact (|shift| ≤ 22)
// the rounding of the product (or quotient) is undone with its exact residual from fma,
// so the digits are those of v's exact decimal value, as printf gives them; beyond, the
// power itself rounds and the last digit may be one off.
unsigned long long scaled_digits(double v, int shift) noexcept {
  if (shift > 300) {  // subnormals: 10^shift alone would overflow
    v *= power_of_ten(300);
    shift -= 300;
  }
  const double p = power_of_ten(shift < 0 ? -shift : shift);
  const double q = shift >= 0 ? v * p : v / p;
  const double residual = shift >= 0 ? std::fma(v, p, -q) : std::fma(-q, p, v) / p;
  const auto whole = static_cast<unsigned long long>(std::floor(q));
  const double fraction = (q - static_cast<double>(whole)) + residual;
  const bool up = fraction > 0.5 || (fraction == 0.5 && whole % 2 == 1);  // ties to even
  return whole + (up ? 1 : 0);
}

// Writes the exponent suffix "e+XX" / "e-XXX" (at least two digits, as printf).
std::size_t put_exponent(int e, char* out) noexcept {
  std::size_t n = 0;
  out[n++] = 'e';
  out[n++] = e < 0 ? '-' : '+';
  const int a = e < 0 ? -e : e;
  if (a >= 100) out[n++] = static_cast<char>('0' + a / 100);
  out[n++] = static_cast<char>('0' + a / 10 % 10);
  out[n++] = static_cast<char>('0' + a % 10);
  return n;
}

}  // namespace

std::size_t message_part::format_integer(long long value, char* buf) noexcept {
  return static_cast<std::size_t>(std::to_chars(buf, buf + 32, value).ptr - buf);
}

std::size_t message_part::format_integer(unsigned long long value, char* buf) noexcept {
  return static_cast<std::size_t>(std::to_chars(buf, buf + 32, value).ptr - buf);
}

std::size_t message_part::format_real(double value, char* buf) noexcept {
  constexpr int digits = 15;
  std::size_t n = 0;
  if (std::isnan(value)) {
    buf[0] = 'n', buf[1] = 'a', buf[2] = 'n';
    return 3;
  }
  if (std::signbit(value)) buf[n++] = '-';
  double v = std::fabs(value);
  if (std::isinf(v)) {
    buf[n] = 'i', buf[n + 1] = 'n', buf[n + 2] = 'f';
    return n + 3;
  }
  if (v == 0) {
    buf[n] = '0';
    return n + 1;
  }
  // v = m · 10^(e − 14) with m a 15-digit integer: find e, then scale once.
  int e = 0;
  for (double w = v; w >= 10; w /= 10) ++e;
  for (double w = v; w < 1; w *= 10) --e;
  auto m = scaled_digits(v, digits - 1 - e);
  if (m >= 1000000000000000ull) {  // rounding carried into a 16th digit
    m = (m + 5) / 10;
    ++e;
  }
  char d[digits];
  for (int i = digits - 1; i >= 0; --i, m /= 10) d[i] = static_cast<char>('0' + m % 10);
  int last = digits - 1;  // %g drops trailing zeros
  while (last > 0 && d[last] == '0') --last;
  if (e < -4 || e >= digits) {  // d.ddde±XX
    buf[n++] = d[0];
    if (last > 0) buf[n++] = '.';
    for (int i = 1; i <= last; ++i) buf[n++] = d[i];
    return n + put_exponent(e, buf + n);
  }
  if (e < 0) {  // 0.000ddd
    buf[n++] = '0';
    buf[n++] = '.';
    for (int i = e; i < -1; ++i) buf[n++] = '0';
    for (int i = 0; i <= last; ++i) buf[n++] = d[i];
    return n;
  }
  for (int i = 0; i <= e; ++i) buf[n++] = d[i];  // ddd[.ddd]
  if (last > e) {
    buf[n++] = '.';
    for (int i = e + 1; i <= last; ++i) buf[n++] = d[i];
  }
  return n;
}

namespace {

// Code points quoted() shows escaped (see check.hpp).
bool unsafe_code_point(char32_t c) noexcept {
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 ||
         (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) ||
         (c >= 0x2060 && c <= 0x2069) || c == 0xfeff;
}

// The code point of the UTF-8 sequence at s[i] and its length, or length 0 when invalid
// (overlong, surrogate, past U+10FFFF, truncated).
std::size_t decode_utf8(std::string_view s, std::size_t i, char32_t& c) noexcept {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char b0 = b(0);
  std::size_t n = b0 < 0x80 ? 1 : (b0 >> 5) == 6 ? 2 : (b0 >> 4) == 14 ? 3 : (b0 >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  c = n == 1 ? b0 : b0 & (0x7f >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) >> 6) != 2) return 0;
    c = (c << 6) | (b(k) & 0x3f);
  }
  constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
  return n;
}

void append_hex(std::string& out, const char* prefix, unsigned long v, int digits, const char* suffix) {
  constexpr char hex[] = "0123456789abcdef";
  out += prefix;
  for (int d = digits - 1; d >= 0; --d) out += hex[(v >> (4 * d)) & 0xf];
  out += suffix;
}

}  // namespace

std::string quoted(std::string_view text) {
  constexpr std::size_t max_code_points = 40;
  std::string out = "'";
  std::size_t i = 0, shown = 0;
  while (i < text.size() && shown < max_code_points) {
    char32_t c = 0;
    const std::size_t n = decode_utf8(text, i, c);
    ++shown;
    if (n == 0) {
      append_hex(out, "\\x", static_cast<unsigned char>(text[i]), 2, "");
      ++i;
      continue;
    }
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c == '\'' || c == '\\') (out += '\\') += static_cast<char>(c);
    else if (unsafe_code_point(c)) append_hex(out, "\\u{", c, c > 0xff ? 4 : 2, "}");
    else out.append(text.substr(i, n));
    i += n;
  }
  if (i == text.size()) return out += '\'';
  return out += concat("…' (", text.size(), " bytes)");
}

std::string key_text(std::string_view key) {
  std::string q = quoted(key);
  // Plain: short, nothing escaped, no space (so the path reads as one word).
  const bool plain = !key.empty() && key.size() <= 64 && q.size() == key.size() + 2 &&
                     key.find(' ') == std::string_view::npos;
  return plain ? std::string(key) : q;
}

std::string join(std::initializer_list<message_part> parts) {
  std::string out;
  for (const message_part& part : parts) out += part.view();
  return out;
}

void throw_invalid_argument(std::initializer_list<message_part> parts) {
  throw invalid_argument("posenc: " + join(parts));
}

void throw_length_error(std::initializer_list<message_part> parts) {
  throw length_error("posenc: " + join(parts));
}

}  // namespace posenc::detail
