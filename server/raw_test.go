package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/server"
)

// rawClient speaks the base protocol by hand, to send what no library would.
type rawClient struct {
	t   *testing.T
	in  io.Writer // to the server
	out *bufio.Reader
}

// homeOnly is an environment that holds only HOME, a new temporary folder:
// a server started with it reads no configuration of the developer's and
// writes nothing into their state folder. (An environment of nothing would
// not do: agentls then finds the home in the password database.)
func homeOnly(tb testing.TB) func(string) string {
	home := tb.TempDir()
	return func(key string) string {
		if key == "HOME" {
			return home
		}
		return ""
	}
}

func (c *rawClient) send(body string) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatal(err)
	}
}

// next reads the next message that is a response (skipping notifications).
func (c *rawClient) next() map[string]any {
	c.t.Helper()
	return c.nextMatching(func(m map[string]any) bool {
		_, isResponse := m["id"]
		return isResponse && m["method"] == nil
	})
}

// nextMatching reads messages until one for which match holds; with
// RAWDEBUG set, it prints each one to stderr.
func (c *rawClient) nextMatching(match func(m map[string]any) bool) map[string]any {
	c.t.Helper()
	for {
		hdr, err := textproto.NewReader(c.out).ReadMIMEHeader()
		if err != nil {
			c.t.Fatalf("read header: %v", err)
		}
		n, err := strconv.Atoi(hdr.Get("Content-Length"))
		if err != nil {
			c.t.Fatalf("bad header %v", hdr)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(c.out, body); err != nil {
			c.t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Fatalf("server sent invalid JSON %q", body)
		}
		if os.Getenv("RAWDEBUG") != "" {
			fmt.Fprintf(os.Stderr, "<- %.300s\n", body)
		}
		if match(m) {
			return m
		}
	}
}

// serveRaw starts a server on OS pipes with a raw client on the other end;
// Serve's result arrives on done. The server stops when ctx ends.
func serveRaw(t *testing.T, ctx context.Context, opts server.Options) (c *rawClient, done <-chan error) {
	c2sR, c2sW, _ := os.Pipe()
	s2cR, s2cW, _ := os.Pipe()
	served, finished := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(finished)
		served <- server.Serve(ctx, rwc{c2sR, s2cW}, opts)
		s2cW.Close()
	}()
	t.Cleanup(func() {
		c2sW.Close() // the client is gone: its input ends, a blocked write fails
		s2cR.Close()
		<-finished
	})
	return &rawClient{t: t, in: c2sW, out: bufio.NewReader(s2cR)}, served
}

// shutdownExit sends shutdown and exit and checks that Serve returns nil.
func (c *rawClient) shutdownExit(done <-chan error) {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":4242,"method":"shutdown"}`)
	c.next()
	c.send(`{"jsonrpc":"2.0","method":"exit"}`)
	if err := <-done; err != nil {
		c.t.Fatalf("serve after shutdown+exit = %v", err)
	}
}

func TestMalformedJSONRPC(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, done := serveRaw(t, ctx, server.Options{Getenv: homeOnly(t)})

	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://` + t.TempDir() + `","capabilities":{}}}`)
	if m := c.next(); m["result"] == nil {
		t.Fatalf("initialize = %v", m)
	}
	c.send(`{this is not json`)
	if m := c.next(); m["error"] == nil || m["error"].(map[string]any)["code"].(float64) != -32700 {
		t.Fatalf("garbage = %v, want a -32700 parse error", m)
	}
	c.send(``) // Content-Length: 0 is in sync: an empty, invalid message
	if m := c.next(); m["error"] == nil || m["error"].(map[string]any)["code"].(float64) != -32700 {
		t.Fatalf("empty body = %v, want a -32700 parse error", m)
	}
	c.send(`{"jsonrpc":"2.0","method":"$/unknownNotification","params":{}}`)
	c.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{"nested":true}}}`)
	c.send(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nowhere.txt","version":2},"contentChanges":[{"range":{"start":{"line":9,"character":0},"end":{"line":9,"character":0}},"text":"x"}]}}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"agent/newSession","params":"not an object"}`)
	if m := c.next(); m["error"] == nil || m["error"].(map[string]any)["code"].(float64) != -32602 {
		t.Fatalf("bad params = %v, want -32602", m)
	}
	// Still alive and well.
	c.send(`{"jsonrpc":"2.0","id":3,"method":"agent/newSession","params":{"mode":"plan"}}`)
	if m := c.next(); m["result"] == nil {
		t.Fatalf("newSession after bad input = %v", m)
	}
	c.shutdownExit(done)
}

