#include <unistd.h>

// A new process from inside a signal handler. glibc's fork() takes malloc's locks and runs
// the atfork handlers: when the signal lands while the interrupted thread holds one of those
// locks, the handler waits for it forever. glibc's _Fork() (2.34 on) does neither and is
// async-signal-safe; Swift's Glibc module does not declare it (it is a GNU extension), hence
// this header. Elsewhere, fork().
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
extern pid_t _Fork(void);
static inline pid_t csignalsafe_fork(void) { return _Fork(); }
#else
static inline pid_t csignalsafe_fork(void) { return fork(); }
#endif
