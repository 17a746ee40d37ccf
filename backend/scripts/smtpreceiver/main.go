// Command smtpreceiver runs the tests' SMTP receiver (go-smtp, on
// 127.0.0.1) for suites outside Go, such as the Chromium one: it prints
// {"port":N} once listening, then one JSON line per accepted message
// ({"from","to","subject","data"}), and stops when its standard input
// closes or it is signalled.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func main() {
	var mu sync.Mutex
	enc := json.NewEncoder(os.Stdout)
	emit := func(v any) {
		mu.Lock()
		defer mu.Unlock()
		_ = enc.Encode(v)
	}
	r, err := testutil.StartSMTPReceiver(testutil.SMTPOptions{OnMail: func(m testutil.ReceivedMail) {
		subject := ""
		if msg, err := m.Message(); err == nil {
			subject, _ = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		}
		emit(map[string]any{"from": m.From, "to": m.To, "subject": subject, "data": m.Data})
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "smtpreceiver:", err)
		os.Exit(1)
	}
	defer func() { _ = r.Close() }()
	emit(map[string]any{"port": r.Port})
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(done)
	}()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	select {
	case <-done:
	case <-sig:
	}
}
