package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

// nopEditor is an editor that shows nothing and applies changes on disk:
// the host's tests look at the host, not at a face.
type nopEditor struct{ DiskApplier }

func (nopEditor) Update(context.Context, string, agent.Update)              {}
func (nopEditor) ModeChanged(context.Context, agentproto.ModeChangedParams) {}
func (nopEditor) Notify(context.Context, string)                            {}
func (nopEditor) Ask(context.Context, agent.AskRequest) (agent.AskReply, error) {
	return agent.AskReply{}, agent.ErrNoSurface
}
func (nopEditor) ShowDocument(context.Context, string) error           { return nil }
func (nopEditor) StartProgress(context.Context, string) agent.Progress { return nopProgress{} }

type nopProgress struct{}

func (nopProgress) Report(context.Context, string) {}
func (nopProgress) End(context.Context)            {}

// models records the configurations the host built models for.
type models struct {
	mu    sync.Mutex
	built []config.Model
	roots []string
	err   error // returned instead of a model when set
}

func (m *models) factory(cfg config.Config, _ func(string) string, root string) (llm.Provider, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.built = append(m.built, cfg.Model)
	m.roots = append(m.roots, root)
	if m.err != nil {
		return nil, m.err
	}
	return BrokenProvider{Err: errors.New("test model: not for turns")}, nil
}

func (m *models) names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, b := range m.built {
		out = append(out, b.Name)
	}
	return out
}

// env is a test environment: its own config and state folders.
type env struct {
	vars      map[string]string
	userFile  string
	stateDir  string
	workspace string
}

func newEnv(t *testing.T) env {
	t.Helper()
	base := t.TempDir()
	e := env{
		vars:      map[string]string{"XDG_CONFIG_HOME": filepath.Join(base, "config"), "XDG_STATE_HOME": filepath.Join(base, "state"), "HOME": filepath.Join(base, "home")},
		workspace: filepath.Join(base, "ws"),
	}
	e.userFile = filepath.Join(base, "config", "agentls", "config.yaml")
	e.stateDir = filepath.Join(base, "state", "agentls")
	if err := os.MkdirAll(e.workspace, 0o755); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e env) getenv(k string) string { return e.vars[k] }

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e env) options(m *models) Options {
	return Options{Folders: []string{e.workspace}, Getenv: e.getenv, NewProvider: m.factory, Editor: nopEditor{}}
}

// TestConfigLayers: initializationOptions > .agentls.yaml (whole only once
// trusted; its narrowing keys at once) > the user's config.yaml >
// environment > defaults; --config replaces the workspace file and is not
// subject to trust.
func TestConfigLayers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		env         map[string]string
		user        string
		workspace   string
		trusted     bool
		configFile  string // its content; the file lives outside the workspace
		initOptions map[string]any
		wantName    string
		wantTurns   int
		wantPending []string
	}{
		{name: "defaults", wantName: config.Default().Model.Name, wantTurns: config.Default().MaxTurnRequests},
		{name: "environment", env: map[string]string{"AGENTLS_MODEL": "env-model"}, wantName: "env-model", wantTurns: config.Default().MaxTurnRequests},
		{name: "user file over environment", env: map[string]string{"AGENTLS_MODEL": "env-model"},
			user: "model:\n  name: user-model\nmax_turn_requests: 30\n", wantName: "user-model", wantTurns: 30},
		{name: "untrusted workspace file: narrowing keys only", user: "model:\n  name: user-model\nmax_turn_requests: 30\n",
			workspace: "model:\n  name: ws-model\nmax_turn_requests: 7\n", wantName: "user-model", wantTurns: 7, wantPending: []string{"model.name"}},
		{name: "untrusted workspace file cannot widen", user: "max_turn_requests: 30\n",
			workspace: "max_turn_requests: 300\n", wantName: config.Default().Model.Name, wantTurns: 30, wantPending: []string{"max_turn_requests"}},
		{name: "trusted workspace file", user: "model:\n  name: user-model\n",
			workspace: "model:\n  name: ws-model\nmax_turn_requests: 7\n", trusted: true, wantName: "ws-model", wantTurns: 7},
		{name: "initializationOptions over all", env: map[string]string{"AGENTLS_MODEL": "env-model"}, user: "model:\n  name: user-model\n",
			workspace: "model:\n  name: ws-model\n", trusted: true, initOptions: map[string]any{"model": map[string]any{"name": "init-model"}},
			wantName: "init-model", wantTurns: config.Default().MaxTurnRequests},
		{name: "--config replaces the workspace file, trusted as named", workspace: "model:\n  name: ws-model\n",
			configFile: "model:\n  name: flag-model\nmax_turn_requests: 300\n", wantName: "flag-model", wantTurns: 300},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			for k, v := range tc.env {
				e.vars[k] = v
			}
			if tc.user != "" {
				writeFile(t, e.userFile, tc.user)
			}
			wsFile := filepath.Join(e.workspace, ".agentls.yaml")
			if tc.workspace != "" {
				writeFile(t, wsFile, tc.workspace)
			}
			store := config.NewTrustStore(e.stateDir)
			if tc.trusted {
				if err := store.Trust(wsFile, []byte(tc.workspace), testTime); err != nil {
					t.Fatal(err)
				}
			}
			m := &models{}
			opts := e.options(m)
			opts.TrustStore, opts.InitOptions = store, tc.initOptions
			if tc.configFile != "" {
				opts.ConfigFile = filepath.Join(t.TempDir(), "flag.yaml")
				writeFile(t, opts.ConfigFile, tc.configFile)
			}
			h, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			cfg := h.Config()
			if cfg.Model.Name != tc.wantName || cfg.MaxTurnRequests != tc.wantTurns {
				t.Errorf("model %q, max_turn_requests %d; want %q, %d", cfg.Model.Name, cfg.MaxTurnRequests, tc.wantName, tc.wantTurns)
			}
			if got := m.names(); !slices.Equal(got, []string{tc.wantName}) {
				t.Errorf("models built for %q, want one for %q", got, tc.wantName)
			}
			if got := h.Manager().Provider(); got == nil {
				t.Error("the manager has no model")
			}
			_, trust := h.Reload()
			if !slices.Equal(trust.Widening, tc.wantPending) {
				t.Errorf("keys waiting for trust %q, want %q", trust.Widening, tc.wantPending)
			}
		})
	}
}

