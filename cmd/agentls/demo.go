package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/internal/udiff"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/sandbox"
	"github.com/agentls/agentls/server"
)

// demoFS holds the demo's assets, shipped inside the binary: the sample
// project (testdata/demo) and the scripted model's transcript
// (testdata/demo.yaml). They live under testdata so that the go tool does not
// take the sample project for a package of this module.
//
//go:embed testdata/demo testdata/demo.yaml
var demoFS embed.FS

// runDemo runs the real server in-process over real pipes, with the scripted
// model and a scripted editor, on a temporary copy of the sample project, and
// prints what happens. It returns 0 only if every step happened.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("demo", flag.ContinueOnError)
	fset.SetOutput(stderr)
	if len(args) == 1 && isHelpFlag(args[0]) {
		fset.SetOutput(stdout) // asked for: stdout, like agentls --help
	}
	keep := fset.Bool("keep", false, "keep the temporary workspace and print its path")
	color := fset.Bool("color", isTerminal(stdout), "colour the status bar")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) { // asked for (its usage went to stdout)
			return 0
		}
		return 2
	}
	d := &demo{out: stdout, progress: stderr, color: *color}
	dir, err := demoFolder(*keep)
	if err != nil {
		fmt.Fprintf(stderr, "demo: %v\n", err)
		return 1
	}
	if *keep {
		fmt.Fprintf(stdout, "workspace: %s\n", dir)
	} else {
		defer removeDemo(dir)
	}
	if err := d.run(ctx, dir); err != nil {
		fmt.Fprintf(stdout, "\nDEMO FAILED: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, "\nDemo complete: every step happened.")
	return 0
}

// demoPrefix begins the name of the demo's workspace folder.
const demoPrefix = "agentls-demo-"

// demoFolder makes the demo's workspace: one to keep in the system's
// temporary folder; else in this process's own (sandbox.TempRoot), so
// that a later agentls removes it when the demo is killed before it could.
func demoFolder(keep bool) (string, error) {
	parent := ""
	if !keep {
		root, err := sandbox.TempRoot()
		if err != nil {
			return "", err
		}
		parent = root
	}
	dir, err := os.MkdirTemp(parent, demoPrefix)
	if err != nil {
		return "", fmt.Errorf("the demo's workspace: %w", err)
	}
	return dir, nil
}

// demoHome is the demo's own home folder, beside its workspace dir (not
// inside: agentls opens no workspace that holds the home folder): the
// server's environment (demoEnv) names it as HOME, XDG_CONFIG_HOME and
// XDG_STATE_HOME, so that the demo reads no configuration of the user's (a
// broken file failed the demo; a model, MCP servers to start, commands and
// run rules changed its story) and leaves nothing in the user's state
// folder (plan locks, trust). Nothing needs to exist in it.
func demoHome(dir string) string {
	return filepath.Join(filepath.Dir(dir), "agentls-home-"+strings.TrimPrefix(filepath.Base(dir), demoPrefix))
}

// demoEnv is the demo server's environment: its own home (demoHome) and
// nothing else (no key, no network settings).
func demoEnv(dir string) func(string) string {
	home := demoHome(dir)
	return func(key string) string {
		switch key {
		case "HOME":
			return home
		case "XDG_CONFIG_HOME":
			return filepath.Join(home, ".config")
		case "XDG_STATE_HOME":
			return filepath.Join(home, ".local", "state")
		}
		return ""
	}
}

// removeDemo removes the demo's workspace, its home (demoHome) and its
// cache folders (removeDemoCaches).
func removeDemo(dir string) {
	removeDemoCaches(dir)
	if err := os.RemoveAll(demoHome(dir)); err != nil {
		slog.Warn("demo: remove the demo's home", "folder", demoHome(dir), "err", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		slog.Warn("demo: remove the workspace", "folder", dir, "err", err)
	}
}

// removeDemoCaches removes the cache folders the sandbox gave the commands
// of the demo's workspace dir (`go test` fills about 100 MB of build cache
// there, which nothing would reclaim once the workspace is gone).
func removeDemoCaches(dir string) {
	folders := []string{dir}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		folders = append(folders, real) // the folder as the server may have named it
	}
	for _, f := range folders {
		for _, c := range tools.CacheFolders(f) {
			if err := os.RemoveAll(c); err != nil {
				slog.Warn("demo: remove the workspace's cache", "folder", c, "err", err)
			}
		}
	}
}

// sweepDemoCaches is the sweep's hook (sandbox.SetStaleTempHook): the
// cache folders of each demo workspace in a killed agentls's folder go
// with it.
func sweepDemoCaches(stale string) {
	demos, _ := filepath.Glob(filepath.Join(stale, demoPrefix+"*"))
	for _, d := range demos {
		removeDemoCaches(d)
	}
}

type demo struct {
	out io.Writer
	// progress gets what the demo waits for before a step that may take
	// long (stderr: the transcript stays as it is).
	progress io.Writer
	color    bool
	mu       sync.Mutex
	inMsg    bool // in the middle of streamed assistant text
}

// slowStep is what the demo says on progress before the scripted `go
// test`: with a fresh build cache (the sandbox gives each workspace its
// own) it compiles the standard library first, minutes on a slow machine.
const slowStep = "demo: running go test in the demo workspace (the first run compiles the standard library: this may take a few minutes)…"

// waitingFor tells progress what the demo waits for, when the tool call
// titled title may take long.
func (d *demo) waitingFor(title string) {
	if strings.Contains(title, "go test") {
		d.mu.Lock()
		defer d.mu.Unlock()
		fmt.Fprintln(d.progress, slowStep)
	}
}

func (d *demo) printf(format string, args ...any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.inMsg {
		fmt.Fprintln(d.out)
		d.inMsg = false
	}
	fmt.Fprintf(d.out, format, args...)
}

func (d *demo) run(ctx context.Context, dir string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if err := copyDemo(dir); err != nil {
		return err
	}
	scriptData, err := demoFS.ReadFile("testdata/demo.yaml")
	if err != nil {
		return err
	}
	script, err := scripted.Parse(scriptData)
	if err != nil {
		return fmt.Errorf("demo script: %w", err)
	}
	model := scripted.New(script)
	opts := server.Options{
		Version: version,
		NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) {
			return model, nil
		},
		Getenv: demoEnv(dir), // the demo's own home; no key, no network: nothing from the environment
	}
	var approvals int
	ed, err := lspclient.Start(ctx, dir, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return server.Serve(ctx, rwc, opts)
	}, lspclient.Handlers{
		OnMessage: d.show,
		AskUser: func(params json.RawMessage) any {
			var p struct {
				Purpose   string `json:"purpose"`
				Questions []struct {
					Question string `json:"question"`
				} `json:"questions"`
			}
			_ = json.Unmarshal(params, &p)
			if p.Purpose == "plan_approval" {
				approvals++
				d.printf("  [editor] the plan opens; the user reads it and clicks \"Accept & Build\"\n")
				// A person takes a moment: an answer within
				// permission.HumanFloor is marked as a client's
				// auto-approve, which the demo's user is not.
				select {
				case <-time.After(permission.HumanFloor):
				case <-ctx.Done():
				}
				return map[string]any{"answers": map[string]any{"approve": true}}
			}
			d.printf("  [editor] the user dismisses a question\n")
			return map[string]any{"dismissed": true}
		},
	})
	if err != nil {
		return err
	}
	defer ed.Close()

	var init map[string]any
	caps := map[string]any{
		"workspace":    map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}}},
		"window":       map[string]any{"showDocument": map[string]any{"support": true}},
		"experimental": map[string]any{"agent": map[string]any{"askUser": true, "modeIndicator": true, "savesEdits": true}},
	}
	if err := ed.Call(ctx, "initialize", map[string]any{"rootUri": "file://" + filepath.ToSlash(dir), "capabilities": caps}, &init); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if err := ed.Notify(ctx, "initialized", map[string]any{}); err != nil {
		return err
	}
	var sess struct {
		SessionID string `json:"sessionId"`
		Mode      string `json:"mode"`
	}
	if err := ed.Call(ctx, "agent/newSession", map[string]any{"title": "Add a health endpoint"}, &sess); err != nil {
		return fmt.Errorf("new session: %w", err)
	}
	d.printf("\n%s  session %s\n", d.statusBar(sess.Mode), sess.SessionID)
	prompt := "Add a GET /health endpoint that answers ok, with a test."
	d.printf("\nuser> %s\n\n", prompt)
	var res struct {
		StopReason string `json:"stopReason"`
		Error      *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": sess.SessionID, "text": prompt}, &res); err != nil {
		return fmt.Errorf("prompt: %w", err)
	}
	d.printf("\nturn ended: %s\n", res.StopReason)
	if res.Error != nil {
		return fmt.Errorf("turn failed: %s", res.Error.Message)
	}
	if err := ed.Shutdown(ctx); err != nil {
		return err
	}
	diff, err := workspaceDiff(dir)
	if err != nil {
		return err
	}
	d.printf("\nFinal diff of the workspace:\n%s", diff)
	var said strings.Builder
	for _, st := range script.Steps {
		said.WriteString(st.Text)
	}
	return verifyDemo(dir, ed.Messages(), said.String(), res.StopReason, model.Remaining(), approvals, ed.Mode(sess.SessionID))
}

