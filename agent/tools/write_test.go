package tools

import (
	"errors"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

func TestWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		mode      agentproto.Mode
		args      string
		path      string // file expected on disk
		content   string
		created   bool
		plan      bool // recorded as a plan written in this phase
		wantError []string
		refused   bool
	}{
		{name: "create", args: `{"path":"src/new.go","content":"package src\n"}`, path: "src/new.go", content: "package src\n", created: true},
		{name: "overwrite", args: `{"path":"a.go","content":"package b\n"}`, path: "a.go", content: "package b\n"},
		{name: "empty content", args: `{"path":"empty.txt","content":""}`, path: "empty.txt", content: "", created: true},
		{name: "plan in plan mode", mode: agentproto.ModePlan, args: `{"path":"plans/x.plan","content":"# Goal\n"}`, path: "plans/x.plan", content: "# Goal\n", created: true, plan: true},
		{name: "source in plan mode", mode: agentproto.ModePlan, args: `{"path":"a.go","content":"package b\n"}`, refused: true},
		{name: "missing content", args: `{"path":"a.go"}`, wantError: []string{"content is required"}},
		{name: "directory", args: `{"path":"src","content":"x"}`, wantError: []string{"src is a directory"}},
		{name: "outside", args: `{"path":"../x.go","content":"x"}`, wantError: []string{"outside the workspace"}},
		{name: "bad JSON", args: `{"path":"a.go","content":}`, wantError: []string{"invalid arguments"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, map[string]string{"a.go": "package a\n", "src/keep.go": "package src\n"})
			if tt.mode != "" {
				env.setMode(tt.mode)
			}
			r := call(t, writeTool, env, tt.args)
			switch {
			case tt.refused:
				wantRefused(t, r, "write")
				if got := env.file("a.go"); got != "package a\n" {
					t.Errorf("refused write changed a.go to %q", got)
				}
				return
			case tt.wantError != nil:
				wantFail(t, r, tt.wantError...)
				if len(env.applied) != 0 {
					t.Errorf("a failed call applied changes: %+v", env.applied)
				}
				return
			}
			var got WriteOutput
			value(t, r, &got)
			want := WriteOutput{Path: tt.path, Bytes: len(tt.content), Created: tt.created, Hash: workspace.Hash(tt.content)}
			if got != want {
				t.Errorf("result = %+v, want %+v", got, want)
			}
			if disk := env.file(tt.path); disk != tt.content {
				t.Errorf("disk = %q, want %q", disk, tt.content)
			}
			if _, ok := env.written[tt.path]; ok != tt.plan {
				t.Errorf("PlanWritten recorded = %v, want %v", ok, tt.plan)
			}
			if len(env.applied) != 1 || env.applied[0].tool != "write" {
				t.Errorf("applied = %+v, want one write", env.applied)
			}
		})
	}
}

func TestWriteApplyFailure(t *testing.T) {
	t.Parallel()
	env := newFake(t, map[string]string{"a.go": "package a\n"})
	env.applyErr = errors.New("the editor refused the edit: document changed")
	r := call(t, writeTool, env, `{"path":"a.go","content":"x"}`)
	wantFail(t, r, "the editor refused the edit")
	if r.Refusal != nil {
		t.Errorf("an editor failure is not a refusal: %+v", r.Refusal)
	}
}

