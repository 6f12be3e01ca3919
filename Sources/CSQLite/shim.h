#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// Turns off SQLite's memory statistics, which take a global mutex on every allocation. Must run
// before the library initializes; SQLite's config call is variadic, which Swift cannot call.
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

// SQLITE_STATIC: the bound bytes stay valid until the statement is stepped and reset.
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

// Binds the empty text (not NULL, which a null pointer would bind).
static inline int csqlite_bind_empty_text(sqlite3_stmt *s, int i) { return sqlite3_bind_text(s, i, "", 0, SQLITE_STATIC); }
