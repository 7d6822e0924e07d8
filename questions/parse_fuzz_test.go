package questions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseButtonsAlwaysValidate feeds Parse arbitrary ask_user arguments
// (they come from a model) and checks what an accepted batch promises: a
// set or an error, never both or neither; every button shown to the person
// is an answer its own question accepts; the accepted questions parse again
// to the same batch; and answers decoded from arbitrary text validate
// without a panic, naming only questions and answer keys.
func FuzzParseButtonsAlwaysValidate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, p := range files {
		if filepath.Base(p) == "stall_deep.json" || filepath.Base(p) == "stall_anyof_refs.json" {
			continue // slow by design: FuzzSchemaLimits covers them
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), `{"confirm":true}`)
	}
	f.Add(`{"questions":[{"name":"n","question":"?","schema":{"type":"integer","minimum":1},"buttons":[{"label":"one","value":1}]}]}`, "n=2")
	f.Add(`{"questions":[{"name":"s","question":"?","schema":{"type":"string","enum":["a","b"]},"buttons":[{"label":"A","value":"a"}],"optional":true}]}`, `s=a; t=1`)
	f.Add(`{"questions":[]}`, ``)
	f.Add(`null`, `null`)
	f.Fuzz(func(t *testing.T, args, reply string) {
		set, err := Parse(json.RawMessage(args))
		if (set == nil) == (err == nil) {
			t.Fatalf("Parse(%q) = %v, %v: want exactly one of a set and an error", args, set, err)
		}
		if set == nil {
			return
		}
		for _, q := range set.Questions {
			for j, b := range q.Buttons {
				if errs := set.Validate(map[string]any{q.Name: b.Value}); errs[q.Name] != "" && errs[q.Name] != "an answer is required" {
					t.Fatalf("button %d of %q (%#v) is refused by its own question: %s\nargs: %s", j, q.Name, b.Value, errs[q.Name], args)
				}
			}
		}
		again, err := json.Marshal(map[string]any{"questions": set.Questions})
		if err != nil {
			t.Fatalf("marshal accepted questions: %v", err)
		}
		if _, err := Parse(again); err != nil {
			t.Fatalf("accepted questions do not parse again: %v\nfirst: %s\nagain: %s", err, args, again)
		}
		answers, ok := AnswersFromText(set, reply)
		if !ok {
			return
		}
		known := map[string]bool{}
		for _, q := range set.Questions {
			known[q.Name] = true
		}
		for name := range set.Validate(answers) {
			if _, answered := answers[name]; !known[name] && !answered {
				t.Fatalf("Validate names %q, neither a question nor an answer", name)
			}
		}
		_ = Summary(set.Questions, answers)
	})
}
