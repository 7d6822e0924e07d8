package acp_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/config"
)

// trustRecordPath is where config.TrustStore remembers file (its entry
// name: the first 16 bytes of the SHA-256 of the path, in hex).
func trustRecordPath(stateDir, file string) string {
	h := sha256.Sum256([]byte(file))
	return filepath.Join(stateDir, "trust", hex.EncodeToString(h[:16])+".json")
}

// TestStateFolderOutOfReachThroughACP (issue 17 item 4): with agentls's
// state folder inside the workspace, a build session cannot write the
// trust record of the .agentls.yaml the user has not trusted (nor make,
// move or remove anything there), and no session can read it; the file
// stays untrusted.
func TestStateFolderOutOfReachThroughACP(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	writeFiles(t, root, map[string]string{
		"ws/src/main.go":                  "package main\n",
		"ws/.agentls.yaml":                "run: {allow: ['*']}\n",
		"ws/state/agentls/trust/old.json": "{}\n",
	})
	q := &queueModel{}
	env := map[string]string{"XDG_STATE_HOME": filepath.Join(ws, "state")}
	// The workspace file is asked about at the first prompt: "Don't trust".
	client := &testClient{permit: choose("reject_once")}
	r := newRig(t, setup{dir: ws, model: q, userConfig: buildByDefault, env: env, client: client})
	stateDir := config.StateDir(func(k string) string { return env[k] })
	yamlPath := filepath.Join(ws, ".agentls.yaml")
	content, err := os.ReadFile(yamlPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(content)
	record := trustRecordPath(stateDir, yamlPath)
	rel, _ := filepath.Rel(ws, record)
	forged := fmt.Sprintf(`{"path":%q,"sha256":%q,"trusted_at":"2025-01-01T00:00:00Z"}`, yamlPath, hex.EncodeToString(sum[:]))
	sid := r.newSession().SessionId
	for _, c := range []bypassCase{
		{"write the trust record", "write", map[string]any{"path": rel, "content": forged}},
		{"write it by absolute path", "write", map[string]any{"path": record, "content": forged}},
		{"edit a trust record", "edit", map[string]any{"path": "state/agentls/trust/old.json", "old_string": "{}", "new_string": forged}},
		{"move a file into the state folder", "mv", map[string]any{"from": "src/main.go", "to": rel}},
		{"remove the state folder", "rm", map[string]any{"path": "state", "recursive": true}},
		{"mkdir in the state folder", "mkdir", map[string]any{"path": "state/agentls/planlocks"}},
		{"read a trust record", "read", map[string]any{"path": "state/agentls/trust/old.json"}},
		{"list the state folder", "ls", map[string]any{"path": "state/agentls"}},
	} {
		runBypass(t, r, q, root, sid, c)
	}
	if _, err := os.Stat(record); !os.IsNotExist(err) {
		t.Fatalf("the trust record exists: %v", err)
	}
	if config.NewTrustStore(stateDir).Trusted(yamlPath, content) {
		t.Fatal("the workspace file became trusted")
	}
}

// TestWorkspaceLocationThroughACP (issue 17 item 4): a session/new cwd at
// the file system root or above the home folder is refused with an error
// naming it; at the home folder itself sessions stay in plan mode and a
// switch to build is refused.
func TestWorkspaceLocationThroughACP(t *testing.T) {
	t.Parallel()
	r := newRig(t, setup{userConfig: buildByDefault})
	home := filepath.Dir(r.dir) // the rig's HOME
	for cwd, want := range map[string]string{
		"/":                "root folder",
		filepath.Dir(home): "holds your home folder",
	} {
		if res, err := r.conn.NewSession(r.ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("session/new with cwd %s = %+v, %v; want an error saying %q", cwd, res, err, want)
		}
	}
	res, err := r.conn.NewSession(r.ctx, sdk.NewSessionRequest{Cwd: home, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new at home: %v", err)
	}
	if res.Modes == nil || res.Modes.CurrentModeId != "plan" {
		t.Fatalf("a session at home starts in %+v, want plan (build by default is configured)", res.Modes)
	}
	if _, err := r.conn.SetSessionMode(r.ctx, sdk.SetSessionModeRequest{SessionId: res.SessionId, ModeId: "build"}); err == nil || !strings.Contains(err.Error(), "open a project folder") {
		t.Fatalf("set_mode build at home: %v, want refused", err)
	}
	// The project below home builds.
	if res := r.newSession(); res.Modes == nil || res.Modes.CurrentModeId != "build" {
		t.Fatalf("a session in the project starts in %+v, want build", res.Modes)
	}
}
