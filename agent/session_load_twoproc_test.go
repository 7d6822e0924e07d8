//go:build linux

package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/sessionstore"
)

// TestSessionTakenOverLoadsTheStateItsOwnerLeft: two managers on one
// workspace stand for two agentls processes. VS Code's drives a session;
// the terminal's keeps asking for it (agent/loadSession, a prompt) and is
// refused while VS Code owns it. In VS Code the user prompts once more and
// closes the session; the terminal's next request gets the session's lock.
// Manager.session reads the session file first and takes the lock after:
// what it read while VS Code still owned the session — before its last
// turn — is the history the terminal's agentls then drives. VS Code's last
// prompt and answer are missing from the conversation the terminal shows
// and sends to the model, though they are in the file it now owns (its
// next turn's messages are appended after them, unseen).
//
// The window is the decoding of the history, between the read of the
// files and the lock: the test waits (inotify) for the terminal's read of
// the session's .meta, then prompts and closes the session in VS Code. A
// long history (40 MB) keeps the decoding longer than that turn.
func TestSessionTakenOverLoadsTheStateItsOwnerLeft(t *testing.T) {
	ctx := context.Background()
	first, _ := newTestManager(t, noTurns, &memEditor{}, nil)
	state := t.TempDir() // both processes' state folder (their session records)
	open := func() *Manager {
		m, err := NewManager(Options{Workspace: first.ws, Config: first.config(), Provider: first.Provider(), Editor: &memEditor{ws: first.ws}, StateDir: state})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		return m
	}
	vscode, terminal := open(), open()

	s := newTestSession(t, vscode, "plan")
	id := s.ID()
	if _, err := vscode.SetMode(ctx, id, "build"); err != nil {
		t.Fatal(err)
	}
	// A long history.
	big, _ := json.Marshal(map[string]string{"role": "user", "content": strings.Repeat("x", 1<<20)})
	for range 40 {
		if err := vscode.store.Append(id, big); err != nil {
			t.Fatal(err)
		}
	}

	chats := filepath.Join(vscode.ws.Root(), ".agentls", "chats")
	metaRead := watchClosed(t, chats, id+".meta")

	type loaded struct {
		s        *Session
		err      error
		attempts int
	}
	done := make(chan loaded, 1)
	refused := make(chan int, 100)
	go func() { // the terminal asks until it gets the session
		for n := 1; ; n++ {
			got, err := terminal.session(id)
			if err != nil && errors.Is(err, sessionstore.ErrSessionOwned) {
				select {
				case refused <- n:
				default:
				}
				continue
			}
			done <- loaded{got, err, n}
			return
		}
	}()

	// The terminal has read the session's files (or, were it to take the
	// lock first, has been refused a few times without reading them):
	// VS Code's last turn, and the session is closed there.
	for waiting := true; waiting; {
		select {
		case <-metaRead:
			waiting = false
		case n := <-refused:
			waiting = n < 3
		}
	}
	const last = "VS Code's last prompt"
	if res, err := vscode.Prompt(ctx, PromptRequest{SessionID: id, Text: last}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	if err := vscode.CloseSession(ctx, id); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	_, lines, err := terminal.store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	inFile := 0
	for _, l := range lines {
		if strings.Contains(string(l), last) {
			inFile++
		}
	}
	inMemory := 0
	for _, m := range r.s.Messages() {
		if strings.Contains(m.Content, last) {
			inMemory++
		}
	}
	if inFile != 1 || inMemory != 1 {
		t.Errorf("the terminal took the session over (attempt %d) without VS Code's last prompt: %d in its history, %d in the session file it now owns "+
			"(the file was read before the lock was taken)", r.attempts, inMemory, inFile)
	}
}

// watchClosed watches dir (inotify) and returns a channel that is closed
// at the first close of the file name opened for reading.
func watchClosed(t *testing.T, dir, name string) <-chan struct{} {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		t.Skipf("no inotify: %v", err)
	}
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_CLOSE_NOWRITE); err != nil {
		syscall.Close(fd)
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fd), "inotify")
	t.Cleanup(func() { f.Close() })
	seen := make(chan struct{})
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if err != nil {
				return
			}
			for off := 0; off+syscall.SizeofInotifyEvent <= n; {
				ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
				end := off + syscall.SizeofInotifyEvent + int(ev.Len)
				if strings.TrimRight(string(buf[off+syscall.SizeofInotifyEvent:end]), "\x00") == name {
					close(seen)
					return
				}
				off = end
			}
		}
	}()
	return seen
}
