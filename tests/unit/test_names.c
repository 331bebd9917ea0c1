/* The "not found" report of lookups by name (tools/readers/names.h): the
 * edit distance against textbook values and against a second, recursive
 * implementation of its definition on random short strings; the detail
 * line's order (nearest first, ties in list order), its cut with "..." when
 * the names do not fit, and an empty list. */
#include "test_util.h"

#include "tools/readers/names.h"

/* Levenshtein distance by its recursive definition (ASCII case ignored). */
static uint32_t distance_by_definition(const char* a, const char* b) {
    if (!*a) return (uint32_t)strlen(b);
    if (!*b) return (uint32_t)strlen(a);
    const uint32_t same = (a[0] | 0x20) == (b[0] | 0x20) ? 0u : 1u;
    uint32_t best = distance_by_definition(a + 1, b + 1) + same;
    const uint32_t del = distance_by_definition(a + 1, b) + 1u;
    const uint32_t ins = distance_by_definition(a, b + 1) + 1u;
    if (del < best) best = del;
    if (ins < best) best = ins;
    return best;
}

static void test_distance(void** state) {
    (void)state;
    assert_int_equal(sw__name_distance("kitten", "sitting"), 3);
    assert_int_equal(sw__name_distance("flaw", "lawn"), 2);
    assert_int_equal(sw__name_distance("", "abc"), 3);
    assert_int_equal(sw__name_distance("IDLE", "idle"), 0);
    assert_int_equal(sw__name_distance("Runing", "Running"), 1);
    /* letters only, so that (c | 0x20) is the case-folding of both */
    srand(17);
    for (int k = 0; k < 300; ++k) {
        char a[8], b[8];
        const int na = rand() % 7, nb = rand() % 7;
        for (int i = 0; i < na; ++i)
            a[i] = "aAbBc"[rand() % 5];
        for (int i = 0; i < nb; ++i)
            b[i] = "aAbBc"[rand() % 5];
        a[na] = '\0';
        b[nb] = '\0';
        assert_int_equal(sw__name_distance(a, b), distance_by_definition(a, b));
    }
}

static const char* list_at(void* user, uint32_t i) {
    return ((const char* const*)user)[i];
}

static void test_detail(void** state) {
    (void)state;
    const char* clips[] = {"Idle", "Walking", "Running", "Run"};
    sw_error err = SW_ERROR_INIT;
    /* distances to "Runing": Idle 6, Walking 4, Running 1, Run 3 */
    assert_int_equal(
        sw__fail_name(&err, "requested clip exists", 1, "clip", "Runing", list_at, (void*)clips, 4),
        SW_RESULT_NOT_FOUND);
    assert_int_equal(err.result, SW_RESULT_NOT_FOUND);
    assert_string_equal(err.check, "requested clip exists");
    assert_int_equal(err.index, 1);
    assert_int_equal(err.sys_errno, 0);
    assert_string_equal(err.detail, "clip \"Runing\" not in the file; clips, nearest first: "
                                    "Running, Run, Walking, Idle");
    /* ties (all at distance 1) keep the list's order */
    const char* tied[] = {"ab", "ba", "aa"};
    sw__fail_name(&err, "c", -1, "joint", "a", list_at, (void*)tied, 3);
    assert_string_equal(err.detail,
                        "joint \"a\" not in the file; joints, nearest first: ab, ba, aa");
    sw__fail_name(&err, "c", -1, "clip", "x", list_at, NULL, 0);
    assert_string_equal(err.detail, "clip \"x\" not in the file, which has none");
    /* more names than fit: as many as fit, then "..." */
    char names[40][16];
    const char* many[40];
    for (int i = 0; i < 40; ++i) {
        snprintf(names[i], sizeof names[i], "clip_number_%02d", i);
        many[i] = names[i];
    }
    sw__fail_name(&err, "c", -1, "clip", "clip_number_00", list_at, (void*)many, 40);
    const size_t len = strlen(err.detail);
    assert_true(len < sizeof err.detail);
    assert_string_equal(err.detail + len - 5, ", ...");
    assert_non_null(strstr(err.detail, "nearest first: clip_number_00, clip_number_01, "));
    assert_null(strstr(err.detail, "clip_number_39"));
    /* NULL err: the result alone */
    assert_int_equal(sw__fail_name(NULL, "c", -1, "clip", "x", list_at, (void*)clips, 4),
                     SW_RESULT_NOT_FOUND);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_detail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
