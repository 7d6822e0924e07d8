package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/instructions"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

// touch adds a tool call naming path to the session's history.
func touch(s *Session, tool, path string) {
	args, _ := json.Marshal(map[string]string{"path": path})
	s.append(llm.Message{Role: llm.RoleAssistant, ToolCalls: []agentproto.ToolCall{{ID: "c", Name: tool, Arguments: string(args)}}})
}

// TestInstructionFiles: which files a session's instructions hold, in which
// order, after which touches; files an attacker could plant to read what
// the tools may not (a symlink out of the workspace, a FIFO, a folder, a
// binary) are left out.
func TestInstructionFiles(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("SECRET KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		files   map[string]string
		links   map[string]string // name → target
		touches []string
		want    []string // the paths loaded, in order
	}{
		{name: "root only until a touch", files: map[string]string{"AGENTS.md": "r", "a/AGENTS.md": "a"}, want: []string{"AGENTS.md"}},
		{name: "a touch below adds the folders' files outermost first",
			files:   map[string]string{"AGENTS.md": "r", "a/AGENTS.md": "a", "a/b/CLAUDE.md": "b", "a/b/c.go": "x"},
			touches: []string{"a/b/c.go"}, want: []string{"AGENTS.md", "a/AGENTS.md", "a/b/CLAUDE.md"}},
		{name: "first touch order", files: map[string]string{"x/AGENTS.md": "x", "y/AGENTS.md": "y", "x/f": "", "y/f": ""},
			touches: []string{"y/f", "x/f", "y/f"}, want: []string{"y/AGENTS.md", "x/AGENTS.md"}},
		{name: "a folder touched itself", files: map[string]string{"d/AGENTS.md": "d"}, touches: []string{"d"}, want: []string{"d/AGENTS.md"}},
		{name: "AGENTS.md wins over CLAUDE.md", files: map[string]string{"AGENTS.md": "a", "CLAUDE.md": "c"}, want: []string{"AGENTS.md"}},
		{name: "copilot only at the root, only alone",
			files:   map[string]string{".github/copilot-instructions.md": "g", "d/.github/copilot-instructions.md": "n", "d/f": ""},
			touches: []string{"d/f"}, want: []string{".github/copilot-instructions.md"}},
		{name: "copilot shadowed", files: map[string]string{".github/copilot-instructions.md": "g", "CLAUDE.md": "c"}, want: []string{"CLAUDE.md"}},
		{name: "outside the workspace", files: map[string]string{"AGENTS.md": "r"}, touches: []string{"../x", "/etc/passwd"}, want: []string{"AGENTS.md"}},
		{name: "symlink out of the workspace", links: map[string]string{"AGENTS.md": outside}, want: nil},
		{name: "symlinked folder out of the workspace", links: map[string]string{"d": filepath.Dir(outside)},
			files: map[string]string{}, touches: []string{"d/secret"}, want: nil},
		{name: "a folder named AGENTS.md, a binary CLAUDE.md", files: map[string]string{"AGENTS.md/x": "", "CLAUDE.md": "a\x00b"}, want: nil},
		{name: "bad arguments touch nothing", files: map[string]string{"d/AGENTS.md": "d"}, touches: []string{""}, want: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t, noModel, &memEditor{}, nil)
			root := m.ws.Root()
			for name, text := range tc.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for name, target := range tc.links {
				if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
					t.Fatal(err)
				}
			}
			s := newTestSession(t, m, "plan")
			for _, p := range tc.touches {
				touch(s, "read", p)
			}
			set := s.instructions()
			var got []string
			for i, f := range set.Files() {
				got = append(got, f.Path)
				if strings.Contains(set.Texts()[i], "SECRET") {
					t.Fatalf("%s carries the secret", f.Path)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("loaded %q, want %q", got, tc.want)
			}
		})
	}
}

// TestInstructionsCap: the cap is shared by all files in order: the user's
// file first, a file past the cap is cut at a line end, the next left out,
// and each cut is noted; instructions.max_bytes 0 turns them off.
func TestInstructionsCap(t *testing.T) {
	t.Parallel()
	m, _ := newTestManager(t, noModel, &memEditor{}, func(c *config.Config) { c.Instructions.MaxBytes = 100 })
	user := filepath.Join(t.TempDir(), "AGENTS.md")
	if err := os.WriteFile(user, []byte(strings.Repeat("u", 51)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m.userInstructions, m.userHome = user, filepath.Dir(filepath.Dir(user))
	root := m.ws.Root()
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte(strings.Repeat("line of ten\n", 10)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "d", "AGENTS.md"), []byte("nested\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, m, "plan")
	touch(s, "ls", "d")
	set := s.instructions()
	want := []agentproto.InstructionFile{
		{Path: "~/" + filepath.Base(filepath.Dir(user)) + "/AGENTS.md", Bytes: 52},
		{Path: "AGENTS.md", Bytes: 120, Cut: true},
		{Path: "d/AGENTS.md", Bytes: 7, Cut: true},
	}
	files, texts := set.Files(), set.Texts()
	if len(files) != len(want) {
		t.Fatalf("files %+v, want %+v", files, want)
	}
	for i := range want {
		if files[i] != want[i] {
			t.Errorf("file %d = %+v, want %+v", i, files[i], want[i])
		}
	}
	if texts[1] != strings.Repeat("line of ten\n", 4) || texts[2] != "" {
		t.Errorf("texts %q", texts)
	}
	sec := instructions.Section(set, 100)
	for _, want := range []string{"[cut at 48 bytes of 120", "[left out: the instructions reached their cap of 100 bytes (instructions.max_bytes); the file has 7 bytes]"} {
		if !strings.Contains(sec, want) {
			t.Errorf("section lacks %q:\n%s", want, sec)
		}
	}
	m.Reconfigure(func() config.Config { c := m.config(); c.Instructions.MaxBytes = 0; return c }(), nil)
	if set := s.instructions(); len(set.Files()) != 0 || instructions.Section(set, 0) != "" {
		t.Fatalf("max_bytes 0 still loads %+v", set.Files())
	}
}

// TestInstructionsShownOncePerContent: instructions_loaded is sent when the
// set's content changes, not for each request.
func TestInstructionsShownOncePerContent(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noModel, ed, nil)
	s := newTestSession(t, m, "plan")
	p := filepath.Join(m.ws.Root(), "AGENTS.md")
	count := func() int {
		ed.mu.Lock()
		defer ed.mu.Unlock()
		n := 0
		for _, u := range ed.updates {
			if _, ok := u.(agentproto.InstructionsLoaded); ok {
				n++
			}
		}
		return n
	}
	for i, step := range []struct {
		text string // "" removes the file
		want int
	}{{"one", 1}, {"one", 1}, {"two", 2}, {"", 2}, {"two", 3}} {
		if step.text == "" {
			_ = os.Remove(p)
		} else if err := os.WriteFile(p, []byte(step.text), 0o644); err != nil {
			t.Fatal(err)
		}
		s.showInstructions(t.Context(), s.instructions())
		if got := count(); got != step.want {
			t.Fatalf("step %d: %d updates, want %d", i, got, step.want)
		}
	}
}

// noModel is a script for tests that send no model request.
const noModel = "name: none\nsteps:\n  - text: unused\n"
