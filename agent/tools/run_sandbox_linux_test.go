package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/allowrule"
	"github.com/agentls/agentls/sandbox"
)

// TestRunSandbox: run starts every command in the sandbox: a write
// outside the workspace fails and the result says the sandbox refused it;
// a write inside works; with sandbox.mode off the same write goes through
// and the result says the command ran unconfined.
func TestRunSandbox(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skipf("no sandbox layer here: %s", st.Summary)
	}
	outside := t.TempDir()
	target := filepath.Join(outside, "escaped")
	cmd := `{"command":"echo x > ` + target + `"}`

	env := newFake(t, nil)
	var got RunOutput
	value(t, call(t, runTool, env, cmd), &got)
	if got.ExitCode == 0 || !strings.Contains(got.Hint, "the sandbox may have refused this") || !strings.Contains(got.Sandbox, "writes only in the workspace") {
		t.Errorf("write outside the workspace: %+v", got)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatalf("%s was written", target)
	}
	got = RunOutput{}
	value(t, call(t, runTool, env, `{"command":"echo x > inside && cat inside"}`), &got)
	if got.ExitCode != 0 || got.Output != "x\n" || got.Hint != "" {
		t.Errorf("write inside the workspace: %+v", got)
	}

	env.cfg.Sandbox.Mode = "off"
	got = RunOutput{}
	value(t, call(t, runTool, env, cmd), &got)
	if got.ExitCode != 0 || !strings.Contains(got.Sandbox, "sandbox off") || got.Hint != "" {
		t.Errorf("mode off: %+v", got)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("mode off did not write %s: %v", target, err)
	}
}

// TestRunPolicy: what one command may do, built in one place.
func TestRunPolicy(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	t.Setenv("XDG_STATE_HOME", "/home/u/.local/state")
	t.Setenv("XDG_CONFIG_HOME", "/home/u/.config")
	t.Setenv("XDG_CACHE_HOME", "/home/u/.cache")
	env := newFake(t, nil)
	env.cfg.Sandbox.DenyRead = []string{"~/secrets", "/srv/keys", "relative"}
	env.cfg.Sandbox.AllowWrite = []string{"~/scratch"}
	env.cfg.Run.Network = []string{"go mod download", "npm ci"}
	p := runPolicy(env, "go mod download", true)
	for _, want := range []string{"/home/u/.ssh", "/home/u/secrets", "/srv/keys", "/home/u/.local/state/agentls", "/home/u/.config/agentls"} {
		if !contains(p.DenyRead, want) {
			t.Errorf("DenyRead %q lacks %s", p.DenyRead, want)
		}
	}
	if contains(p.DenyRead, "relative") {
		t.Errorf("a relative deny_read path was kept: %q", p.DenyRead)
	}
	if !contains(p.Writable, env.ws.Root()) || !contains(p.Writable, "/home/u/scratch") || !p.ProtectGit || !p.Network {
		t.Errorf("policy %+v", p)
	}
	if !strings.HasPrefix(p.CacheDir, "/home/u/.cache/agentls/") {
		t.Errorf("cache %s", p.CacheDir)
	}
	for _, c := range []string{"go mod download; curl evil", "curl x", "npm ci --prefix /"} {
		if runPolicy(env, c, false).Network {
			t.Errorf("%q got the network", c)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FuzzNetworkRule: a command gets the network only when it is one simple
// command whose words a run.network rule names (here exactly `go mod
// download`, or `npm ci` followed by words that are not options): no
// list, substitution, redirection or extra option rides along.
func FuzzNetworkRule(f *testing.F) {
	for _, s := range []string{"go mod download", "go mod download; curl x", "npm ci", "npm ci --registry=http://evil", "npm ci $(curl x)", "go mod download > /tmp/x", "go  mod   download", "'go' mod download"} {
		f.Add(s)
	}
	rules := []string{"go mod download", "npm ci *"}
	f.Fuzz(func(t *testing.T, command string) {
		if !NetworkAllowed(rules, command) {
			return
		}
		parsed, err := allowrule.Parse(strings.TrimSpace(command))
		if err != nil {
			t.Fatalf("%q got the network but is not one simple command: %v", command, err)
		}
		w := parsed.Words()
		exact := len(w) == 3 && w[0] == "go" && w[1] == "mod" && w[2] == "download"
		npm := len(w) >= 2 && w[0] == "npm" && w[1] == "ci"
		if !exact && !npm {
			t.Fatalf("%q got the network: words %q", command, w)
		}
	})
}

// TestSandboxHintNetwork: a refused command's hint says it had no network
// when it had none, and under Landlock alone that loopback went too.
func TestSandboxHintNetwork(t *testing.T) {
	const refused = "dial tcp 127.0.0.1:5432: socket: permission denied"
	for _, c := range []struct {
		name    string
		st      sandbox.Status
		network bool
		want    string // "" when the hint must not speak of the network
	}{
		{"bubblewrap, no network", sandbox.Status{Mode: "landlock+bwrap", Network: true}, false, "this command had no network (run.network"},
		{"landlock alone, no network", sandbox.Status{Mode: "landlock", Network: true}, false, "not even loopback"},
		{"landlock alone, given the network", sandbox.Status{Mode: "landlock", Network: true}, true, ""},
		{"bubblewrap, given the network", sandbox.Status{Mode: "landlock+bwrap", Network: true}, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := sandboxHint(c.st, c.network, 1, refused)
			if !strings.Contains(h, "the sandbox may have refused this") {
				t.Fatalf("no hint: %q", h)
			}
			if c.want == "" && strings.Contains(h, "had no network") {
				t.Errorf("the hint speaks of the network: %q", h)
			}
			if c.want != "" && !strings.Contains(h, c.want) {
				t.Errorf("hint %q; want it to say %q", h, c.want)
			}
			if !c.st.NoLoopback() && strings.Contains(h, "loopback") {
				t.Errorf("only Landlock alone loses loopback: %q", h)
			}
		})
	}
}
