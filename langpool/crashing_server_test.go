package langpool

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// crashingServerArg makes the test binary (run with it as its only
// argument) a language server that answers initialize, takes the
// initialized notification, and exits at the first document it is sent,
// with a line on stderr (gopls panicking on a file, at every start). Each
// start appends a line to starts in its cache folder ($XDG_CACHE_HOME, the
// one place the sandbox lets it write).
const crashingServerArg = "crashing-language-server"

func init() { serveAs(crashingServerArg, runCrashingServer, 2) }

func runCrashingServer() {
	if f, err := os.OpenFile(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "starts"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		_, _ = f.WriteString("start\n")
		_ = f.Close()
	}
	in := newStdinMessages()
	for {
		id, method, err := in.next()
		if err != nil {
			return
		}
		switch method {
		case "initialize":
			answerInitialize(id, `{"textDocumentSync":1,"diagnosticProvider":{}}`)
		case "textDocument/didOpen", "textDocument/didChange", "textDocument/diagnostic":
			fmt.Fprintln(os.Stderr, "panic: index corrupted")
			return
		}
	}
}

// startsOf is how many times the crashing server started under the pool
// whose cache root is cacheRoot.
func startsOf(t *testing.T, cacheRoot string) int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(cacheRoot, "*", "go", "starts"))
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += strings.Count(string(b), "start\n")
	}
	return n
}

// TestServerThatKeepsExitingIsNotRestartedInALoop: a language server that
// answers initialize and then exits (here at the first document, at every
// start) is started again after a growing wait, not at every question:
// the settle polls of an edit (every 100 ms) and the agent's questions
// spawned a new server each, for as long as the agent worked. After
// maxQuickExits exits in a row it is not started again, and the question's
// error says so with its stderr's tail; a configuration change starts it
// anew.
func TestServerThatKeepsExitingIsNotRestartedInALoop(t *testing.T) {
	cache := t.TempDir()
	p, _, a := binaryServerPool(t, crashingServerArg, "package a\n", Options{CacheDir: cache, restartBackoff: 50 * time.Millisecond})

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Questions as an edit's settle polls ask them (faster: the test's
	// backoff is short), until the server is reported broken, then 20
	// more; a start more than maxQuickExits is the loop.
	want := fmt.Sprintf("exited %d times in a row; not restarted", maxQuickExits)
	var last error
	asked, after := 0, 0
	for after < 20 {
		_, last = p.Diagnostics(ctx, []string{a})
		asked++
		if last != nil && strings.Contains(last.Error(), want) {
			after++
		}
		if starts := startsOf(t, cache); starts > maxQuickExits {
			t.Fatalf("a server that exits at every start was started %d times by %d questions (last error: %v); want at most %d, after a growing wait", starts, asked, last, maxQuickExits)
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			t.Fatalf("no question's error said %q within a minute (%d questions; last error: %v)", want, asked, last)
		}
	}
	starts := startsOf(t, cache)
	if !strings.Contains(last.Error(), "panic: index corrupted") {
		t.Fatalf("the question's error is %v; want the server's stderr in it", last)
	}
	t.Logf("%d starts, %d questions; the last one's error: %v", starts, asked, last)
	if st := statusOf(p.Status(), "go"); !strings.Contains(st, want) {
		t.Errorf("status = %q, want it to say %q", st, want)
	}
	if served := p.ServedTypes(); len(served) != 0 {
		t.Errorf("served types = %v, want the broken server left out", served)
	}

	p.Configure(p.opts.Config) // the user changed the configuration: start it anew
	_, _ = p.Diagnostics(ctx, []string{a})
	if again := startsOf(t, cache); again != starts+1 {
		t.Fatalf("after a configuration change the server started %d more times, want once", again-starts)
	}
}