// TestTrustThenReconfigure: once the user trusts the workspace file, a
// reload applies all of it and the model is built again; the same
// configuration again changes nothing.
func TestTrustThenReconfigure(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	wsFile := filepath.Join(e.workspace, ".agentls.yaml")
	writeFile(t, wsFile, "model:\n  name: ws-model\n")
	m := &models{}
	opts := e.options(m)
	opts.TrustStore = config.NewTrustStore(e.stateDir)
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.TrustFile() != wsFile || !h.IsTrustFile(wsFile) || h.IsTrustFile(filepath.Join(e.workspace, "other.yaml")) {
		t.Fatalf("TrustFile = %q", h.TrustFile())
	}
	cfg, trust := h.Reload()
	if !trust.Pending() || cfg.Model.Name == "ws-model" {
		t.Fatalf("before trust: pending %v, model %q", trust.Widening, cfg.Model.Name)
	}
	if h.Reconfigure(cfg) {
		t.Fatal("Reconfigure with the configuration in effect reported a change")
	}
	if err := h.Trust(trust); err != nil {
		t.Fatal(err)
	}
	cfg, trust = h.Reload()
	if trust.Pending() || cfg.Model.Name != "ws-model" {
		t.Fatalf("after trust: pending %v, model %q", trust.Widening, cfg.Model.Name)
	}
	if !h.Reconfigure(cfg) || h.Config().Model.Name != "ws-model" {
		t.Fatalf("Reconfigure did not apply the trusted file: %q", h.Config().Model.Name)
	}
	if got := m.names(); len(got) != 2 || got[1] != "ws-model" {
		t.Fatalf("models built %q, want a second one for ws-model", got)
	}
	// A second host of the same workspace remembers the trust (the store
	// is on disk).
	opts.TrustStore = nil
	h2, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	if h2.Config().Model.Name != "ws-model" {
		t.Fatalf("a new host ignored the remembered trust: %q", h2.Config().Model.Name)
	}
}

// TestBrokenModel: a model that cannot be built does not stop the host;
// every turn and agent/checkModel say why.
func TestBrokenModel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := &models{err: errors.New("model.script (the transcript file) is not set")}
	h, err := New(e.options(m))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, ok := h.Manager().Provider().(BrokenProvider); !ok {
		t.Fatalf("provider %T, want BrokenProvider", h.Manager().Provider())
	}
	check := h.Manager().CheckModel(context.Background())
	if check.OK || !strings.Contains(check.Message, "model.script") {
		t.Fatalf("CheckModel = %+v", check)
	}
}

