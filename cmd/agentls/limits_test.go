package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
)

// response reads messages until the response with this id ("null" for an
// error about a message without a usable id).
func response(t *testing.T, out *bufio.Reader, id string) map[string]any {
	t.Helper()
	for {
		body := receive(t, out)
		var m map[string]any
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatalf("server sent invalid JSON %q", body)
		}
		raw, isResponse := m["id"]
		if !isResponse || m["method"] != nil {
			continue
		}
		if got, _ := json.Marshal(raw); string(got) == id {
			return m
		}
	}
}

func errorCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return code
}

// TestBrokenFrameHeader: a frame header the server cannot read ends it with
// an Error log line on stderr and a non-zero exit code (the editor reports it
// and restarts the server), never silently with 0.
func TestBrokenFrameHeader(t *testing.T) {
	t.Parallel()
	for name, frame := range map[string]string{
		"non-numeric length": "Content-Length: lots\r\n\r\n{}",
		"missing length":     "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
		"no colon":           "Content-Length 12\r\n\r\n{}",
	} {
		t.Run(name, func(t *testing.T) {
			cmd, in, out, stderr := agentlsProcess(t)
			send(t, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://`+t.TempDir()+`","capabilities":{}}}`)
			response(t, out, "1")
			if _, err := io.WriteString(in, frame); err != nil {
				t.Fatal(err)
			}
			if code := wait(t, cmd); code == 0 {
				t.Fatalf("exit code 0 after a broken header; stderr:\n%s", stderr)
			}
			if log := stderr.String(); !strings.Contains(log, "level=ERROR") || !strings.Contains(log, "broken message header") {
				t.Fatalf("no Error log line about the header on stderr:\n%s", log)
			}
		})
	}
}

// TestOversizeMessage: a message over --max-message-mb is read and dropped,
// answered with an error carrying its id (read from the body's start), and
// the stream stays in sync.
func TestOversizeMessage(t *testing.T) {
	t.Parallel()
	cmd, in, out, stderr := agentlsProcess(t, "--max-message-mb", "1")
	send(t, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://`+t.TempDir()+`","capabilities":{}}}`)
	response(t, out, "1")
	big := `{"jsonrpc":"2.0","id":2,"method":"agent/newSession","params":{"title":"` + strings.Repeat("x", 2<<20) + `"}}`
	send(t, in, big)
	m := response(t, out, "2")
	if errorCode(m) != -32600 || !strings.Contains(fmt.Sprint(m["error"]), "1 MB") {
		t.Fatalf("oversize message answered with %v, want -32600 naming the cap", m)
	}
	send(t, in, `{"jsonrpc":"2.0","id":3,"method":"agent/newSession","params":{"title":"small"}}`)
	if m := response(t, out, "3"); m["result"] == nil {
		t.Fatalf("the message after an oversize one = %v", m)
	}
	send(t, in, `{"jsonrpc":"2.0","id":4,"method":"shutdown"}`)
	response(t, out, "4")
	send(t, in, `{"jsonrpc":"2.0","method":"exit"}`)
	if code := wait(t, cmd); code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
}

// TestRequestsAfterShutdown get -32600 (LSP: InvalidRequest); exit still ends
// the server cleanly.
func TestRequestsAfterShutdown(t *testing.T) {
	t.Parallel()
	cmd, in, out, stderr := agentlsProcess(t)
	send(t, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://`+t.TempDir()+`","capabilities":{}}}`)
	response(t, out, "1")
	send(t, in, `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	if m := response(t, out, "2"); m["error"] != nil {
		t.Fatalf("shutdown = %v", m)
	}
	for i, method := range []string{"agent/newSession", "agent/listSessions", "shutdown", "initialize"} {
		id := strconv.Itoa(10 + i)
		send(t, in, `{"jsonrpc":"2.0","id":`+id+`,"method":"`+method+`","params":{}}`)
		if m := response(t, out, id); errorCode(m) != -32600 {
			t.Fatalf("%s after shutdown = %v, want -32600", method, m)
		}
	}
	send(t, in, `{"jsonrpc":"2.0","method":"exit"}`)
	if code := wait(t, cmd); code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
}

// TestLargeMessageMemoryReleased measures the process's resident memory
// before and after a 100 MB message: the body's buffer is not kept.
func TestLargeMessageMemoryReleased(t *testing.T) {
	t.Parallel()
	if testing.Short() || raceEnabled {
		t.Skip("sends 100 MB; resident sizes mean nothing under the race detector")
	}
	cmd, in, out, stderr := agentlsProcess(t, "--max-message-mb", "200")
	send(t, in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://`+t.TempDir()+`","capabilities":{}}}`)
	response(t, out, "1")
	before := residentMB(t, cmd.Process.Pid)
	big := `{"jsonrpc":"2.0","id":2,"method":"x/big","params":{"blob":"` + strings.Repeat("x", 100<<20) + `"}}`
	send(t, in, big)
	if m := response(t, out, "2"); errorCode(m) != -32601 {
		t.Fatalf("100 MB request = %v, want method not found", m)
	}
	// Two more requests: the server hands the memory back to the OS at the
	// two reads after a large message.
	for _, id := range []string{"3", "4"} {
		send(t, in, `{"jsonrpc":"2.0","id":`+id+`,"method":"x/ping"}`)
		response(t, out, id)
	}
	after := residentMB(t, cmd.Process.Pid)
	t.Logf("resident memory: %d MB before, %d MB after a 100 MB message", before, after)
	if after > before+40 {
		t.Errorf("resident memory %d MB after a 100 MB message (before: %d MB): the buffer was kept", after, before)
	}
	send(t, in, `{"jsonrpc":"2.0","id":5,"method":"shutdown"}`)
	response(t, out, "5")
	send(t, in, `{"jsonrpc":"2.0","method":"exit"}`)
	if code := wait(t, cmd); code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
}

// residentMB reads VmRSS of a process (Linux).
func residentMB(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("VmRSS %q", rest)
			}
			return kb >> 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}
