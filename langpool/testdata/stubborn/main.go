// Command stubborn is a language server that will not end, for agentls's
// tests: it ignores SIGTERM, SIGHUP and SIGINT, answers `shutdown` but not
// `exit`, keeps running at stdin EOF, and starts a grandchild (itself with
// the argument "grandchild") that ignores the same signals. Its pull
// diagnostics name both pids ("pids <server> <grandchild>"). With
// STUBBORN_KILL_REAPER=1 it also clears its parent-death signal and, once
// agentls has read that answer (it answers a workspace/configuration the
// server sends after it), kills its parent when that is the sandbox's
// reaper (`agentls sandbox-exec --reap`), as a hostile server can where
// nothing scopes its signals (the sandbox off, Landlock before ABI 6).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
}

func main() {
	signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGPIPE)
	if len(os.Args) > 1 && os.Args[1] == "grandchild" {
		forever()
	}
	killReaper := os.Getenv("STUBBORN_KILL_REAPER") == "1"
	if killReaper {
		keepAfterParent()
	}
	grandchild := 0
	in := bufio.NewReader(os.Stdin)
	for {
		body, err := readMessage(in)
		if err != nil {
			fmt.Fprintf(os.Stderr, "stubborn: %v; running on\n", err)
			forever()
		}
		var m message
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		switch {
		case m.Method == "initialize":
			grandchild = startGrandchild()
			reply(m.ID, map[string]any{"capabilities": map[string]any{
				"textDocumentSync":   1,
				"diagnosticProvider": map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false},
			}})
		case m.Method == "textDocument/diagnostic":
			reply(m.ID, map[string]any{"kind": "full", "items": []any{map[string]any{
				"range":    map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 0, "character": 1}},
				"severity": 1,
				"message":  fmt.Sprintf("pids %d %d", os.Getpid(), grandchild),
			}}})
			if killReaper {
				write(map[string]any{"jsonrpc": "2.0", "id": "stubborn-ack", "method": "workspace/configuration", "params": map[string]any{"items": []any{map[string]any{}}}})
			}
		case m.Method == "" && string(m.ID) == `"stubborn-ack"`:
			killParentReaper()
		case m.Method == "exit":
			// stays
		case len(m.ID) > 0 && m.Method != "":
			reply(m.ID, nil)
		}
	}
}

// forever blocks for good (signals ignored, only SIGKILL ends it).
func forever() {
	for {
		time.Sleep(time.Hour)
	}
}

// startGrandchild starts this program as "grandchild", in the server's
// process group, with no descriptor of the server's, and returns its pid.
func startGrandchild() int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "stubborn: %v\n", err)
		return 0
	}
	cmd := exec.Command(exe, "grandchild")
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "stubborn: start the grandchild: %v\n", err)
		return 0
	}
	return cmd.Process.Pid
}

// killParentReaper kills the parent with SIGKILL when it is the sandbox's
// reaper, and waits until this process has been reparented.
func killParentReaper() {
	ppid := os.Getppid()
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(ppid) + "/cmdline")
	if !strings.Contains(string(b), "sandbox-exec\x00--reap") {
		fmt.Fprintf(os.Stderr, "stubborn: parent %d is no reaper: %q\n", ppid, b)
		return
	}
	if err := syscall.Kill(ppid, syscall.SIGKILL); err != nil {
		fmt.Fprintf(os.Stderr, "stubborn: kill the reaper %d: %v\n", ppid, err)
		return
	}
	for os.Getppid() == ppid {
		time.Sleep(time.Millisecond)
	}
}

func readMessage(r *bufio.Reader) ([]byte, error) {
	h, err := textproto.NewReader(r).ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(h.Get("Content-Length"))
	if err != nil {
		return nil, fmt.Errorf("Content-Length: %w", err)
	}
	body := make([]byte, n)
	_, err = io.ReadFull(r, body)
	return body, err
}

func reply(id json.RawMessage, result any) {
	write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func write(m any) {
	b, _ := json.Marshal(m)
	fmt.Fprintf(os.Stdout, "Content-Length: %d\r\n\r\n%s", len(b), b)
}
