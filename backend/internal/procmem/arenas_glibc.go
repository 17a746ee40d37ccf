//go:build linux && cgo

package procmem

/*
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

// gh_limit_arenas caps glibc's malloc arenas at load time, before the Go
// runtime starts its threads: glibc fixes the cap when a second thread
// first allocates, so a call from main would come too late. A cap the
// operator set (MALLOC_ARENA_MAX, or glibc.malloc.arena_max in
// GLIBC_TUNABLES) is kept. Other C libraries (musl has one arena anyway)
// have no M_ARENA_MAX.
__attribute__((constructor)) static void gh_limit_arenas(void) {
#ifdef M_ARENA_MAX
	const char *t = getenv("GLIBC_TUNABLES");
	if (getenv("MALLOC_ARENA_MAX") != NULL || (t != NULL && strstr(t, "arena_max") != NULL))
		return;
	mallopt(M_ARENA_MAX, 1); // MallocArenas
#endif
}

static int gh_arenas_limited(void) {
#ifdef M_ARENA_MAX
	return 1;
#else
	return 0;
#endif
}
*/
import "C"

// MallocArenasLimited reports whether the C allocator's arenas were capped
// at MallocArenas when the process started (glibc's M_ARENA_MAX; the
// constructor above keeps a cap the operator set in the environment).
func MallocArenasLimited() bool { return C.gh_arenas_limited() == 1 }
