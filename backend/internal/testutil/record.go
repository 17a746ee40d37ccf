package testutil

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// RecordEnv names a directory. When it is set, every /api answer that
// Request and Serve see is appended to a file there (one per test process,
// one JSON line per answer), and internal/app's TestRecordedResponses
// checks each against the API description. `make test-go` sets it.
const RecordEnv = "GATEHOUSE_API_RECORD"

// Recorded is one answer as it is written to the record directory.
type Recorded struct {
	Method string `json:"method"`
	// Host is the request's Host: the API is described as the panel's
	// host serves it; the sign-in portal's host answers 404 for every
	// route not marked for it.
	Host        string `json:"host,omitempty"`
	Path        string `json:"path"` // as sent: escaped, so a test of hostile paths records a parsable URL
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	Body        string `json:"body"`
}

// recorder is process-wide on purpose: the test binary is the unit that
// writes one file, whichever test and helper made the request.
var recorder struct {
	once sync.Once
	mu   sync.Mutex
	enc  *json.Encoder
}

// Serve sends req through h and returns the recorded answer, recording it
// when RecordEnv is set. Tests that build their own requests use it instead
// of calling ServeHTTP, so their answers are checked too.
func Serve(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	record(req, rec)
	return rec
}

func record(req *http.Request, rec *httptest.ResponseRecorder) {
	dir := os.Getenv(RecordEnv)
	if dir == "" || !strings.HasPrefix(req.URL.Path, "/api/") {
		return
	}
	recorder.once.Do(func() {
		name := filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", filepath.Base(os.Args[0]), os.Getpid()))
		f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600) //nolint:gosec // the directory the test run names
		if err != nil {
			panic(fmt.Sprintf("%s: %v", RecordEnv, err))
		}
		recorder.enc = json.NewEncoder(f) // closed by the process exit; every line is written whole
	})
	recorder.mu.Lock()
	defer recorder.mu.Unlock()
	if err := recorder.enc.Encode(Recorded{
		Method: req.Method, Host: req.Host, Path: req.URL.EscapedPath(), Status: rec.Code,
		ContentType: rec.Header().Get("Content-Type"), Body: rec.Body.String(),
	}); err != nil {
		panic(fmt.Sprintf("%s: %v", RecordEnv, err))
	}
}
