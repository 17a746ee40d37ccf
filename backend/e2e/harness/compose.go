package harness

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// LoadCompose reads a compose file as `docker compose --env-file envFile`
// does from workDir (the project directory), without the process's own
// environment so the result does not depend on who runs the test.
func LoadCompose(t testing.TB, file, workDir, envFile string) *types.Project {
	t.Helper()
	opts, err := cli.NewProjectOptions([]string{file},
		cli.WithWorkingDirectory(workDir), cli.WithEnvFiles(envFile), cli.WithDotEnv)
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("load %s: %v", file, err)
	}
	return p
}

// Image is what a compose service's image would run, emulated on this host:
// Docker is not needed, the binaries are.
type Image struct {
	Entrypoint []string          // the image's ENTRYPOINT (host paths)
	Command    []string          // the image's CMD
	Env        map[string]string // the image's ENV, under the service's environment
	User       string            // "uid:gid" the image runs as; "" is root
	StopSignal syscall.Signal    // STOPSIGNAL; 0 is SIGTERM
	// Prepare runs once before the first start: initialise volumes as the
	// image's entrypoint would (initdb, ownership).
	Prepare func(t testing.TB, c *Container)
}

// ImageFor picks the emulation of a service's image; ok false fails the test.
type ImageFor func(t testing.TB, svc types.ServiceConfig) (img Image, ok bool)