func TestEdit(t *testing.T) {
	t.Parallel()
	const orig = "one\ntwo\nthree\ntwo\n"
	tests := []struct {
		name      string
		args      string
		want      string // the file afterwards
		out       EditOutput
		wantError []string
	}{
		{
			name: "replace unique",
			args: `{"path":"f.txt","old_string":"three","new_string":"3"}`,
			want: "one\ntwo\n3\ntwo\n", out: EditOutput{Path: "f.txt", Replacements: 1},
		},
		{
			name: "replace all",
			args: `{"path":"f.txt","old_string":"two","new_string":"2","replace_all":true}`,
			want: "one\n2\nthree\n2\n", out: EditOutput{Path: "f.txt", Replacements: 2},
		},
		{
			name: "delete text",
			args: `{"path":"f.txt","old_string":"one\n","new_string":""}`,
			want: "two\nthree\ntwo\n", out: EditOutput{Path: "f.txt", Replacements: 1},
		},
		{
			name: "matching hash",
			args: `{"path":"f.txt","old_string":"one","new_string":"1","last_read_hash":"` + workspace.Hash(orig) + `"}`,
			want: "1\ntwo\nthree\ntwo\n", out: EditOutput{Path: "f.txt", Replacements: 1},
		},
		{
			name: "insert after a line",
			args: `{"path":"f.txt","insert_line":1,"insert_content":"one and a half"}`,
			want: "one\none and a half\ntwo\nthree\ntwo\n", out: EditOutput{Path: "f.txt", InsertedLines: 1},
		},
		{
			name: "insert at the top",
			args: `{"path":"f.txt","insert_line":0,"insert_content":"zero\nzero too\n"}`,
			want: "zero\nzero too\none\ntwo\nthree\ntwo\n", out: EditOutput{Path: "f.txt", InsertedLines: 2},
		},
		{name: "multiple matches", args: `{"path":"f.txt","old_string":"two","new_string":"2"}`, wantError: []string{"occurs 2 times", "replace_all"}},
		{name: "not found", args: `{"path":"f.txt","old_string":"four","new_string":"4"}`, wantError: []string{"old_string not found in f.txt"}},
		{name: "hash conflict", args: `{"path":"f.txt","old_string":"one","new_string":"1","last_read_hash":"0000000000000000"}`, wantError: []string{"changed since you read it", "0000000000000000"}},
		{name: "missing file", args: `{"path":"nope.txt","old_string":"a","new_string":"b"}`, wantError: []string{"nope.txt does not exist", "write"}},
		{name: "a folder", args: `{"path":".","old_string":"a","new_string":"b"}`, wantError: []string{". is a directory"}},
		{name: "both forms", args: `{"path":"f.txt","old_string":"a","new_string":"b","insert_line":1,"insert_content":"x"}`, wantError: []string{"not both"}},
		{name: "neither form", args: `{"path":"f.txt"}`, wantError: []string{"nothing to do"}},
		{name: "empty old_string", args: `{"path":"f.txt","old_string":"","new_string":"x"}`, wantError: []string{"old_string must not be empty"}},
		{name: "no new_string", args: `{"path":"f.txt","old_string":"one"}`, wantError: []string{"needs both old_string and new_string"}},
		{name: "same strings", args: `{"path":"f.txt","old_string":"one","new_string":"one"}`, wantError: []string{"the same"}},
		{name: "insert without content", args: `{"path":"f.txt","insert_line":2}`, wantError: []string{"needs both insert_line and insert_content"}},
		{name: "negative insert line", args: `{"path":"f.txt","insert_line":-1,"insert_content":"x"}`, wantError: []string{"must not be negative"}},
		{name: "outside", args: `{"path":"/etc/hosts","old_string":"a","new_string":"b"}`, wantError: []string{"outside the workspace"}},
		{name: "unknown field", args: `{"path":"f.txt","old":"a","new_string":"b"}`, wantError: []string{"invalid arguments", `"old"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, map[string]string{"f.txt": orig})
			r := call(t, editTool, env, tt.args)
			if tt.wantError != nil {
				wantFail(t, r, tt.wantError...)
				if got := env.file("f.txt"); got != orig {
					t.Errorf("a failed edit changed the file to %q", got)
				}
				return
			}
			var got EditOutput
			value(t, r, &got)
			tt.out.Hash = workspace.Hash(tt.want)
			if got != tt.out {
				t.Errorf("result = %+v, want %+v", got, tt.out)
			}
			if disk := env.file("f.txt"); disk != tt.want {
				t.Errorf("disk = %q, want %q", disk, tt.want)
			}
		})
	}
}

func TestEditHashChainsAndPlanMode(t *testing.T) {
	t.Parallel()
	env := newFake(t, map[string]string{"f.txt": "a\n", "plans/p.plan": "- [ ] step\n"})
	var first EditOutput
	value(t, call(t, editTool, env, `{"path":"f.txt","old_string":"a","new_string":"b"}`), &first)
	// The returned hash is valid as the next last_read_hash.
	var second EditOutput
	value(t, call(t, editTool, env, `{"path":"f.txt","old_string":"b","new_string":"c","last_read_hash":"`+first.Hash+`"}`), &second)
	if env.file("f.txt") != "c\n" {
		t.Fatalf("file = %q", env.file("f.txt"))
	}

	env.setMode(agentproto.ModePlan)
	wantRefused(t, call(t, editTool, env, `{"path":"f.txt","old_string":"c","new_string":"d"}`), "edit")
	value(t, call(t, editTool, env, `{"path":"plans/p.plan","old_string":"[ ]","new_string":"[x]"}`), &second)
	if got := env.written["plans/p.plan"]; got != "- [x] step\n" {
		t.Errorf("PlanWritten = %q", got)
	}
}
