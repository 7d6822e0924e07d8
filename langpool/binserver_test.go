package langpool

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/workspace"
)

// binaryServerPool is a pool over a fresh workspace holding a.go (text),
// whose go server is this test binary run with arg as its only argument
// (a misbehaving server of the test's own: crashing, deaf, stuck); it
// returns the workspace and a.go's path too. opts adds to the pool's
// options (its cache folder is a fresh one unless opts names one).
func binaryServerPool(t *testing.T, arg, text string, opts Options) (*Pool, *workspace.Workspace, string) {
	t.Helper()
	root := t.TempDir()
	a := filepath.Join(root, "a.go")
	if err := os.WriteFile(a, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p := testBinaryPool(t, root, []string{arg}, opts, nil)
	return p, p.opts.Workspace, a
}

// serveAs makes the test binary the test server serve when it was run
// with arg as its only argument (binaryServerPool's servers): it runs
// serve, then exits with code.
func serveAs(arg string, serve func(), code int) {
	if len(os.Args) == 2 && os.Args[1] == arg {
		serve()
		os.Exit(code)
	}
}

// testBinaryPool is a pool over the workspace at root whose go server is
// this test binary run with args; opts adds to the pool's options (its
// cache folder is a fresh one unless opts names one), edit changes its
// configuration.
func testBinaryPool(t *testing.T, root string, args []string, opts Options, edit func(*config.Config)) *Pool {
	t.Helper()
	ws, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts.Workspace, opts.Config = ws, config.Default()
	opts.Config.LSP.Servers = map[string]config.LSPServer{"go": {Command: append([]string{exe}, args...)}}
	if edit != nil {
		edit(&opts.Config)
	}
	opts.Getenv = func(string) string { return "" }
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	p := New(opts)
	t.Cleanup(p.Close)
	return p
}

// stdinMessages reads the LSP-framed messages a test server is sent on
// its standard input.
type stdinMessages struct{ in *textproto.Reader }

func newStdinMessages() stdinMessages {
	return stdinMessages{textproto.NewReader(bufio.NewReader(os.Stdin))}
}

// next is the next message's id (null for a notification) and method.
func (m stdinMessages) next() (id json.RawMessage, method string, err error) {
	hdr, err := m.in.ReadMIMEHeader()
	if err != nil {
		return nil, "", err
	}
	n, _ := strconv.Atoi(hdr.Get("Content-Length"))
	body := make([]byte, n)
	if _, err := io.ReadFull(m.in.R, body); err != nil {
		return nil, "", err
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(body, &msg)
	return msg.ID, msg.Method, nil
}

// answerInitialize writes the answer to initialize request id, offering
// capabilities (a JSON object), framed, on standard output.
func answerInitialize(id json.RawMessage, capabilities string) {
	res := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"capabilities":%s}}`, id, capabilities)
	fmt.Fprintf(os.Stdout, "Content-Length: %d\r\n\r\n%s", len(res), res)
}
