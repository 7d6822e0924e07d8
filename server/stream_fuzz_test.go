package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/internal/lspwire"
)

// memConn is a connection whose input is fixed bytes and whose output is
// kept.
type memConn struct {
	in  io.Reader
	mu  sync.Mutex
	out bytes.Buffer
}

func (c *memConn) Read(p []byte) (int, error) { return c.in.Read(p) }
func (c *memConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Write(p)
}
func (c *memConn) Close() error { return nil }

func (c *memConn) written() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.out.Bytes())
}

// readAll reads every message of input through a frameStream (cap maxBody)
// and returns them, what the stream wrote back (its answers to invalid
// messages) and the error that ended the input.
func readAll(t *testing.T, input []byte, maxBody int) (msgs []jsonrpc2.Message, written []byte, end error) {
	t.Helper()
	conn := &memConn{in: bytes.NewReader(input)}
	s := newFrameStream(conn, maxBody)
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		msg, n, err := s.Read(ctx)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("the stream hung on %d bytes of input", len(input))
			}
			return msgs, conn.written(), err
		}
		if n <= 0 {
			t.Fatalf("message read with size %d", n)
		}
		// A decoded message may borrow the body buffer: keep a copy.
		b, err := jsonrpc2.EncodeMessage(msg)
		if err != nil {
			t.Fatalf("re-encode a decoded message: %v", err)
		}
		cp, err := jsonrpc2.DecodeMessage(b)
		if err != nil {
			t.Fatalf("decode a re-encoded message %s: %v", b, err)
		}
		msgs = append(msgs, cp)
	}
}

// frames splits written output into its bodies, failing on anything that is
// not a well-formed frame.
func frames(t *testing.T, out []byte) [][]byte {
	t.Helper()
	r := bufio.NewReader(bytes.NewReader(out))
	var bodies [][]byte
	for {
		n, _, err := lspwire.ReadFrameHeader(r)
		if errors.Is(err, io.EOF) {
			return bodies
		}
		if err != nil {
			t.Fatalf("the server wrote a broken frame: %v in %q", err, out)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatalf("the server wrote a short frame: %v in %q", err, out)
		}
		bodies = append(bodies, body)
	}
}

func frame(body string) string {
	return "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

// FuzzFrameStream: whatever bytes the client sends, the frame reader ends
// (at the input's end or with an error), never panics or hangs, and what it
// writes back are whole frames, each a JSON-RPC response with an error. A
// valid frame after any number of bodies that are not JSON-RPC is still
// read: one bad message loses no later one.
func FuzzFrameStream(f *testing.F) {
	for _, s := range []string{
		frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`),
		frame(`{not json`),
		frame(`{"jsonrpc":"2.0","id":1}`),
		frame(`{"jsonrpc":"2.0","result":null}`),
		frame(`[]`),
		"Content-Length: 5\r\n\r\n{}",
		"Content-Length: 99999999999\r\n\r\n",
		"Content-Type: x\r\n\r\n",
		"content-length:  3 \r\nX-Other: y\r\n\r\n{}}",
		"Content-Length: -1\r\n\r\n",
		"Content-Length: 40\r\n\r\n" + `{"jsonrpc":"2.0","id":"a","method":"m"}` + "xx",
		"\r\n\r\n",
		"",
	} {
		f.Add([]byte(s))
	}
	const next = `{"jsonrpc":"2.0","id":"after","method":"agent/listSessions","params":{}}`
	f.Fuzz(func(t *testing.T, input []byte) {
		_, written, end := readAll(t, input, 1<<10)
		if end == nil {
			t.Fatal("the input ended without an error")
		}
		for _, body := range frames(t, written) {
			msg, err := jsonrpc2.DecodeMessage(body)
			resp, ok := msg.(*jsonrpc2.Response)
			if err != nil || !ok || resp.Err() == nil {
				t.Fatalf("the server wrote %s (%v), want an error response", body, err)
			}
		}
		// The same bytes as one body of a well-formed frame, then a
		// valid message: the valid message is read.
		msgs, _, _ := readAll(t, []byte(frame(string(input))+frame(next)), 1<<10)
		if len(msgs) == 0 {
			t.Fatalf("the message after a %d-byte body was lost", len(input))
		}
		last, ok := msgs[len(msgs)-1].(*jsonrpc2.Call)
		if !ok || fmt.Sprint(last.ID()) != fmt.Sprint(jsonrpc2.NewStringID("after")) {
			t.Fatalf("last message = %#v, want the call after the body", msgs[len(msgs)-1])
		}
	})
}
