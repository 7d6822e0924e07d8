package main

import (
	"io"
	"strings"
	"testing"
)

// TestContentLengthOverOneGiB: a declared length over 1 GiB is a framing
// error: the server logs the reason at Error and exits 1 at once, instead
// of waiting to drain gigabytes (and swallowing every message after it).
func TestContentLengthOverOneGiB(t *testing.T) {
	t.Parallel()
	cmd, in, out, stderr := agentlsProcess(t)
	send(t, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://`+t.TempDir()+`","capabilities":{}}}`)
	response(t, out, "1")
	if _, err := io.WriteString(in, "Content-Length: 2147483648\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"x\"}"); err != nil {
		t.Fatal(err)
	}
	// The input stays open: the server must not wait for the rest.
	if code := wait(t, cmd); code != 1 {
		t.Fatalf("exit code %d after a 2 GiB Content-Length, want 1; stderr:\n%s", code, stderr)
	}
	if log := stderr.String(); !strings.Contains(log, "level=ERROR") || !strings.Contains(log, "Content-Length 2147483648 is over the 1 GiB") {
		t.Fatalf("no Error log line naming the length on stderr:\n%s", log)
	}
}

// TestOversizeMessageShortBodyIsExplained: a length under 1 GiB but over
// the cap, with a shorter body, makes the server drain what follows as that
// body; the warning is logged when the draining starts, so the swallowed
// messages have an explanation in the log even when the input ends first.
func TestOversizeMessageShortBodyIsExplained(t *testing.T) {
	t.Parallel()
	cmd, in, out, stderr := agentlsProcess(t, "--max-message-mb", "1")
	send(t, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://`+t.TempDir()+`","capabilities":{}}}`)
	response(t, out, "1")
	if _, err := io.WriteString(in, "Content-Length: 104857600\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"x\"}"); err != nil {
		t.Fatal(err)
	}
	send(t, in, `{"jsonrpc":"2.0","id":3,"method":"shutdown"}`) // drained as the body's rest
	_ = in.Close()
	wait(t, cmd)
	if log := stderr.String(); !strings.Contains(log, "level=WARN") || !strings.Contains(log, "message over the size cap") || !strings.Contains(log, "bytes=104857600") {
		t.Fatalf("no Warn line about the oversize message on stderr:\n%s", log)
	}
}
