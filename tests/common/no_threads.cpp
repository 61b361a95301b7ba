/* The guard of the tests that the ThreadSanitizer run leaves out (ade_add_qtest ... NO_THREADS,
 * tests/CMakeLists.txt): loaded with LD_PRELOAD into such a test in the normal build, it stops
 * the test (exit status 86, naming the thread's start routine) as soon as the test, or a program
 * it starts, creates a thread other than Qt Test's own watchdog. So a test that begins to run
 * threads cannot silently stay out of the TSan run: it fails until NO_THREADS is taken off. */
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

using create_fn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*),
                              void* arg) noexcept {
    static create_fn real;
    static int watchdog_seen;
    if (!real) real = reinterpret_cast<create_fn>(dlsym(RTLD_NEXT, "pthread_create"));
    Dl_info where;
    const int found = dladdr(reinterpret_cast<void*>(start), &where);
    const char* lib = found && where.dli_fname ? where.dli_fname : "?";
    /* Qt Test's watchdog: the first QThread (its start routine is QtCore's) of a process that
     * has Qt Test loaded; it starts before the first test function. */
    if (!watchdog_seen && std::strstr(lib, "libQt6Core") &&
        dlopen("libQt6Test.so.6", RTLD_NOLOAD | RTLD_LAZY)) {
        watchdog_seen = 1;
        return real(thread, attr, start, arg);
    }
    char msg[512];
    const int len =
        std::snprintf(msg, sizeof msg,
                      "no_threads: a NO_THREADS test (or a program it started) created a "
                      "thread (start routine %s in %s): take NO_THREADS off it in tests/ "
                      "so that the ThreadSanitizer run checks it\n",
                      found && where.dli_sname ? where.dli_sname : "?", lib);
    if (write(2, msg, static_cast<size_t>(len > 0 ? len : 0)) < 0) {
        // nothing more can be said
    }
    _exit(86);
}
