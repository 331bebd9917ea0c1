/* Internal: locale-independent decimal number parsing for the text readers
 * (BVH, JSON). strtod follows the C locale, which a host program may have
 * changed; these readers must not. Not installed; names use sw__. */
#ifndef SINEW_TOOLS_DECIMAL_H
#define SINEW_TOOLS_DECIMAL_H

#include <stddef.h>

typedef enum sw__decimal_result {
    SW__DECIMAL_OK = 0,
    SW__DECIMAL_SYNTAX,   /* not a number in the grammar */
    SW__DECIMAL_NONFINITE /* nan/inf words (lenient grammar) or beyond double range */
} sw__decimal_result;

typedef enum sw__decimal_grammar {
    /* [+-](digits[.digits]|.digits)([eE][+-]digits), and the words "nan",
     * "inf", "infinity" (any case, signed) reported as NONFINITE. */
    SW__DECIMAL_LENIENT = 0,
    /* RFC 8259: -?(0|[1-9]digits)(.digits)?([eE][+-]?digits)? */
    SW__DECIMAL_JSON
} sw__decimal_grammar;

/* Parses exactly `len` bytes at s. Up to 19 significant digits are kept
 * (exact for the float values sinew stores); *out is written only on OK. */
sw__decimal_result sw__parse_decimal(const char* s, size_t len, sw__decimal_grammar grammar,
                                     double* out);

#endif
