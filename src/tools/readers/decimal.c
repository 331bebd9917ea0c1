/* Locale-independent decimal parsing (see decimal.h). */
#include "decimal.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static bool sw__word_ieq(const char* s, size_t len, const char* word) {
    size_t n = strlen(word);
    if (len != n) return false;
    for (size_t i = 0; i < n; ++i) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != word[i]) return false;
    }
    return true;
}

static bool sw__is_digit(char c) {
    return c >= '0' && c <= '9';
}

sw__decimal_result sw__parse_decimal(const char* s, size_t len, sw__decimal_grammar grammar,
                                     double* out) {
    static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const bool json = grammar == SW__DECIMAL_JSON;
    size_t i = 0;
    bool neg = false;
    if (i < len && (s[i] == '-' || (!json && s[i] == '+'))) neg = s[i++] == '-';
    if (!json && (sw__word_ieq(s + i, len - i, "nan") || sw__word_ieq(s + i, len - i, "inf") ||
                  sw__word_ieq(s + i, len - i, "infinity"))) {
        return SW__DECIMAL_NONFINITE;
    }
    uint64_t mant = 0;
    int64_t exp10 = 0;
    unsigned sig = 0;
    size_t int_digits = 0, frac_digits = 0;
    /* JSON: the integer part is "0" or starts with 1-9. */
    if (json && (i >= len || !sw__is_digit(s[i]))) return SW__DECIMAL_SYNTAX;
    const bool leading_zero = json && s[i] == '0';
    while (i < len && sw__is_digit(s[i])) {
        if (sig < 19) {
            mant = mant * 10u + (uint64_t)(s[i] - '0');
            if (mant != 0) ++sig;
        } else {
            ++exp10;
        }
        ++int_digits;
        ++i;
    }
    if (leading_zero && int_digits > 1) return SW__DECIMAL_SYNTAX;
    if (i < len && s[i] == '.') {
        ++i;
        while (i < len && sw__is_digit(s[i])) {
            if (sig < 19) {
                mant = mant * 10u + (uint64_t)(s[i] - '0');
                if (mant != 0) ++sig;
                --exp10;
            }
            ++frac_digits;
            ++i;
        }
        if (json && frac_digits == 0) return SW__DECIMAL_SYNTAX;
    }
    if (int_digits + frac_digits == 0) return SW__DECIMAL_SYNTAX;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        bool eneg = false;
        if (i < len && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
        size_t edigits = 0;
        int64_t e = 0;
        while (i < len && sw__is_digit(s[i])) {
            if (e < 100000) e = e * 10 + (s[i] - '0');
            ++edigits;
            ++i;
        }
        if (edigits == 0) return SW__DECIMAL_SYNTAX;
        exp10 += eneg ? -e : e;
    }
    if (i != len) return SW__DECIMAL_SYNTAX;
    double v = (double)mant;
    if (mant != 0) {
        if (exp10 >= 0 && exp10 <= 22) {
            v *= pow10[exp10];
        } else if (exp10 < 0 && exp10 >= -22) {
            v /= pow10[-exp10];
        } else if (exp10 > 400) {
            return SW__DECIMAL_NONFINITE;
        } else if (exp10 < -400) {
            v = 0.0;
        } else {
            v *= pow(10.0, (double)exp10);
        }
    }
    if (!isfinite(v)) return SW__DECIMAL_NONFINITE;
    *out = neg ? -v : v;
    return SW__DECIMAL_OK;
}
