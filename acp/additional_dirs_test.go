package acp_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestAdditionalDirectories: session/new's additionalDirectories become
// workspace folders (the agent reads there), each under a workspace
// folder's rules: the file system root, a folder holding home, a relative
// path or a missing folder are refused with an error naming it.
func TestAdditionalDirectories(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	lib := filepath.Join(root, "lib")
	writeFiles(t, lib, map[string]string{"util.txt": "shared helper\n"})
	target := filepath.Join(lib, "util.txt")
	script := `
steps:
  - tool_calls: [{id: r1, name: read, args: {path: "` + filepath.ToSlash(target) + `"}}]
  - text: "Read."
`
	for _, c := range []struct {
		name  string
		dirs  []string
		reads bool
	}{
		{"with lib", []string{lib}, true},
		{"without", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, setup{script: script})
			res, err := r.conn.NewSession(r.ctx, sdk.NewSessionRequest{Cwd: r.dir, McpServers: []sdk.McpServer{}, AdditionalDirectories: c.dirs})
			if err != nil {
				t.Fatal(err)
			}
			r.mustPrompt(res.SessionId, "read the helper")
			if got := client(r).finalStatus("r1") == sdk.ToolCallStatusCompleted; got != c.reads {
				t.Errorf("read of %s completed: %v, want %v", target, got, c.reads)
			}
		})
	}

	r := newRig(t, setup{script: "steps:\n  - text: hi\n"})
	home, _ := filepath.EvalSymlinks(filepath.Dir(r.dir)) // the rig's HOME holds the workspace
	for _, bad := range [][]string{{"/"}, {home}, {filepath.Dir(home)}, {"relative/dir"}, {filepath.Join(root, "missing")}, {filepath.Join(r.dir, ".git")}} {
		if bad[0] == filepath.Join(r.dir, ".git") {
			if err := os.MkdirAll(bad[0], 0o755); err != nil {
				t.Fatal(err)
			}
		}
		_, err := r.conn.NewSession(r.ctx, sdk.NewSessionRequest{Cwd: r.dir, McpServers: []sdk.McpServer{}, AdditionalDirectories: bad})
		var re *sdk.RequestError
		if !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, filepath.Base(bad[0])) && bad[0] != "/" {
			t.Errorf("additionalDirectories %q: %v, want invalid params naming it", bad, err)
		}
	}
}

func client(r *rig) *testClient { return r.client }
