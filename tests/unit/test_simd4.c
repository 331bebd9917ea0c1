/* The portable 4-wide SIMD layer (src/runtime/simd/simd4.h): every primitive
 * against scalar C math on random values and edge cases (signed zeros,
 * negatives, NaN lanes for comparisons, integers and halves for floor).
 * Arithmetic that IEEE 754 rounds correctly (add, sub, mul, div, sqrt) must
 * match bit for bit; madd/nmadd match either the fused or the unfused
 * result; rsqrt within 2e-7 relative of 1/sqrt in double.
 * The same file is compiled once per x86 instruction set in CMake
 * (test_simd4_sse41, test_simd4_avx2) and skips when the CPU lacks it. */
#include "test_util.h"

#include "runtime/simd/simd4.h"

#define N_RANDOM 4000

#if SW__SIMD4_AVAILABLE

static uint32_t bits_of(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

static float float_of(uint32_t u) {
    float x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

static void to_array(sw__v4 v, float out[4]) {
    SINEW_ALIGN16 float tmp[4];
    sw__v4_store(tmp, v);
    memcpy(out, tmp, sizeof(tmp));
}

static void mask_to_array(sw__m4 m, uint32_t out[4]) {
    /* Masks go through select so no ISA-specific cast is needed. */
    float a[4];
    to_array(sw__v4_select(m, sw__v4_set1(float_of(0xFFFFFFFFu)), sw__v4_zero()), a);
    for (int i = 0; i < 4; ++i)
        out[i] = bits_of(a[i]);
}

static void assert_bits(sw__v4 v, const float expect[4], const char* what) {
    float a[4];
    to_array(v, a);
    for (int i = 0; i < 4; ++i) {
        if (bits_of(a[i]) != bits_of(expect[i]))
            fail_msg("%s lane %d: %.9g (0x%08x) vs expected %.9g (0x%08x)", what, i, a[i],
                     bits_of(a[i]), expect[i], bits_of(expect[i]));
    }
}

/* Random floats of varied magnitude and sign, with edge values mixed in. */
static float value(uint32_t* s) {
    static const float edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 1e-20f, -3e7f, 2.5f};
    float r = sw_test_rand(s, 0, 1);
    if (r < 0.1f) return edges[(uint32_t)(sw_test_rand(s, 0, 8.999f))];
    float mag = powf(10.0f, sw_test_rand(s, -4, 4));
    return sw_test_rand(s, 0, 1) < 0.5f ? -mag : mag;
}

static void fill(uint32_t* s, float v[4]) {
    for (int i = 0; i < 4; ++i)
        v[i] = value(s);
}

static void test_isa(void** state) {
    (void)state;
    print_message("simd4 path: %s\n", SW__SIMD4_NAME);
    assert_true(strlen(SW__SIMD4_NAME) > 0);
}

static void test_load_store_set(void** state) {
    (void)state;
    SINEW_ALIGN16 float buf[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const float e0[4] = {1, 2, 3, 4}, e1[4] = {2, 3, 4, 5};
    assert_bits(sw__v4_load(buf), e0, "load");
    assert_bits(sw__v4_loadu(buf + 1), e1, "loadu");
    assert_bits(sw__v4_set(1, 2, 3, 4), e0, "set");
    const float seven[4] = {7, 7, 7, 7}, zero[4] = {0, 0, 0, 0};
    assert_bits(sw__v4_set1(7), seven, "set1");
    assert_bits(sw__v4_zero(), zero, "zero");
    sw__v4_store(buf + 8, sw__v4_set(-1, -2, -3, -4));
    sw__v4_storeu(buf + 1, sw__v4_set(20, 30, 40, 50));
    const float after[12] = {1, 20, 30, 40, 50, 6, 7, 8, -1, -2, -3, -4};
    for (int i = 0; i < 12; ++i)
        assert_true(buf[i] == after[i]);
    assert_true(sw__v4_lane0(sw__v4_set(9, 8, 7, 6)) == 9.0f);
}

static void test_arithmetic(void** state) {
    (void)state;
    uint32_t s = 11;
    for (int it = 0; it < N_RANDOM; ++it) {
        float a[4], b[4], c[4], e[4];
        fill(&s, a);
        fill(&s, b);
        fill(&s, c);
        for (int i = 0; i < 4; ++i)
            if (b[i] == 0.0f) b[i] = 0.25f; /* keep div finite */
        sw__v4 va = sw__v4_loadu(a), vb = sw__v4_loadu(b), vc = sw__v4_loadu(c);
        for (int i = 0; i < 4; ++i)
            e[i] = a[i] + b[i];
        assert_bits(sw__v4_add(va, vb), e, "add");
        for (int i = 0; i < 4; ++i)
            e[i] = a[i] - b[i];
        assert_bits(sw__v4_sub(va, vb), e, "sub");
        for (int i = 0; i < 4; ++i)
            e[i] = a[i] * b[i];
        assert_bits(sw__v4_mul(va, vb), e, "mul");
        for (int i = 0; i < 4; ++i)
            e[i] = a[i] / b[i];
        assert_bits(sw__v4_div(va, vb), e, "div");
        for (int i = 0; i < 4; ++i)
            e[i] = a[i] < b[i] ? a[i] : b[i];
        float m[4];
        to_array(sw__v4_min(va, vb), m);
        for (int i = 0; i < 4; ++i)
            assert_true(m[i] == e[i]);
        for (int i = 0; i < 4; ++i)
            e[i] = a[i] > b[i] ? a[i] : b[i];
        to_array(sw__v4_max(va, vb), m);
        for (int i = 0; i < 4; ++i)
            assert_true(m[i] == e[i]);
        for (int i = 0; i < 4; ++i)
            e[i] = float_of(bits_of(a[i]) ^ 0x80000000u);
        assert_bits(sw__v4_neg(va), e, "neg");
        for (int i = 0; i < 4; ++i)
            e[i] = float_of(bits_of(a[i]) & 0x7FFFFFFFu);
        assert_bits(sw__v4_abs(va), e, "abs");

        /* madd / nmadd: the fused or the unfused result, lane by lane. */
        float r[4];
        to_array(sw__v4_madd(va, vb, vc), r);
        for (int i = 0; i < 4; ++i) {
            float fused = fmaf(a[i], b[i], c[i]);
            float plain = a[i] * b[i] + c[i];
            if (bits_of(r[i]) != bits_of(fused) && bits_of(r[i]) != bits_of(plain))
                fail_msg("madd lane %d: %.9g, expected %.9g or %.9g", i, r[i], fused, plain);
        }
        to_array(sw__v4_nmadd(va, vb, vc), r);
        for (int i = 0; i < 4; ++i) {
            float fused = fmaf(-a[i], b[i], c[i]);
            float plain = c[i] - a[i] * b[i];
            if (bits_of(r[i]) != bits_of(fused) && bits_of(r[i]) != bits_of(plain))
                fail_msg("nmadd lane %d: %.9g, expected %.9g or %.9g", i, r[i], fused, plain);
        }
    }
}

static void test_sqrt_rsqrt(void** state) {
    (void)state;
    uint32_t s = 12;
    double worst = 0.0;
    for (int it = 0; it < N_RANDOM * 4; ++it) {
        float a[4], e[4], r[4];
        for (int i = 0; i < 4; ++i)
            a[i] = fabsf(value(&s));
        for (int i = 0; i < 4; ++i)
            if (a[i] < 1e-30f) a[i] = 1e-30f;
        /* Exact powers and squares too. */
        if (it < 64) a[it & 3] = ldexpf(1.0f, it - 32);
        sw__v4 va = sw__v4_loadu(a);
        for (int i = 0; i < 4; ++i)
            e[i] = sqrtf(a[i]);
        assert_bits(sw__v4_sqrt(va), e, "sqrt");
        to_array(sw__v4_rsqrt(va), r);
        for (int i = 0; i < 4; ++i) {
            double ref = 1.0 / sqrt((double)a[i]);
            double rel = fabs((double)r[i] - ref) / ref;
            if (rel > worst) worst = rel;
            if (!(rel <= 2e-7)) fail_msg("rsqrt(%.9g) = %.9g, rel error %.3g", a[i], r[i], rel);
        }
    }
    print_message("rsqrt worst relative error %.3g (limit 2e-7)\n", worst);
}

static void test_compare_select(void** state) {
    (void)state;
    uint32_t s = 13;
    for (int it = 0; it < N_RANDOM; ++it) {
        float a[4], b[4];
        fill(&s, a);
        fill(&s, b);
        /* Equal lanes, signed zeros and NaN lanes. */
        b[1] = (it & 1) ? a[1] : b[1];
        if ((it & 7) == 3) a[2] = NAN;
        if ((it & 7) == 5) {
            a[3] = 0.0f;
            b[3] = -0.0f;
        }
        sw__v4 va = sw__v4_loadu(a), vb = sw__v4_loadu(b);
        uint32_t got[4];
        struct {
            sw__m4 m;
            int op;
        } cases[5] = {{sw__v4_cmplt(va, vb), 0},
                      {sw__v4_cmple(va, vb), 1},
                      {sw__v4_cmpgt(va, vb), 2},
                      {sw__v4_cmpge(va, vb), 3},
                      {sw__v4_cmpeq(va, vb), 4}};
        for (int c = 0; c < 5; ++c) {
            mask_to_array(cases[c].m, got);
            int bits = 0;
            for (int i = 0; i < 4; ++i) {
                bool e = cases[c].op == 0   ? a[i] < b[i]
                         : cases[c].op == 1 ? a[i] <= b[i]
                         : cases[c].op == 2 ? a[i] > b[i]
                         : cases[c].op == 3 ? a[i] >= b[i]
                                            : a[i] == b[i];
                assert_int_equal(got[i], e ? 0xFFFFFFFFu : 0u);
                bits |= e ? 1 << i : 0;
            }
            assert_int_equal(sw__m4_bits(cases[c].m), bits);
        }
        /* select, negate_where, mask logic against the lane booleans. */
        sw__m4 lt = sw__v4_cmplt(va, vb), gt = sw__v4_cmpgt(va, vb);
        float sel[4], neg[4], e[4];
        to_array(sw__v4_select(lt, va, vb), sel);
        to_array(sw__v4_negate_where(lt, va), neg);
        for (int i = 0; i < 4; ++i) {
            e[i] = a[i] < b[i] ? a[i] : b[i];
            assert_int_equal(bits_of(sel[i]), bits_of(e[i]));
            uint32_t ne = bits_of(a[i]) ^ (a[i] < b[i] ? 0x80000000u : 0u);
            assert_int_equal(bits_of(neg[i]), ne);
        }
        int lb = sw__m4_bits(lt), gb = sw__m4_bits(gt);
        assert_int_equal(sw__m4_bits(sw__m4_and(lt, gt)), lb & gb);
        assert_int_equal(sw__m4_bits(sw__m4_or(lt, gt)), lb | gb);
        assert_int_equal(sw__m4_bits(sw__m4_andnot(lt, gt)), lb & ~gb);
        assert_int_equal(sw__m4_bits(sw__m4_andnot(sw__m4_or(lt, gt), lt)), gb & ~lb);
    }
}

static void test_sign_ops(void** state) {
    (void)state;
    uint32_t s = 14;
    for (int it = 0; it < N_RANDOM; ++it) {
        float a[4], b[4], e[4];
        fill(&s, a);
        fill(&s, b);
        if (it == 0) {
            a[0] = 0.0f;
            a[1] = -0.0f;
            b[2] = -0.0f;
            b[3] = 0.0f;
        }
        sw__v4 va = sw__v4_loadu(a), vb = sw__v4_loadu(b);
        for (int i = 0; i < 4; ++i)
            e[i] = (bits_of(a[i]) >> 31) ? -1.0f : 1.0f;
        assert_bits(sw__v4_sign_of(va), e, "sign_of");
        for (int i = 0; i < 4; ++i)
            e[i] = float_of(bits_of(a[i]) ^ (bits_of(b[i]) & 0x80000000u));
        assert_bits(sw__v4_xor_sign(va, vb), e, "xor_sign");
    }
}

static void test_lanes_transpose(void** state) {
    (void)state;
    sw__v4 v = sw__v4_set(1, 2, 3, 4);
    const float s0[4] = {1, 1, 1, 1}, s1[4] = {2, 2, 2, 2}, s2[4] = {3, 3, 3, 3},
                s3[4] = {4, 4, 4, 4};
    assert_bits(sw__v4_splat0(v), s0, "splat0");
    assert_bits(sw__v4_splat1(v), s1, "splat1");
    assert_bits(sw__v4_splat2(v), s2, "splat2");
    assert_bits(sw__v4_splat3(v), s3, "splat3");
    const float yzx[4] = {2, 3, 1, 4};
    assert_bits(sw__v4_yzx(v), yzx, "yzx");
    const float wzyx[4] = {4, 3, 2, 1}, zwxy[4] = {3, 4, 1, 2}, yxwz[4] = {2, 1, 4, 3};
    assert_bits(sw__v4_wzyx(v), wzyx, "wzyx");
    assert_bits(sw__v4_zwxy(v), zwxy, "zwxy");
    assert_bits(sw__v4_yxwz(v), yxwz, "yxwz");
    const float xyz_w[4] = {1, 2, 3, 8};
    assert_bits(sw__v4_xyz_w(v, sw__v4_set(5, 6, 7, 8)), xyz_w, "xyz_w");
    sw__v4 r0 = sw__v4_set(0, 1, 2, 3), r1 = sw__v4_set(4, 5, 6, 7);
    sw__v4 r2 = sw__v4_set(8, 9, 10, 11), r3 = sw__v4_set(12, 13, 14, 15);
    SW__V4_TRANSPOSE(r0, r1, r2, r3);
    const float c0[4] = {0, 4, 8, 12}, c1[4] = {1, 5, 9, 13}, c2[4] = {2, 6, 10, 14},
                c3[4] = {3, 7, 11, 15};
    assert_bits(r0, c0, "transpose row 0");
    assert_bits(r1, c1, "transpose row 1");
    assert_bits(r2, c2, "transpose row 2");
    assert_bits(r3, c3, "transpose row 3");
}

static void test_floor(void** state) {
    (void)state;
    uint32_t s = 15;
    static const float edges[] = {0.0f,      -0.5f,      0.5f,        -1.0f,       1.0f,   -1.5f,
                                  2.999999f, -2.999999f, 8388607.5f,  -8388607.5f, 1e-30f, -1e-30f,
                                  123456.0f, -123456.0f, 0.99999994f, -0.99999994f};
    for (int it = 0; it < N_RANDOM + 4; ++it) {
        float a[4], r[4];
        for (int i = 0; i < 4; ++i)
            a[i] = it < 4 ? edges[it * 4 + i]
                          : sw_test_rand(&s, -8388600.0f, 8388600.0f) / (float)(1 << (it % 23));
        to_array(sw__v4_floor(sw__v4_loadu(a)), r);
        for (int i = 0; i < 4; ++i) {
            if (!(r[i] == floorf(a[i])))
                fail_msg("floor(%.9g) = %.9g, expected %.9g", a[i], r[i], floorf(a[i]));
        }
    }
}

/* sw__fp_flush_begin: on x86 a product below FLT_MIN is 0 and a subnormal
 * operand reads as 0 until sw__fp_flush_end, which gives back IEEE results
 * (elsewhere both stay IEEE); a mode already flushing stays so. */
static void test_fp_flush(void** state) {
    (void)state;
    volatile float tiny = 1e-20f, sub = 1e-40f; /* read at run time: no folding */
    const float want = 1e-20f * 1e-20f;         /* subnormal, IEEE */
    float r[4];
#if defined(__SSE2__)
    const float flushed = 0.0f;
#else
    const float flushed = want;
#endif
    for (int nested = 0; nested < 2; ++nested) {
        const sw__fp_mode outer = sw__fp_flush_begin();
        const sw__fp_mode mode = nested ? sw__fp_flush_begin() : outer;
        to_array(sw__v4_mul(sw__v4_set1(tiny), sw__v4_set1(tiny)), r);
        assert_true(bits_of(r[0]) == bits_of(flushed));
        to_array(sw__v4_add(sw__v4_set1(sub), sw__v4_zero()), r);
        assert_true(bits_of(r[0]) == bits_of(flushed == 0.0f ? 0.0f : 1e-40f));
        if (nested) {
            sw__fp_flush_end(mode); /* inner end: still flushing */
            to_array(sw__v4_mul(sw__v4_set1(tiny), sw__v4_set1(tiny)), r);
            assert_true(bits_of(r[0]) == bits_of(flushed));
        }
        sw__fp_flush_end(outer);
        to_array(sw__v4_mul(sw__v4_set1(tiny), sw__v4_set1(tiny)), r);
        assert_true(bits_of(r[0]) == bits_of(want));
    }
}

#endif

#if !SW__SIMD4_AVAILABLE
static void test_isa(void** state) {
    (void)state;
    print_message("skipped: no SIMD path compiled in (SINEW_NO_SIMD or unknown target)\n");
    skip();
}
#endif

int main(void) {
#if SW__SIMD4_AVAILABLE && defined(__x86_64__)
#if defined(__AVX2__)
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        printf("skipped: CPU lacks AVX2/FMA for %s\n", SW__SIMD4_NAME);
        return 0;
    }
#elif defined(__SSE4_1__)
    if (!__builtin_cpu_supports("sse4.1")) {
        printf("skipped: CPU lacks SSE4.1 for %s\n", SW__SIMD4_NAME);
        return 0;
    }
#endif
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isa),
#if SW__SIMD4_AVAILABLE
        cmocka_unit_test(test_load_store_set),
        cmocka_unit_test(test_arithmetic),
        cmocka_unit_test(test_sqrt_rsqrt),
        cmocka_unit_test(test_compare_select),
        cmocka_unit_test(test_sign_ops),
        cmocka_unit_test(test_lanes_transpose),
        cmocka_unit_test(test_floor),
        cmocka_unit_test(test_fp_flush),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