// Container is one compose service: its network namespace and address, its
// volumes and tmpfs as directories, and its main process.
type Container struct {
	Name   string
	NS     string
	Addr   string
	Config types.ServiceConfig
	Image  Image
	Paths  map[string]string      // container path -> host path (volumes, binds, tmpfs)
	Out    *testutil.LockedBuffer // the process's output, over every start

	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// Deployment is a compose project brought up without Docker (see
// StartCompose).
type Deployment struct {
	Project    *types.Project
	Outside    *Outside
	Gateway    string // the Docker host's address on the compose network
	Containers map[string]*Container
	Order      []string // start order (dependencies first)
}

// StartCompose brings the project up as `docker compose up` would: a network
// namespace per service on a bridge, service names in each namespace's
// /etc/hosts, named volumes and tmpfs as directories, bind mounts as their
// sources, published ports on the host's address facing Outside (and only
// there), and each service started once its depends_on conditions hold
// (service_healthy runs the service's healthcheck command in its namespace).
// Container paths in argv and environment values become the host
// directories. Everything is torn down when the test ends.
func StartCompose(t testing.TB, p *types.Project, images ImageFor) *Deployment {
	t.Helper()
	began := time.Now()
	n := newComposeNet(t)
	d := &Deployment{Project: p, Outside: StartOutside(t), Gateway: n.Gateway, Containers: map[string]*Container{}}
	volumes := SharedTempDir(t, "gatehouse-compose-")
	names := map[string]string{}
	var nss []string
	for _, name := range p.ServiceNames() {
		svc := p.Services[name]
		img, ok := images(t, svc)
		if !ok {
			t.Fatalf("service %s: no emulation of image %q", name, svc.Image)
		}
		c := &Container{Name: name, Config: svc, Image: img, Paths: map[string]string{}, Out: &testutil.LockedBuffer{}}
		c.NS, c.Addr = n.addNamespace(t, name)
		names[name] = c.Addr
		for _, a := range svc.Networks {
			if a != nil {
				for _, alias := range a.Aliases {
					names[alias] = c.Addr
				}
			}
		}
		nss = append(nss, c.NS)
		c.mount(t, volumes)
		d.Containers[name] = c
	}
	d.Order = startOrder(t, p)
	// As `docker compose down`: dependents stop first (the panels before
	// their database), then the namespaces go.
	t.Cleanup(func() {
		for i := len(d.Order) - 1; i >= 0; i-- {
			d.Containers[d.Order[i]].Stop()
		}
		if t.Failed() || testing.Verbose() {
			for _, name := range d.Order {
				t.Logf("service %s output:\n%s", name, d.Containers[name].Out.String())
			}
		}
	})
	writeHosts(t, names, nss)
	for _, name := range p.ServiceNames() {
		c := d.Containers[name]
		for _, port := range c.Config.Ports {
			if port.Published == "" || (port.Protocol != "" && port.Protocol != "tcp") {
				continue
			}
			if port.HostIP != "" && port.HostIP != "0.0.0.0" {
				continue // 127.0.0.1:...: the host's loopback, never the outside
			}
			publish(t, net.JoinHostPort(d.Outside.HostAddr, port.Published),
				net.JoinHostPort(c.Addr, strconv.FormatUint(uint64(port.Target), 10)))
		}
	}
	for _, name := range d.Order {
		c := d.Containers[name]
		for dep, cond := range c.Config.DependsOn {
			d.Containers[dep].waitFor(t, cond.Condition)
		}
		if c.Image.Prepare != nil {
			c.Image.Prepare(t, c)
		}
		c.Start(t)
		t.Logf("started %s at %s (%s)", name, c.Addr, time.Since(began).Round(100*time.Millisecond))
	}
	return d
}

// mount gives each volume, bind mount and tmpfs of the service a host path.
func (c *Container) mount(t testing.TB, volumes string) {
	t.Helper()
	for _, v := range c.Config.Volumes {
		switch v.Type {
		case types.VolumeTypeBind:
			c.Paths[v.Target] = v.Source
		case types.VolumeTypeVolume:
			// Named volumes are shared by the services that mount them.
			dir := filepath.Join(volumes, "volume-"+v.Source)
			if v.Source == "" {
				dir = filepath.Join(volumes, "anon-"+c.Name+strings.ReplaceAll(v.Target, "/", "_"))
			}
			c.Paths[v.Target] = mkdir(t, dir, 0o755)
		case types.VolumeTypeTmpfs:
			c.Paths[v.Target] = mkdir(t, filepath.Join(volumes, "tmpfs-"+c.Name+strings.ReplaceAll(v.Target, "/", "_")), 0o700)
		}
	}
	for _, spec := range c.Config.Tmpfs {
		target, opts, _ := strings.Cut(spec, ":")
		mode := os.FileMode(0o1777)
		for _, o := range strings.Split(opts, ",") {
			if m, ok := strings.CutPrefix(o, "mode="); ok {
				if n, err := strconv.ParseUint(m, 8, 32); err == nil {
					mode = os.FileMode(n)
				}
			}
		}
		c.Paths[target] = mkdir(t, filepath.Join(volumes, "tmpfs-"+c.Name+strings.ReplaceAll(target, "/", "_")), mode)
	}
}

func mkdir(t testing.TB, dir string, mode os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
	return dir
}

// HostPath maps a container path to this host: the longest volume, bind or
// tmpfs target it lies under is replaced by its directory. Other paths are
// unchanged.
func (c *Container) HostPath(p string) string {
	best := ""
	for target := range c.Paths {
		if (p == target || strings.HasPrefix(p, strings.TrimSuffix(target, "/")+"/")) && len(target) > len(best) {
			best = target
		}
	}
	if best == "" {
		return p
	}
	return c.Paths[best] + strings.TrimPrefix(p, best)
}

// Env is the process environment: the image's ENV, then the service's
// environment, with values that are container paths mapped to the host.
func (c *Container) Env() []string {
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOSTNAME": c.Name}
	for k, v := range c.Image.Env {
		vars[k] = v
	}
	for k, v := range c.Config.Environment {
		if v != nil {
			vars[k] = *v
		}
	}
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		if k != "PATH" && strings.HasPrefix(v, "/") {
			v = c.HostPath(v)
		}
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// Argv is what the container runs: entrypoint and command (the service's
// override the image's, as Docker does), container paths mapped, also as
// the value of a --flag=/path argument.
func (c *Container) Argv() []string {
	entry, cmd := c.Image.Entrypoint, c.Image.Command
	if c.Config.Entrypoint != nil {
		entry = c.Config.Entrypoint
		cmd = nil // Docker drops the image's CMD when the entrypoint changes
	}
	if c.Config.Command != nil {
		cmd = c.Config.Command
	}
	var out []string
	for _, a := range append(slices.Clone(entry), cmd...) {
		if strings.HasPrefix(a, "/") {
			a = c.HostPath(a)
		} else if flag, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(flag, "-") && strings.HasPrefix(v, "/") {
			a = flag + "=" + c.HostPath(v) // --configFile=/etc/traefik/traefik.yml
		}
		out = append(out, a)
	}
	return out
}

// Exec runs argv in the service's namespace with its environment and user,
// as `docker compose exec` does, and returns the combined output.
func (c *Container) Exec(ctx context.Context, argv ...string) (string, error) {
	cmd := c.command(ctx, argv)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (c *Container) command(ctx context.Context, argv []string) *exec.Cmd {
	args := []string{"netns", "exec", c.NS}
	if c.Image.User != "" {
		uid, gid, _ := strings.Cut(c.Image.User, ":")
		args = append(args, "setpriv", "--reuid="+uid, "--regid="+gid, "--clear-groups", "--")
	}
	cmd := exec.CommandContext(ctx, "ip", append(args, argv...)...)
	cmd.Env = c.Env()
	cmd.Dir = "/"
	return cmd
}

// Start runs the service's main process (again after Stop or Kill).
func (c *Container) Start(t testing.TB) {
	t.Helper()
	argv := c.Argv()
	if len(argv) == 0 {
		t.Fatalf("service %s has nothing to run", c.Name)
	}
	c.cmd = c.command(context.Background(), argv)
	c.cmd.Stdout, c.cmd.Stderr = c.Out, c.Out
	// Its own process group, so a stop reaches its children (Traefik under
	// the wrapper) as a container's end would.
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.done = make(chan struct{})
	_, _ = fmt.Fprintf(c.Out, "--- start %s: %s\n", c.Name, strings.Join(argv, " "))
	if err := c.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", c.Name, err)
	}
	cmd, done := c.cmd, c.done
	go func() { c.err = cmd.Wait(); close(done) }()
}

// PID is the main process's id (ip netns exec and setpriv exec it in place).
func (c *Container) PID() int {
	if c.cmd == nil || c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// Running reports whether the main process is alive.
func (c *Container) Running() bool {
	if c.done == nil {
		return false
	}
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}

// Kill ends the container at once (SIGKILL to its process group), as a
// crash or `docker kill` would.
func (c *Container) Kill() { c.signal(syscall.SIGKILL, time.Second) }

// Stop sends the image's stop signal (SIGTERM by default) and waits up to
// ten seconds before SIGKILL, as `docker stop` does (with a shorter grace
// period).
func (c *Container) Stop() {
	sig := c.Image.StopSignal
	if sig == 0 {
		sig = syscall.SIGTERM
	}
	c.signal(sig, 10*time.Second)
}

func (c *Container) signal(sig syscall.Signal, grace time.Duration) {
	if !c.Running() {
		return
	}
	pid := c.cmd.Process.Pid
	_ = syscall.Kill(-pid, sig)
	select {
	case <-c.done:
	case <-time.After(grace):
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-c.done
	}
	// What the main process left behind in its group (a ticker, a Traefik
	// the wrapper did not reap) goes too, as with a container's end.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}

// Healthy runs the service's healthcheck test once in its namespace, as
// Docker does: CMD as an argv, CMD-SHELL through /bin/sh -c.
func (c *Container) Healthy(ctx context.Context) (bool, string) {
	hc := c.Config.HealthCheck
	if hc == nil || hc.Disable || len(hc.Test) == 0 {
		return c.Running(), "no healthcheck"
	}
	timeout := 30 * time.Second
	if hc.Timeout != nil {
		timeout = time.Duration(*hc.Timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var argv []string
	switch hc.Test[0] {
	case "CMD":
		argv = hc.Test[1:]
	case "CMD-SHELL":
		argv = []string{"/bin/sh", "-c", strings.Join(hc.Test[1:], " ")}
	case "NONE":
		return c.Running(), "healthcheck NONE"
	default:
		return false, fmt.Sprintf("healthcheck test %v: want CMD or CMD-SHELL first", hc.Test)
	}
	out, err := c.Exec(ctx, argv...)
	return err == nil, fmt.Sprintf("%v: %v %s", argv, err, out)
}

// waitFor waits until a depends_on condition of this service holds: started,
// healthy (its healthcheck passes, within start_period + retries x interval),
// or completed successfully.
func (c *Container) waitFor(t testing.TB, condition string) {
	t.Helper()
	switch condition {
	case types.ServiceConditionHealthy:
		limit := 60 * time.Second
		if hc := c.Config.HealthCheck; hc != nil && hc.Interval != nil && hc.Retries != nil {
			limit = time.Duration(*hc.Interval) * time.Duration(*hc.Retries)
			if hc.StartPeriod != nil {
				limit += time.Duration(*hc.StartPeriod)
			}
		}
		deadline := time.Now().Add(limit)
		for {
			ok, why := c.Healthy(context.Background())
			if ok {
				return
			}
			if time.Now().After(deadline) || !c.Running() {
				t.Fatalf("service %s did not become healthy within %s (last check: %s)", c.Name, limit, why)
			}
			time.Sleep(200 * time.Millisecond)
		}
	case types.ServiceConditionCompletedSuccessfully:
		Eventually(t, 60*time.Second, func() bool { return !c.Running() && c.err == nil },
			fmt.Sprintf("service %s did not complete successfully", c.Name))
	default:
		if !c.Running() {
			t.Fatalf("service %s is not running", c.Name)
		}
	}
}

// startOrder sorts the services so that each comes after what it depends on.
func startOrder(t testing.TB, p *types.Project) []string {
	t.Helper()
	var order []string
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(name string)
	visit = func(name string) {
		switch state[name] {
		case 1:
			t.Fatalf("depends_on cycle through %s", name)
		case 2:
			return
		}
		state[name] = 1
		deps := make([]string, 0, len(p.Services[name].DependsOn))
		for dep := range p.Services[name].DependsOn {
			deps = append(deps, dep)
		}
		slices.Sort(deps)
		for _, dep := range deps {
			visit(dep)
		}
		state[name] = 2
		order = append(order, name)
	}
	for _, name := range p.ServiceNames() {
		visit(name)
	}
	return order
}
