package acp_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestPersistenceFailureEndsTheTurn: a session whose `.chat` file cannot be
// written (a link to /dev/full, which the store refuses to open: not a
// regular file, even as root) ends the prompt with
// the turn-failed error (data stopReason "error") naming the file and the
// OS error; once the file can be written again the next prompt runs.
func TestPersistenceFailureEndsTheTurn(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	r := newRig(t, setup{script: "steps:\n  - text: \"One.\"\n  - text: \"Two.\"\n"})
	sid := r.newSession().SessionId
	r.mustPrompt(sid, "hello")
	chat := filepath.Join(r.dir, ".agentls", "chats", string(sid)+".chat")
	saved, err := os.ReadFile(chat)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(chat); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/full", chat); err != nil {
		t.Fatal(err)
	}
	_, err = r.prompt(sid, "on a full disk")
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code != -32603 {
		t.Fatalf("prompt on a full disk: %v, want the internal error -32603 (not -32000: ACP's auth_required)", err)
	}
	data := fmt.Sprint(re.Data)
	for _, want := range []string{chat, "not a regular file"} {
		if !strings.Contains(re.Message, want) {
			t.Errorf("error %q does not name %q", re.Message, want)
		}
	}
	if !strings.Contains(data, "stopReason") || !strings.Contains(data, "error") {
		t.Errorf("error data %s, want stopReason error", data)
	}
	if err := os.Remove(chat); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(chat, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	if stop := r.mustPrompt(sid, "again"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after the disk was fixed: %s", stop)
	}
}