func TestStdinEOFStopsServer(t *testing.T) {
	t.Parallel()
	c2sR, c2sW, _ := os.Pipe()
	s2cR, s2cW, _ := os.Pipe()
	defer s2cR.Close()
	done := make(chan error, 1)
	go func() {
		done <- server.Serve(context.Background(), rwc{c2sR, s2cW}, server.Options{})
	}()
	c2sW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve on EOF = %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server still running after its input ended")
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	t.Parallel()
	c2sR, c2sW, _ := os.Pipe()
	s2cR, s2cW, _ := os.Pipe()
	defer s2cR.Close()
	done := make(chan error, 1)
	go func() { done <- server.Serve(context.Background(), rwc{c2sR, s2cW}, server.Options{}) }()
	c := &rawClient{t: t, in: c2sW, out: bufio.NewReader(s2cR)}
	c.send(`{"jsonrpc":"2.0","method":"exit"}`)
	if err := <-done; err != server.ErrExitWithoutShutdown {
		t.Fatalf("serve = %v, want ErrExitWithoutShutdown", err)
	}
}

type rwc struct {
	r *os.File
	w *os.File
}

func (p rwc) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p rwc) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p rwc) Close() error                { p.r.Close(); return p.w.Close() }

// TestConcurrentInitialize: two initialize requests sent together build one
// manager: while the first is building it (held in NewProvider), the second
// gets -32600; then the first succeeds.
func TestConcurrentInitialize(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var builds atomic.Int32
	release := make(chan struct{})
	opts := server.Options{
		Getenv: homeOnly(t),
		NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) {
			if builds.Add(1) == 1 {
				<-release
			}
			return nil, os.ErrNotExist
		},
	}
	dir := t.TempDir() // before serveRaw: removed after the server stopped
	c, done := serveRaw(t, ctx, opts)
	init := `{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"rootUri":"file://` + dir + `","capabilities":{}}}`
	c.send(fmt.Sprintf(init, 1))
	c.send(fmt.Sprintf(init, 2))
	if m := c.next(); m["error"] == nil || m["error"].(map[string]any)["code"].(float64) != -32600 {
		t.Fatalf("initialize while another builds the manager = %v, want -32600", m)
	}
	close(release)
	if m := c.next(); m["result"] == nil {
		t.Fatalf("the first initialize = %v", m)
	}
	if n := builds.Load(); n != 1 {
		t.Fatalf("%d managers built", n)
	}
	c.shutdownExit(done)
}

// TestExitRightBehindShutdown: an editor that sends `exit` without waiting for
// shutdown's reply still gets a clean stop (the handlers run concurrently;
// the two are recorded in wire order), and a second shutdown is refused.
func TestExitRightBehindShutdown(t *testing.T) {
	t.Parallel()
	for i := range 300 {
		c2sR, c2sW, _ := os.Pipe()
		s2cR, s2cW, _ := os.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- server.Serve(context.Background(), rwc{c2sR, s2cW}, server.Options{Getenv: homeOnly(t)})
			s2cW.Close()
		}()
		go func() { _, _ = io.Copy(io.Discard, s2cR) }()
		c := &rawClient{t: t, in: c2sW, out: bufio.NewReader(s2cR)}
		c.send(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`)
		c.send(`{"jsonrpc":"2.0","method":"exit"}`)
		if err := <-done; err != nil {
			t.Fatalf("run %d: shutdown then exit = %v, want a clean stop", i, err)
		}
		c2sW.Close()
	}

	c2sR, c2sW, _ := os.Pipe()
	s2cR, s2cW, _ := os.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- server.Serve(context.Background(), rwc{c2sR, s2cW}, server.Options{Getenv: homeOnly(t)})
		s2cW.Close()
	}()
	c := &rawClient{t: t, in: c2sW, out: bufio.NewReader(s2cR)}
	c.send(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`)
	if m := c.next(); m["error"] != nil {
		t.Fatalf("shutdown = %v", m)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	if m := c.next(); m["error"] == nil || m["error"].(map[string]any)["code"].(float64) != -32600 {
		t.Fatalf("second shutdown = %v, want -32600", m)
	}
	c.send(`{"jsonrpc":"2.0","method":"exit"}`)
	if err := <-done; err != nil {
		t.Fatalf("serve after shutdown+exit = %v", err)
	}
}
