package agentkinds

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/guard"
)

// TestUserKindFiles: what a kind file must hold to be read, and what it
// reads as; a bad file says why.
func TestUserKindFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		want       *Kind // nil when err is set
		err        string
	}{
		{name: "reviewer", text: "---\ndescription: reviews\n  well\nbase: explore\ntools: [read, ' grep ']\nmax_turns: 3\nmodel: m1\n---\nReview like a hawk.\n",
			want: &Kind{Name: "reviewer", Description: "reviews well", Base: Explore, Tools: []string{"read", "grep"}, MaxTurns: 3, Model: "m1", Instructions: "Review like a hawk.", Source: "user"}},
		{name: "named", text: "---\nname: other\nbase: build\ntools: []\n---\n", want: &Kind{Name: "other", Base: Build, Tools: []string{}, Source: "user"}},
		{name: "nofront", text: "just a body\n", err: "no frontmatter"},
		{name: "badbase", text: "---\nbase: admin\n---\nx\n", err: "base must be explore or build"},
		{name: "unknownfield", text: "---\nbase: explore\nallow: all\n---\nx\n", err: "frontmatter: yaml"},
		{name: "badname", text: "---\nname: a b\nbase: explore\n---\n", err: `name "a b"`},
		{name: "negative", text: "---\nbase: explore\nmax_turns: -1\n---\n", err: "max_turns must not be negative"},
		{name: "binary", text: "---\nbase: explore\n---\n\xff", err: "not UTF-8 text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".md")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			k, err := readAgentFile(path, tc.name, "user", "")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.want.Path = path
			if k.Name != tc.want.Name || k.Description != tc.want.Description || k.Base != tc.want.Base || !slices.Equal(k.Tools, tc.want.Tools) ||
				(k.Tools == nil) != (tc.want.Tools == nil) || k.MaxTurns != tc.want.MaxTurns || k.Model != tc.want.Model ||
				k.Instructions != tc.want.Instructions || k.Source != tc.want.Source || k.Path != tc.want.Path {
				t.Fatalf("kind %+v, want %+v", k, tc.want)
			}
		})
	}
}

// TestRead: the built-ins are always there and never shadowed; a later
// folder wins for a name; a broken file is left out.
func TestRead(t *testing.T) {
	t.Parallel()
	proj, user := t.TempDir(), t.TempDir()
	for path, text := range map[string]string{
		filepath.Join(proj, "a.md"):       "---\nbase: explore\ndescription: project\n---\n",
		filepath.Join(user, "a.md"):       "---\nbase: build\ndescription: mine\n---\n",
		filepath.Join(proj, "explore.md"): "---\nbase: build\n---\nshadow\n",
		filepath.Join(user, "broken.md"):  "---\nbase: admin\n---\n",
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kinds := Read([]Folder{{Dir: proj, Source: "project"}, {Dir: user, Source: "user"}})
	if got := Names(kinds); got != "a, build, explore" {
		t.Fatalf("Names = %q", got)
	}
	if a := kinds["a"]; a.Description != "mine" || a.Source != "user" {
		t.Errorf("a = %+v, want the user's", a)
	}
	if e := kinds[Explore]; e.Source != "built-in" || e.Base != Explore {
		t.Errorf("explore = %+v, want the built-in", e)
	}
}

// TestToolsOf: explore gets only read-only unattended tools, never task;
// build gets no mode switch and task only when another level is allowed;
// a kind's list and the parent's grant narrow them.
func TestToolsOf(t *testing.T) {
	t.Parallel()
	reg, err := tools.NewRegistry(tools.All()...)
	if err != nil {
		t.Fatal(err)
	}
	explore := ToolsOf(reg, builtins[Explore], nil, true)
	for _, name := range explore {
		d, _ := reg.Declarations().Lookup(name)
		if name == TaskTool || d.Class != guard.ClassReadOnly || d.Interaction != guard.Unattended {
			t.Errorf("explore gets %s", name)
		}
	}
	if !slices.Contains(explore, "read") || !slices.Contains(explore, "grep") {
		t.Errorf("explore tools %v lack read or grep", explore)
	}
	build := ToolsOf(reg, builtins[Build], nil, true)
	for _, name := range []string{"enter_plan_mode", "exit_plan_mode"} {
		if slices.Contains(build, name) {
			t.Errorf("build gets %s", name)
		}
	}
	if !slices.Contains(build, TaskTool) || !slices.Contains(build, "write") {
		t.Errorf("build tools %v lack task or write", build)
	}
	if slices.Contains(ToolsOf(reg, builtins[Build], nil, false), TaskTool) {
		t.Error("build gets task with no level left")
	}
	narrow := &Kind{Name: "n", Base: Build, Tools: []string{"read", "write", "exit_plan_mode"}}
	if got := ToolsOf(reg, narrow, guard.NewGrant("parent", "read", "task"), true); !slices.Equal(got, []string{"read"}) {
		t.Errorf("narrowed tools %v, want [read]", got)
	}
	if got := ToolsOf(reg, &Kind{Name: "x", Base: "admin"}, nil, true); len(got) != 0 {
		t.Errorf("unknown base gets %v", got)
	}
}
