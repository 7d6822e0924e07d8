package agent

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/sandbox"
)

// linkIndexCase is a workspace, the index of its auto-run links built in a
// first turn, a change made after it, and a BUILD call in a second turn.
type linkIndexCase struct {
	name  string
	files map[string]string
	dirs  []string
	links map[string]string
	// change is what the user does between the turns (root: the workspace).
	change func(t *testing.T, root string)
	// run is a command the second turn runs before the call (its question
	// and the one after it answered Apply and Keep).
	run  string
	call string // the second turn's call, id c
	// what is the call's question; "" when it must not be asked.
	what string
	// sameTick: the folders' stamps never move (as when every change
	// falls in the clock tick of the listing) and the clock is the real
	// one: only the racy rule sees the change. Otherwise the clock runs
	// linkRacyWindow ahead: every listing is trusted, and only the stamps
	// see the change.
	sameTick bool
	// max is the index's entry bound (0: maxAutoRunLinkWalk).
	max int
}

// linkWhy is the reason a question gives for a change where the link
// named leads.
func linkWhy(link string) string {
	return " — your editor or shell runs what `" + link + "` names by itself, outside agentls's sandbox"
}

var linkIndexCases = []linkIndexCase{
	{name: "a link the user made", files: map[string]string{"notes.txt": "a\n"}, dirs: []string{"sub"},
		change: func(t *testing.T, root string) { symlink(t, "../notes.txt", filepath.Join(root, "sub/.envrc")) },
		call:   `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`,
		what:   "edit `notes.txt`" + linkWhy("sub/.envrc")},
	{name: "a link the user made, its folder's modification time set back", files: map[string]string{"notes.txt": "a\n"}, dirs: []string{"sub"},
		change: func(t *testing.T, root string) {
			sub := filepath.Join(root, "sub")
			fi, err := os.Stat(sub)
			if err != nil {
				t.Fatal(err)
			}
			symlink(t, "../notes.txt", filepath.Join(sub, ".envrc"))
			if err := os.Chtimes(sub, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		},
		call: `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`,
		what: "edit `notes.txt`" + linkWhy("sub/.envrc")},
	{name: "a link the user made in the clock tick of the listing", files: map[string]string{"notes.txt": "a\n"}, dirs: []string{"sub"},
		change:   func(t *testing.T, root string) { symlink(t, "../notes.txt", filepath.Join(root, "sub/.envrc")) },
		call:     `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`,
		what:     "edit `notes.txt`" + linkWhy("sub/.envrc"),
		sameTick: true},
	{name: "a link a run command made, kept", files: map[string]string{"notes.txt": "a\n"}, dirs: []string{"sub"},
		run:  "ln -s ../notes.txt sub/.envrc",
		call: `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`,
		what: "edit `notes.txt`" + linkWhy("sub/.envrc")},
	{name: "a link deep under a new folder", dirs: []string{"cfg"},
		change: func(t *testing.T, root string) {
			if err := os.MkdirAll(filepath.Join(root, "a/b/c"), 0o755); err != nil {
				t.Fatal(err)
			}
			symlink(t, "../../../cfg", filepath.Join(root, "a/b/c/.vscode"))
		},
		call: `{id: c, name: write, args: {path: cfg/tasks.json, content: "{}"}}`,
		what: "create `cfg/tasks.json`" + linkWhy("a/b/c/.vscode/tasks.json")},
	{name: "a folder holding a link renamed to .vscode", files: map[string]string{"cfg/t.json": "{}"}, dirs: []string{"sub/vs"},
		links: map[string]string{"sub/vs/tasks.json": "../../cfg/t.json"},
		change: func(t *testing.T, root string) {
			if err := os.Rename(filepath.Join(root, "sub/vs"), filepath.Join(root, "sub/.vscode")); err != nil {
				t.Fatal(err)
			}
		},
		call: `{id: c, name: edit, args: {path: cfg/t.json, old_string: "{}", new_string: "[]"}}`,
		what: "edit `cfg/t.json`" + linkWhy("sub/.vscode/tasks.json")},
	{name: "a file replaced by a link", files: map[string]string{"notes.txt": "a\n", "sub/.envrc": "x\n"},
		change: replaced("sub/.envrc", "../notes.txt"),
		call:   `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`,
		what:   "edit `notes.txt`" + linkWhy("sub/.envrc")},
	{name: "a link led elsewhere", files: map[string]string{"notes.txt": "a\n", "old.txt": "o\n"}, dirs: []string{"sub"},
		links:  map[string]string{"sub/.envrc": "../old.txt"},
		change: replaced("sub/.envrc", "../notes.txt"),
		call:   `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`,
		what:   "edit `notes.txt`" + linkWhy("sub/.envrc")},
	{name: "a link replaced by a file: its old target is no longer asked", files: map[string]string{"notes.txt": "a\n"}, dirs: []string{"sub"},
		links:  map[string]string{"sub/.envrc": "../notes.txt"},
		change: replaced("sub/.envrc", ""),
		call:   `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`},
	{name: "a link replaced by a file, the file itself", files: map[string]string{"notes.txt": "a\n"}, dirs: []string{"sub"},
		links:  map[string]string{"sub/.envrc": "../notes.txt"},
		change: replaced("sub/.envrc", ""),
		call:   `{id: c, name: edit, args: {path: sub/.envrc, old_string: "x", new_string: "y"}}`,
		what:   "edit `sub/.envrc`" + autoRunReason},
	{name: "the index cut at its entry bound", files: map[string]string{"notes.txt": "a\n", "b/1": "", "b/2": "", "b/3": ""},
		call: `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`,
		what: "edit `notes.txt` — the workspace is too large for agentls to look through it all for a symbolic link named like a file your editor or shell runs by itself that could lead here",
		max:  4},
	{name: "nothing changed: a plain file is not asked", files: map[string]string{"notes.txt": "a\n"}, dirs: []string{"sub"},
		call: `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`},
}

// symlink makes link → target.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// replaced is a change that replaces rel in the workspace by a link to
// target, or by a file when target is "".
func replaced(rel, target string) func(*testing.T, string) {
	return func(t *testing.T, root string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if target != "" {
			symlink(t, target, p)
		} else if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// frozenStamps is an lstat whose folders keep the stamp they had when it
// first saw them (a file system whose times did not move).
func frozenStamps() func(string) (fs.FileInfo, error) {
	var mu sync.Mutex
	seen := map[string]fs.FileInfo{}
	return func(p string) (fs.FileInfo, error) {
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() {
			return fi, err
		}
		mu.Lock()
		defer mu.Unlock()
		if old, ok := seen[p]; ok {
			return old, nil
		}
		seen[p] = fi
		return fi, nil
	}
}

// TestAutoRunLinkIndexKeptTrue: the index of auto-run links, built by a
// first BUILD change, sees what changed since — a link made by the user
// (its folder's modification time set back, or in the clock tick of the
// listing), by a `run` command, deep under a new folder, in a folder
// renamed to .vscode, a file or link replaced — and a change where such a
// link now leads is asked; a link gone is no longer asked about; past the
// entry bound every change is asked.
func TestAutoRunLinkIndexKeptTrue(t *testing.T) {
	t.Parallel()
	for _, tc := range linkIndexCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var asked []permission.Request
			ed := &memEditor{ask: func(_ context.Context, req AskRequest) (AskReply, error) {
				mu.Lock()
				defer mu.Unlock()
				if req.Permission != nil && req.Permission.ToolCallID == "c" {
					asked = append(asked, *req.Permission)
				}
				return AskReply{Answers: map[string]any{"decision": "allow_once"}}, nil // Apply, Keep
			}}
			script := "name: links\nsteps:\n  - tool_calls:\n      - {id: w, name: write, args: {path: warm/a.txt, content: a}}\n  - text: warmed\n"
			if tc.run != "" {
				script += "  - tool_calls:\n      - {id: r, name: run, args: {command: " + quoteYAML(tc.run) + "}}\n"
			}
			script += "  - tool_calls:\n      - " + tc.call + "\n  - text: done\n"
			m, _ := newTestManager(t, script, ed, func(c *config.Config) {
				if sandbox.Detect().Status(sandbox.ModeLandlock).Mode == string(sandbox.ModeLandlock) {
					c.Sandbox.Mode = string(sandbox.ModeLandlock) // as TestAutoRunCommandAsked
				}
			})
			root := m.ws.Root()
			setUpFiles(t, root, tc.files, tc.dirs, tc.links)
			x := &m.autoRunLinks
			x.max = tc.max
			if tc.sameTick {
				x.lstat = frozenStamps()
			} else {
				x.now = func() time.Time { return time.Now().Add(linkRacyWindow) }
			}
			s := newTestSession(t, m, "build")
			ctx := context.Background()
			if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "warm"}); err != nil || res.StopReason != agentproto.StopEndTurn {
				t.Fatalf("Prompt = %+v, %v", res, err)
			}
			tree := x.tree.Load()
			if tree == nil {
				t.Fatal("the first change built no index")
			}
			if d := tree.dirs[filepath.Join(root, "sub")]; !tc.sameTick && tc.max == 0 && d != nil && !d.trusted {
				t.Fatal("sub's listing is not trusted: the case would not test the stamps")
			}
			if tc.change != nil {
				tc.change(t, root)
			}
			if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn {
				t.Fatalf("Prompt = %+v, %v", res, err)
			}
			mu.Lock()
			defer mu.Unlock()
			result := ed.toolResult("c")
			if r := ed.toolResult("r"); tc.run != "" && !strings.Contains(r, "the user was asked and kept them") {
				t.Fatalf("the run command's result %s: want what it made kept", r)
			}
			if tc.what == "" {
				if len(asked) != 0 || !strings.Contains(result, `"success":true`) {
					t.Fatalf("asked %+v, result %s; want it applied unasked", asked, result)
				}
				return
			}
			if len(asked) != 1 || asked[0].What != tc.what {
				t.Fatalf("asked %+v,\nwant once: %q (result %s)", asked, tc.what, result)
			}
		})
	}
}

// TestDirStampSettled: a folder's listing is kept only when both its
// times are before the limit and the system gave a change time.
func TestDirStampSettled(t *testing.T) {
	t.Parallel()
	const limit = 1000
	for _, tc := range []struct {
		st   dirStamp
		want bool
	}{
		{dirStamp{mtime: 999, ctime: 999}, true},
		{dirStamp{mtime: 1000, ctime: 999}, false},
		{dirStamp{mtime: 999, ctime: 1000}, false},
		{dirStamp{mtime: 2000, ctime: 500}, false}, // a modification time set ahead
		{dirStamp{mtime: 999}, false},              // no change time
	} {
		if got := tc.st.settled(limit); got != tc.want {
			t.Errorf("%+v.settled(%d) = %v, want %v", tc.st, limit, got, tc.want)
		}
	}
}