// verifyDemo checks that every step of the story happened.
// said is everything the script's model says, which must reach the editor
// whole and in order.
func verifyDemo(dir string, msgs []lspclient.Message, said, stop string, remaining, approvals int, finalMode string) error {
	var errs []error
	check := func(ok bool, what string) {
		if !ok {
			errs = append(errs, errors.New(what))
		}
	}
	check(stop == "end_turn", "the turn did not end normally (stopReason "+stop+")")
	check(remaining == 0, fmt.Sprintf("the script has %d steps left", remaining))
	check(approvals == 1, "the plan approval was not asked exactly once")
	check(finalMode == "build", "the status bar does not show BUILD")
	refused, editsToMain := false, 0
	var streamed strings.Builder
	for _, m := range msgs {
		s := string(m.Params)
		var u struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
				Content       struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"update"`
		}
		if m.Method == "agent/update" && json.Unmarshal(m.Params, &u) == nil && u.Update.SessionUpdate == "agent_message_chunk" {
			streamed.WriteString(u.Update.Content.Text)
		}
		if m.Method == "agent/update" && strings.Contains(s, `"tool_call_update"`) && strings.Contains(s, `"refusal"`) && strings.Contains(s, `"failed"`) {
			refused = true
		}
		if m.Method == "workspace/applyEdit" && strings.Contains(s, "main.go") {
			editsToMain++
		}
	}
	check(streamed.String() == said, "the agent's streamed text did not arrive whole and in order")
	check(refused, "the source edit in plan mode was not refused")
	check(editsToMain >= 2, "the builder's edits did not go through workspace/applyEdit")
	plan, err := os.ReadFile(filepath.Join(dir, config.DefaultPlansDir, "health-endpoint.plan"))
	check(err == nil && strings.Contains(string(plan), "status: implemented") && !strings.Contains(string(plan), "- [ ]"),
		"the plan is missing, not implemented, or has unticked steps")
	main, err := os.ReadFile(filepath.Join(dir, "main.go"))
	check(err == nil && strings.Contains(string(main), `mux.HandleFunc("/health", health)`), "main.go has no /health route")
	return errors.Join(errs...)
}

// show prints a server message as a transcript line.
func (d *demo) show(m lspclient.Message) {
	switch m.Method {
	case "agent/update":
		var p struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
				Content       json.RawMessage
				Title         string          `json:"title"`
				Kind          string          `json:"kind"`
				Status        string          `json:"status"`
				RawOutput     json.RawMessage `json:"rawOutput"`
				Refusal       json.RawMessage `json:"refusal"`
				Entries       []struct {
					Content string `json:"content"`
					Status  string `json:"status"`
				} `json:"entries"`
			} `json:"update"`
		}
		if json.Unmarshal(m.Params, &p) != nil {
			return
		}
		u := p.Update
		switch u.SessionUpdate {
		case "agent_message_chunk":
			var c struct {
				Text string `json:"text"`
			}
			_ = json.Unmarshal(u.Content, &c)
			d.mu.Lock()
			if !d.inMsg {
				fmt.Fprint(d.out, "agent> ")
				d.inMsg = true
			}
			fmt.Fprint(d.out, c.Text)
			d.mu.Unlock()
		case "tool_call":
			if u.Status == "in_progress" {
				d.printf("  → %s\n", u.Title)
				d.waitingFor(u.Title)
			}
		case "tool_call_update":
			if u.Status == "failed" {
				var r struct {
					Error string `json:"error"`
				}
				_ = json.Unmarshal(u.RawOutput, &r)
				label := "failed"
				if len(u.Refusal) > 0 {
					label = "REFUSED"
				}
				d.printf("    ✗ %s: %s\n", label, r.Error)
			}
		case "plan":
			done := 0
			for _, e := range u.Entries {
				if e.Status == "completed" {
					done++
				}
			}
			d.printf("  [plan] %d/%d steps done\n", done, len(u.Entries))
		}
	case "agent/modeChanged":
		var p struct {
			Mode   string `json:"mode"`
			Source string `json:"source"`
		}
		if json.Unmarshal(m.Params, &p) == nil && p.Source == "tool" {
			d.printf("\n%s  (mode changed after approval)\n\n", d.statusBar(p.Mode))
		}
	case "window/logMessage":
		var p struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(m.Params, &p) != nil:
		case strings.HasPrefix(p.Message, "[plan-mode]"):
			d.printf("  %s\n", p.Message)
		default: // what the editor's log shows the user
			d.printf("  [editor log] %s\n", p.Message)
		}
	case "workspace/applyEdit":
		var p struct {
			Label string `json:"label"`
		}
		_ = json.Unmarshal(m.Params, &p)
		d.printf("  [editor] applies edit: %s\n", p.Label)
	case "window/showDocument":
		d.printf("  [editor] opens the plan\n")
	}
}

// statusBar renders the mode indicator as an editor's status bar shows it.
func (d *demo) statusBar(mode string) string {
	label, code := "[ PLAN ]", "44" // blue
	if mode == "build" {
		label, code = "[ BUILD ]", "42" // green
	}
	if d.color {
		return "\x1b[1;37;" + code + "m " + label + " \x1b[0m"
	}
	return "status bar: " + label
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// copyDemo copies the embedded sample project into dir.
func copyDemo(dir string) error {
	root := "testdata/demo"
	return fs.WalkDir(demoFS, root, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := demoName(strings.TrimPrefix(strings.TrimPrefix(path, root), "/"))
		target := filepath.Join(dir, filepath.FromSlash(rel))
		if de.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := demoFS.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// demoName maps an embedded file name to its name in the workspace: the
// sample project's go.mod is stored as go.mod.tmpl, since a go.mod would make
// it a separate module that cannot be embedded.
func demoName(rel string) string {
	if rel == "go.mod.tmpl" {
		return "go.mod"
	}
	return rel
}

// workspaceDiff is the unified diff between the sample project and dir.
func workspaceDiff(dir string) (string, error) {
	root := "testdata/demo"
	before := map[string]string{}
	err := fs.WalkDir(demoFS, root, func(path string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		data, err := demoFS.ReadFile(path)
		before[demoName(strings.TrimPrefix(path, root+"/"))] = string(data)
		return err
	})
	if err != nil {
		return "", err
	}
	after := map[string]string{}
	err = filepath.WalkDir(dir, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.IsDir() {
			if de.Name() == ".agentls" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		data, err := os.ReadFile(path)
		after[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		return "", err
	}
	names := map[string]bool{}
	for n := range before {
		names[n] = true
	}
	for n := range after {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	var b strings.Builder
	for _, n := range sorted {
		if before[n] != after[n] {
			b.WriteString(udiff.Unified(n, before[n], after[n]))
		}
	}
	return b.String(), nil
}