// TestNewRefuses: a folder that does not exist is the client's mistake
// (WorkspaceError); a host needs an editor.
func TestNewRefuses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	opts := e.options(&models{})
	opts.Folders = []string{filepath.Join(e.workspace, "missing")}
	_, err := New(opts)
	var wsErr *WorkspaceError
	if !errors.As(err, &wsErr) || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("New(missing folder) = %v, want a WorkspaceError naming it", err)
	}
	// A workspace folder in a protected folder would make all of it the
	// agent's to change (.git/hooks run code; .agentls holds the modes).
	for _, dir := range []string{".git", ".git/hooks", ".agentls/chats", ".Git", "sub/.jj"} {
		if err := os.MkdirAll(filepath.Join(e.workspace, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(t.TempDir(), "hooks-link")
	if err := os.Symlink(filepath.Join(e.workspace, ".git", "hooks"), link); err != nil {
		t.Fatal(err)
	}
	for _, folder := range []string{
		filepath.Join(e.workspace, ".git"), filepath.Join(e.workspace, ".git", "hooks"), filepath.Join(e.workspace, ".agentls", "chats"),
		filepath.Join(e.workspace, ".Git"), filepath.Join(e.workspace, "sub", ".jj"), link,
	} {
		opts = e.options(&models{})
		opts.Folders = []string{folder}
		_, err := New(opts)
		if !errors.As(err, &wsErr) || !strings.Contains(err.Error(), "agentls never changes") {
			t.Errorf("New(%s) = %v, want a WorkspaceError: a protected folder", folder, err)
		}
	}
	opts = e.options(&models{})
	opts.Folders = []string{filepath.Join(e.workspace, "sub")}
	if h, err := New(opts); err != nil {
		t.Errorf("New(a plain subfolder) = %v", err)
	} else {
		h.Close()
	}
	opts = e.options(&models{})
	opts.Editor = nil
	if _, err := New(opts); err == nil || !strings.Contains(err.Error(), "editor is required") {
		t.Fatalf("New without editor = %v", err)
	}
}

// TestSeveralHosts: one process hosts two workspaces side by side (the ACP
// face: one host per session/new cwd), each with its own configuration,
// model and sessions.
func TestSeveralHosts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := t.TempDir()
	store := config.NewTrustStore(e.stateDir)
	for _, dir := range []string{e.workspace, other} {
		writeFile(t, filepath.Join(dir, ".agentls.yaml"), "model:\n  name: m-"+filepath.Base(dir)+"\n")
		if err := store.Trust(filepath.Join(dir, ".agentls.yaml"), []byte("model:\n  name: m-"+filepath.Base(dir)+"\n"), testTime); err != nil {
			t.Fatal(err)
		}
	}
	m := &models{}
	var hosts []*Host
	for _, dir := range []string{e.workspace, other} {
		opts := e.options(m)
		opts.Folders, opts.TrustStore = []string{dir}, store
		h, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		hosts = append(hosts, h)
	}
	ctx := context.Background()
	a, err := hosts[0].Manager().NewSession(ctx, "plan", "a")
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hosts {
		root, _ := filepath.EvalSymlinks([]string{e.workspace, other}[i])
		if h.Workspace().Root() != root || h.Config().Model.Name != "m-"+filepath.Base(root) {
			t.Errorf("host %d: root %q model %q", i, h.Workspace().Root(), h.Config().Model.Name)
		}
	}
	if _, err := os.Stat(filepath.Join(e.workspace, ".agentls", "chats", a.SessionID+".chat")); err != nil {
		t.Errorf("the first host's session is not in its workspace: %v", err)
	}
	if _, _, err := hosts[1].Manager().LoadSession(ctx, a.SessionID); err == nil {
		t.Error("the second host loaded the first host's session")
	} else if kind, _ := Classify(err); kind != KindUnknownSession {
		t.Errorf("loading another workspace's session: kind %v (%v), want unknown session", kind, err)
	}
}

// TestProtectedConfig: the guard protects the user's config folders (as
// this host's environment names them) and the --config file.
func TestProtectedConfig(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	opts := e.options(&models{})
	opts.ConfigFile = "flag.yaml"
	abs, err := filepath.Abs("flag.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := opts.ProtectedConfig()
	want := []string{filepath.Join(e.vars["XDG_CONFIG_HOME"], "agentls"), filepath.Join(e.vars["HOME"], ".config", "agentls"), abs}
	if !slices.Equal(got, want) {
		t.Fatalf("ProtectedConfig = %q, want %q", got, want)
	}
	if files := opts.ConfigFiles(""); !slices.Equal(files, []string{e.userFile, abs}) {
		t.Fatalf("ConfigFiles = %q", files)
	}
}

// testTime is when the tests' files were trusted.
var testTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
