// Package questions is the ask_user model: it validates the questions a
// model (or the agent itself) puts to the user, validates the user's answers
// against each question's JSON Schema, chooses how a question can be shown,
// and summarises answers for the conversation.
package questions

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Limits on a batch of questions.
const (
	MinQuestions = 1  // fewest questions in one ask_user call
	MaxQuestions = 8  // most questions in one ask_user call
	MaxEnum      = 50 // most values of any enum in a question's schema
)

// nameRE is the pattern every question name must match.
var nameRE = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// Button is a one-click answer offered with a question.
type Button struct {
	Label   string `json:"label"`
	Value   any    `json:"value"`
	Variant string `json:"variant,omitempty"` // primary | secondary | danger
}

// Question is one question of an ask_user call. Schema is a JSON Schema
// (draft 2020-12) the answer must satisfy. An Optional question may be left
// unanswered.
type Question struct {
	Name     string          `json:"name"`
	Question string          `json:"question"`
	Schema   json.RawMessage `json:"schema"`
	Buttons  []Button        `json:"buttons,omitempty"`
	Severity string          `json:"severity,omitempty"` // critical | major | minor
	Optional bool            `json:"optional,omitempty"`
}

// Set is a validated batch of questions with their compiled schemas. It is
// immutable and safe for concurrent use.
type Set struct {
	Questions []Question
	schemas   []*compiled
	index     map[string]int
}

// Headline is the first line of the set's first question, whole ("" for
// an empty set): how a message names the question it is about.
func (s *Set) Headline() string {
	if len(s.Questions) == 0 {
		return ""
	}
	line, _, _ := strings.Cut(s.Questions[0].Question, "\n")
	return line
}

// InvalidError lists everything wrong with a batch of questions, one
// problem per line, each starting with the location of the problem
// (e.g. "questions[1].buttons[0].value: must be one of dev, staging, prod").
type InvalidError struct {
	Problems []string
}

// Error returns the problems, one per line.
func (e *InvalidError) Error() string { return strings.Join(e.Problems, "\n") }

// New validates questions built in Go (e.g. the plan-approval question) and
// compiles their schemas.
func New(qs []Question) (*Set, error) {
	return build(qs, nil)
}

// build validates qs and compiles the schemas. missingValue marks buttons
// whose value was absent from the JSON they were parsed from (indexed
// [question][button]); nil when the questions were built in Go.
func build(qs []Question, missingValue map[[2]int]bool) (*Set, error) {
	var p problems
	if !checkCount(&p, len(qs)) {
		return nil, p.err()
	}
	set := &Set{
		Questions: make([]Question, len(qs)),
		schemas:   make([]*compiled, len(qs)),
		index:     make(map[string]int, len(qs)),
	}
	for i, q := range qs {
		at := fmt.Sprintf("questions[%d]", i)
		checkName(&p, at, q.Name, set.index, i)
		if strings.TrimSpace(q.Question) == "" {
			p.add(at+".question", "must not be empty")
		}
		switch q.Severity {
		case "", "critical", "major", "minor":
		default:
			p.add(at+".severity", "must be one of critical, major, minor (got %q)", q.Severity)
		}
		schema := compileQuestion(&p, at+".schema", q.Name, i, q.Schema)
		buttons := make([]Button, len(q.Buttons))
		labels := map[string]int{}
		for j, b := range q.Buttons {
			bat := fmt.Sprintf("%s.buttons[%d]", at, j)
			buttons[j] = checkButton(&p, bat, b, labels, j, schema, missingValue[[2]int{i, j}])
		}
		q.Buttons = buttons
		if len(q.Buttons) == 0 {
			q.Buttons = nil
		}
		set.Questions[i] = q
		set.schemas[i] = schema
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return set, nil
}

// checkCount reports a batch with too few or too many questions.
func checkCount(p *problems, n int) bool {
	switch {
	case n < MinQuestions:
		p.add("questions", "at least %d question is required", MinQuestions)
	case n > MaxQuestions:
		p.add("questions", "at most %d questions are allowed, got %d", MaxQuestions, n)
	default:
		return true
	}
	return false
}

// checkName validates a question's name and records it in seen.
func checkName(p *problems, at, name string, seen map[string]int, i int) {
	switch {
	case name == "":
		p.add(at+".name", "is required")
		return
	case !nameRE.MatchString(name):
		p.add(at+".name", "%q must match %s", name, nameRE)
		return
	}
	if first, dup := seen[name]; dup {
		p.add(at+".name", "duplicate name %q (also questions[%d])", name, first)
		return
	}
	seen[name] = i
}

// checkButton validates one button and returns it with its value in
// canonical JSON form (numbers as json.Number).
func checkButton(p *problems, at string, b Button, labels map[string]int, j int, schema *compiled, missing bool) Button {
	label := strings.TrimSpace(b.Label)
	// Labels are told apart as a person sees them: escaped (EscapeLine), a
	// zero-width space in one shows as the text \u200b another may hold.
	shown := EscapeLine(label)
	if label == "" {
		p.add(at+".label", "must not be empty")
	} else if first, dup := labels[shown]; dup {
		p.add(at+".label", "duplicate label %q (also buttons[%d])", shown, first)
	} else {
		labels[shown] = j
	}
	switch b.Variant {
	case "", "primary", "secondary", "danger":
	default:
		p.add(at+".variant", "must be one of primary, secondary, danger (got %q)", b.Variant)
	}
	if missing {
		p.add(at+".value", "is required")
		return b
	}
	v, err := canonical(b.Value)
	if err != nil {
		p.add(at+".value", "%v", err)
		return b
	}
	b.Value = v
	if schema == nil {
		return b
	}
	fs, err := validateBounded(context.Background(), schema, v)
	if err != nil {
		p.add(at+".value", "%v", err)
		return b
	}
	for _, f := range fs {
		p.add(at+".value"+jsonPath(v, f.location), "%s", f.message)
	}
	return b
}

// canonical turns a Go value into the form encoding/json produces with
// UseNumber, the form the validator expects.
func canonical(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("not a JSON value: %w", err)
	}
	return decodeJSON(b)
}

// problems collects located messages.
type problems struct{ list []string }

func (p *problems) add(at, format string, args ...any) {
	p.list = append(p.list, at+": "+fmt.Sprintf(format, args...))
}

func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	return &InvalidError{Problems: p.list}
}
