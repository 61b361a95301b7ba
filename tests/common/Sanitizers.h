// Test functions that create no thread and only compute: ThreadSanitizer, which looks for races
// between threads, can find nothing in them and runs them 5 to 15 times slower, so its tree skips
// them (with the reason in the log); the Release and ASan + UBSan trees run them. The README's
// testing section lists them (issue 27).
#pragma once
#include <QtTest>

#if defined(__SANITIZE_THREAD__)
#define ADE_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ADE_UNDER_TSAN 1
#endif
#endif

#ifdef ADE_UNDER_TSAN
#define ADE_SKIP_UNDER_TSAN(why) QSKIP("single-threaded, not run under ThreadSanitizer: " why)
#else
#define ADE_SKIP_UNDER_TSAN(why) \
    do {                         \
    } while (0)
#endif
