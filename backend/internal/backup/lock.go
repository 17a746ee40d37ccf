package backup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// LockFile is the advisory lock file in the data directory. A serving panel
// holds a shared lock on it; restore takes it exclusively, so it refuses to
// run under a live panel and a panel cannot start in the middle of a restore.
const LockFile = "gatehouse.lock"

// ErrRunning means a panel is serving the data directory.
var ErrRunning = errors.New("a Gatehouse panel is running on this data directory")

// Lock is a held lock; Release drops it.
type Lock struct{ f *os.File }

// LockShared takes the serving panel's shared lock; it fails at once while
// a restore holds the lock.
func LockShared(dataDir string) (*Lock, error) {
	return lock(dataDir, unix.LOCK_SH, "a restore is running on this data directory; start the panel when it has finished")
}

// LockExclusive takes the lock restore needs: no panel may be serving.
func LockExclusive(dataDir string) (*Lock, error) {
	return lock(dataDir, unix.LOCK_EX, "")
}

func lock(dataDir string, how int, held string) (*Lock, error) {
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return nil, fmt.Errorf("create data directory %s: %w", dataDir, err)
	}
	path := filepath.Join(dataDir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600) //nolint:gosec // the lock file in the operator's data directory
	if err != nil {
		return nil, fmt.Errorf("open lock file %s: %w", path, err)
	}
	if err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB); err != nil { //nolint:gosec // a file descriptor fits an int
		_ = f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			if how == unix.LOCK_EX {
				return nil, fmt.Errorf("%w (%s is locked); stop it first", ErrRunning, path)
			}
			return nil, fmt.Errorf("%s (%s is locked)", held, path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return &Lock{f: f}, nil
}

// Release drops the lock.
func (l *Lock) Release() {
	if l != nil && l.f != nil {
		_ = l.f.Close() // closing the descriptor releases the flock
	}
}
