package harness

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// SharedTempDir is a temporary directory other users can traverse (mode
// 0755: t.TempDir's parent is 0700), for services that run as non-root
// users. It is removed when the test ends.
func SharedTempDir(t testing.TB, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// BuildGatehouse builds cmd/gatehouse (with the committed SPA placeholder)
// into a directory any user can read, from the backend directory (the e2e
// tests run in backend/e2e); GATEHOUSE_BIN names a binary built already.
func BuildGatehouse(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv("GATEHOUSE_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(SharedTempDir(t, "gatehouse-bin-"), "gatehouse")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/gatehouse")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/gatehouse: %v\n%s", err, out)
	}
	syncFile(t, bin)
	return bin
}

// syncFile writes a file just written out to disk, as an installed binary
// is: the kernel reclaims only clean pages of a file, so a binary run
// seconds after it was built would keep the pages procmem.ReleaseExecutable
// asks it to drop, and the memory figures of a build would not be those
// of an installation.
func syncFile(t testing.TB, file string) {
	t.Helper()
	f, err := os.Open(file) //nolint:gosec // the binary just built
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
}

// GatehouseImage is backend/Dockerfile's runtime stage: the binary as
// ENTRYPOINT, serve as CMD, its ENV, user 10001 owning /data.
func GatehouseImage(bin string) Image {
	return Image{
		Entrypoint: []string{bin},
		Command:    []string{"serve"},
		Env:        map[string]string{"PANEL_LISTEN": "0.0.0.0:8080", "PANEL_DATA_DIR": "/data"},
		User:       "10001:10001",
		Prepare: func(t testing.TB, c *Container) {
			// A new named volume starts as the image's /data: 10001, 0700.
			if dir := c.HostPath("/data"); dir != "/data" {
				if err := os.Chown(dir, 10001, 10001); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(dir, 0o700); err != nil {
					t.Fatal(err)
				}
			}
		},
	}
}

// TraefikImage is the official traefik image: root, `traefik` on PATH. The
// `traefik` there is a small script in front of bin that maps the container
// paths in the configuration file it is given (an ACME storage under a
// volume, a file provider under a tmpfs) to this host's directories, since
// Traefik runs without a mount namespace of its own here.
func TraefikImage(bin string) Image {
	img := Image{}
	img.Prepare = func(t testing.TB, c *Container) {
		t.Helper()
		dir := filepath.Join(SharedTempDir(t, "gatehouse-traefik-"), "bin")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		var sed []string
		targets := make([]string, 0, len(c.Paths))
		for target := range c.Paths {
			targets = append(targets, target)
		}
		// Longest first, so /run/gatehouse wins over /run.
		slices.SortFunc(targets, func(a, b string) int { return len(b) - len(a) })
		for _, target := range targets {
			sed = append(sed, fmt.Sprintf(`-e 's#\([ "'"'"']\)%s\([/"'"'"' ]\|$\)#\1%s\2#g'`, target, c.Paths[target]))
		}
		script := fmt.Sprintf(`#!/bin/sh
for a; do
	case $a in --configFile=*)
		conf=${a#--configFile=}
		host=${conf%%.*}.host.${conf##*.}
		sed %s "$conf" >"$host" || exit 1
		exec %s --configFile="$host"
		;;
	esac
done
exec %s "$@"
`, strings.Join(sed, " "), bin, bin)
		if err := os.WriteFile(filepath.Join(dir, "traefik"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		c.Image.Env = map[string]string{"PATH": dir + ":" + os.Getenv("PATH")}
	}
	return img
}

// PostgresImage is the official postgres:15 image, with Debian's
// PostgreSQL 15: on an empty PGDATA (default /var/lib/postgresql/data) it
// runs initdb with POSTGRES_USER and POSTGRES_PASSWORD, creates POSTGRES_DB
// (default: the user's name), accepts password (scram) connections from
// every address, listens on all addresses and keeps its socket in
// /var/run/postgresql, as the image's entrypoint does. The server runs as
// the postgres user.
func PostgresImage(binDir string) Image {
	img := Image{
		StopSignal: syscall.SIGINT, // the image's STOPSIGNAL: a fast shutdown
		Env: map[string]string{
			"PGDATA": "/var/lib/postgresql/data", "PGHOST": "/var/run/postgresql",
			"PATH": binDir + ":" + os.Getenv("PATH"),
		},
	}
	img.Prepare = func(t testing.TB, c *Container) {
		t.Helper()
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skipf("no postgres user (apt-get install postgresql): %v", err)
		}
		uid, gid := u.Uid, u.Gid
		c.Image.User = uid + ":" + gid
		own := func(dir string, mode os.FileMode) {
			if err := os.MkdirAll(dir, mode); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("chown", "-R", uid+":"+gid, dir).CombinedOutput(); err != nil {
				t.Fatalf("chown %s: %v %s", dir, err, out)
			}
			if err := os.Chmod(dir, mode); err != nil {
				t.Fatal(err)
			}
		}
		if _, ok := c.Paths["/var/run/postgresql"]; !ok {
			c.Paths["/var/run/postgresql"] = filepath.Join(SharedTempDir(t, "gatehouse-pgrun-"), "run")
		}
		own(c.Paths["/var/run/postgresql"], 0o2775)
		env := func(k, def string) string {
			if v := c.Config.Environment[k]; v != nil && *v != "" {
				return *v
			}
			return def
		}
		pgdata := c.HostPath(env("PGDATA", img.Env["PGDATA"]))
		if pgdata == env("PGDATA", img.Env["PGDATA"]) {
			// No volume on PGDATA: the container's own layer.
			pgdata = filepath.Join(SharedTempDir(t, "gatehouse-pgdata-"), "data")
			c.Paths[env("PGDATA", img.Env["PGDATA"])] = pgdata
		}
		own(pgdata, 0o700)
		pgUser := env("POSTGRES_USER", "postgres")
		db := env("POSTGRES_DB", pgUser)
		if _, err := os.Stat(filepath.Join(pgdata, "PG_VERSION")); err != nil {
			pw := filepath.Join(SharedTempDir(t, "gatehouse-pginit-"), "pwfile")
			if err := os.WriteFile(pw, []byte(env("POSTGRES_PASSWORD", "")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("chown", uid+":"+gid, pw).CombinedOutput(); err != nil {
				t.Fatalf("chown %s: %v %s", pw, err, out)
			}
			asPostgres := func(stdin string, argv ...string) {
				cmd := exec.Command("setpriv", append([]string{"--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--"}, argv...)...)
				cmd.Stdin = strings.NewReader(stdin)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
				}
			}
			asPostgres("", filepath.Join(binDir, "initdb"), "-D", pgdata, "-U", pgUser, "--pwfile="+pw,
				"--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync")
			_ = os.Remove(pw)
			hba, err := os.OpenFile(filepath.Join(pgdata, "pg_hba.conf"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			_, err = hba.WriteString("host all all all scram-sha-256\n")
			_ = hba.Close()
			if err != nil {
				t.Fatal(err)
			}
			if db != "postgres" {
				asPostgres(fmt.Sprintf("CREATE DATABASE %q;\n", db),
					filepath.Join(binDir, "postgres"), "--single", "-D", pgdata, "-j", "postgres")
			}
		}
		// fsync off: the data is a test's (the image keeps it on).
		c.Image.Entrypoint = []string{filepath.Join(binDir, "postgres"), "-D", pgdata,
			"-c", "listen_addresses=*", "-c", "unix_socket_directories=" + c.Paths["/var/run/postgresql"],
			"-c", "fsync=off", "-c", "synchronous_commit=off"}
	}
	return img
}
