// Command gatehouse is a control panel for the Traefik v3 reverse proxy.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/gatehouse-proxy/gatehouse/internal/app"
	"github.com/gatehouse-proxy/gatehouse/internal/procmem"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := app.Run(ctx, app.Options{Args: os.Args[1:], Getenv: os.Getenv, Stdout: os.Stdout, Stderr: os.Stderr,
		SetMemoryLimit: debug.SetMemoryLimit, ReleaseExecutable: procmem.ReleaseExecutable})
	stop()
	os.Exit(code)
}
